/**
 * Reading records back from the external store: one SELECT over the subjects the subject table lists, the
 * solutions turned into canonical lines, the lines the server keeps in another lexical form put back as written,
 * and lines about outside subjects kept only when the record asserted them.
 */
import { canonicalText } from '../../nquads.js';
import { isOwnSubject, type ExternalRecord } from './external-table.js';
import type { SparqlClient } from './sparql-client.js';
import { lineOfSolution, pairRewrites } from '../sparql-terms.js';

/** A record as read from the server. */
export interface ReadRecord {
  /** Canonical N-Quads text, as the registry wrote it. */
  readonly text: string;
  /** Its lines (the written forms). */
  readonly lines: readonly string[];
  /** The form the server holds each line in, where it differs from the written form. */
  readonly serverForm: ReadonlyMap<string, string>;
}

/**
 * Quads one read asks the server for at most (a record larger than this is read alone): a stock Virtuoso
 * returns no more than 10,000 solutions to a query, and a list page of 200 records of a few dozen quads each
 * stays within one read.
 */
const READ_QUADS = 9000;

/** Records in groups whose quads together stay within one read, in the order given. */
function quadBudgetGroups(records: readonly ExternalRecord[]): ExternalRecord[][] {
  const groups: ExternalRecord[][] = [];
  let group: ExternalRecord[] = [];
  let quads = 0;
  for (const record of records) {
    if (group.length > 0 && quads + record.quadCount > READ_QUADS) {
      groups.push(group);
      group = [];
      quads = 0;
    }
    group.push(record);
    quads += record.quadCount;
  }
  if (group.length > 0) groups.push(group);
  return groups;
}

/** An IRI as it may stand in a SPARQL query. */
export function iriRef(iri: string): string {
  if (/[\s<>"{}|^`\\]/.test(iri)) throw new Error(`not an IRI that can be sent in a query: ${iri}`);
  return `<${iri}>`;
}

/**
 * The server's lines, in the server's forms, of every quad in `graph` whose subject is one of `subjects`, by
 * subject. One SELECT with VALUES: never a scan.
 */
export async function fetchSubjectLines(
  client: SparqlClient,
  graph: string,
  subjects: readonly string[],
): Promise<Map<string, string[]>> {
  const bySubject = new Map<string, string[]>();
  if (subjects.length === 0) return bySubject;
  const values = subjects.map(iriRef).join(' ');
  const rows = await client.selectRaw(
    `SELECT ?s ?p ?o WHERE { VALUES ?s { ${values} } GRAPH ${iriRef(graph)} { ?s ?p ?o } }`,
  );
  for (const row of rows) {
    const { s, p, o } = row;
    if (s === undefined || p === undefined || o === undefined) continue;
    const line = lineOfSolution(s, p, o, graph);
    const list = bySubject.get(s.value);
    if (list === undefined) bySubject.set(s.value, [line]);
    else list.push(line);
  }
  return bySubject;
}

/**
 * Reads records of one graph with one query; records the server no longer holds read as empty text. Unverified
 * lines (typed literals written since the last read) are compared with what the server holds: a line kept in
 * another lexical form is read as written, and the pairs found are handed to `learnt` to be recorded, all of the
 * read's together (one transaction for them, not one per record).
 */
export async function readExternalRecords(
  client: SparqlClient,
  graph: string,
  records: readonly ExternalRecord[],
  learnt: (found: readonly Learnt[]) => void = () => undefined,
): Promise<Map<string, ReadRecord>> {
  const found: Learnt[] = [];
  const bySubject = new Map<string, string[]>();
  for (const group of quadBudgetGroups(records)) {
    const subjects = new Set<string>();
    for (const record of group) for (const subject of record.subjects) subjects.add(subject);
    for (const [subject, lines] of await fetchSubjectLines(client, graph, [...subjects]))
      bySubject.set(subject, lines);
  }
  const out = new Map<string, ReadRecord>();
  for (const record of records) {
    const written = new Map(record.rewrites.map(([server, form]) => [server, form] as const));
    const shared = new Set(record.sharedLines);
    const own: string[] = [];
    const outside: string[] = [];
    for (const subject of record.subjects) {
      const list = isOwnSubject(record.subject, subject) ? own : outside;
      for (const server of bySubject.get(subject) ?? []) list.push(server);
    }
    if (record.unverified.length > 0) {
      // Unverified lines are matched against every line the server holds about the record's subjects.
      const got = new Set([...own, ...outside].map((server) => written.get(server) ?? server));
      const { pairs } = pairRewrites(new Set(record.unverified), got);
      const rewrites = [
        ...record.rewrites.filter(([server]) => !pairs.some(([paired]) => paired === server)),
        ...pairs,
      ];
      for (const [server, form] of pairs) written.set(server, form);
      found.push({ record, rewrites });
    }
    const lines: string[] = [];
    const serverForm = new Map<string, string>();
    const take = (server: string, isOwn: boolean): void => {
      const line = written.get(server) ?? server;
      if (!isOwn && !shared.has(line)) return;
      lines.push(line);
      if (line !== server) serverForm.set(line, server);
    };
    for (const server of own) take(server, true);
    for (const server of outside) take(server, false);
    const unique = [...new Set(lines)].sort();
    out.set(record.subject, { text: canonicalText(unique), lines: unique, serverForm });
  }
  if (found.length > 0) learnt(found);
  return out;
}

/** What a read learnt of one record: the server forms of its lines, now verified. */
export interface Learnt {
  readonly record: ExternalRecord;
  readonly rewrites: readonly (readonly [server: string, written: string])[];
}
