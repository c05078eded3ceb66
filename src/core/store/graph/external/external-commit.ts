/**
 * The pure parts of an external-store commit: which records change, the update requests that carry the change
 * to the server (one for an ordinary commit) and the undo journalled before them, and the new state of each
 * record in the subject table.
 */
import { BadRequestError, InternalError } from '../../../errors.js';
import type { Database } from '../../database.js';
import { canonicalTextOf, linesOf, tripleOf } from '../../nquads.js';
import type { SearchReader } from '../../search-entry.js';
import { indexRecordsForSearch, type SearchWrite } from '../../search-index.js';
import { indexRecordLineage } from '../../lineage/lineage-index.js';
import type { ReadRecord } from './external-read.js';
import {
  deleteExternalRecord,
  isOwnSubject,
  readExternalRecord,
  sharedLineHolders,
  writeExternalRecord,
  type ExternalRecord,
  type UndoPlan,
} from './external-table.js';
import { dataOperations, mayBeRewritten, subjectOfLine } from '../sparql-terms.js';
import type { RecordWrite } from '../types.js';

/** One record's change within a commit. */
export interface Change {
  readonly write: RecordWrite;
  readonly before: ExternalRecord | undefined;
  readonly old: ReadRecord | undefined;
  /** The new lines (written forms), or null when the record is deleted. */
  readonly lines: readonly string[] | null;
  readonly kind: string | null;
}

/** The key of a record in maps: graph and subject. */
export function keyOf(write: { readonly graph: string; readonly subject: string }): string {
  return `${write.graph}\n${write.subject}`;
}

/** The last write of each record in a commit (an earlier write's kind is kept when a later one gives none). */
export function lastWrites(writes: readonly RecordWrite[]): Map<string, RecordWrite> {
  const last = new Map<string, RecordWrite>();
  for (const write of writes) {
    if (write.graph === '') {
      throw new BadRequestError(
        'the external graph store holds named graphs only; quads in the default graph cannot be written to it',
      );
    }
    const key = keyOf(write);
    const earlier = last.get(key);
    last.set(
      key,
      write.kind === undefined && earlier?.kind !== undefined ? { ...write, kind: earlier.kind } : write,
    );
  }
  return last;
}

/** What changes, given each record's state before (unchanged records are left out). */
export function changesOf(
  last: ReadonlyMap<string, RecordWrite>,
  before: ReadonlyMap<string, ExternalRecord>,
  old: ReadonlyMap<string, ReadRecord>,
): Change[] {
  const changes: Change[] = [];
  for (const [key, write] of last) {
    const prior = before.get(key);
    const kind = write.kind !== undefined ? write.kind : (prior?.kind ?? null);
    const text = write.nquads ?? (write.quads === null ? null : canonicalTextOf(write.quads));
    if (text === null) {
      if (prior !== undefined) changes.push({ write, before: prior, old: old.get(key), lines: null, kind });
      continue;
    }
    const lines = linesOf(text);
    const suffix = ` <${write.graph}> .`;
    if (lines.some((line) => !line.endsWith(suffix)))
      throw new InternalError(`a write of ${write.subject} holds quads outside its graph ${write.graph}`);
    if (prior !== undefined && old.get(key)?.text === text && kind === prior.kind) continue;
    changes.push({ write, before: prior, old: old.get(key), lines, kind });
  }
  return changes;
}

/**
 * Lines one update request carries at most. Virtuoso compiles a whole request into one code vector of at most
 * 32 KiB, and its compile time grows faster than the request (measured: 500 lines in 0.1 s, 1,000 in two
 * operations 1.1 s, 2,000 in four 3.5 s; some 14,000 lines, one large advertisement, are refused outright). So a
 * large commit goes as several requests, in order; the journalled undo covers one that stops half way, as it
 * covers a server that applies the operations of one request one by one.
 */
const LINES_PER_REQUEST = 500;

/** The update requests that delete and then insert these lines, each at most `LINES_PER_REQUEST` lines. */
export function updateRequests(
  deletes: ReadonlyMap<string, readonly string[]>,
  inserts: ReadonlyMap<string, readonly string[]>,
): string[] {
  const entries: [keyword: 'DELETE DATA' | 'INSERT DATA', graph: string, line: string][] = [];
  for (const [graph, lines] of deletes) for (const line of lines) entries.push(['DELETE DATA', graph, line]);
  for (const [graph, lines] of inserts) for (const line of lines) entries.push(['INSERT DATA', graph, line]);
  const requests: string[] = [];
  for (let start = 0; start < entries.length; start += LINES_PER_REQUEST) {
    const chunk = { 'DELETE DATA': new Map<string, string[]>(), 'INSERT DATA': new Map<string, string[]>() };
    for (const [keyword, graph, line] of entries.slice(start, start + LINES_PER_REQUEST)) {
      const lines = chunk[keyword].get(graph);
      if (lines === undefined) chunk[keyword].set(graph, [line]);
      else lines.push(line);
    }
    const operations = [
      ...dataOperations('DELETE DATA', chunk['DELETE DATA']),
      ...dataOperations('INSERT DATA', chunk['INSERT DATA']),
    ];
    requests.push(operations.join(' ;\n'));
  }
  return requests;
}

/**
 * Inserted lines from which a commit that also deletes posts its inserts to the Graph Store Protocol endpoint
 * (after a DELETE DATA request) rather than send both in one update request; a commit that only inserts posts them
 * whatever their number. Measured on Virtuoso 7.2 (2 cores, loopback), INSERT DATA against a POST of the same
 * lines: 15 lines 4.2 ms against 3.0, 50 lines 9.6 against 4.9, 150 lines 21.6 against 7.8, 375 lines 43 against
 * 14; a request of 5,000 lines is refused as INSERT DATA, and a POST of 50,000 lines parses at about 70k quads/s.
 * From 64 lines a POST saves more than the separate DELETE DATA request costs.
 */
const POST_FROM_LINES = 64;

/** Characters of N-Triples one Graph Store Protocol POST carries at most. */
const POST_CHARS = 8 << 20;

/** A commit's graph update: the lines that go and come per graph, and its undo. */
export interface GraphUpdate {
  readonly deletes: ReadonlyMap<string, readonly string[]>;
  readonly inserts: ReadonlyMap<string, readonly string[]>;
  readonly undo: UndoPlan;
}

/** One Graph Store Protocol POST: N-Triples for one named graph. */
export interface GraphPost {
  readonly graph: string;
  readonly ntriples: string;
}

/**
 * How a graph update is sent: its update requests, in order, then its posts. With a Graph Store Protocol endpoint
 * (`posts`), the inserts of a commit that deletes nothing, or that inserts at least `POST_FROM_LINES` lines, go as
 * POSTs of at most `POST_CHARS` each after the deletes; otherwise everything goes as update requests.
 */
export function requestsOf(update: GraphUpdate, posts: boolean): { updates: string[]; posts: GraphPost[] } {
  let inserted = 0;
  for (const lines of update.inserts.values()) inserted += lines.length;
  let deleted = 0;
  for (const lines of update.deletes.values()) deleted += lines.length;
  if (!posts || inserted === 0 || (deleted > 0 && inserted < POST_FROM_LINES))
    return { updates: updateRequests(update.deletes, update.inserts), posts: [] };
  const out: GraphPost[] = [];
  for (const [graph, lines] of update.inserts) {
    // Each line is `s p o <graph> .`, checked when the change was planned: without the graph it is N-Triples.
    const triples = lines.map((line) => tripleOf(line, graph));
    for (const ntriples of postBodies(triples)) out.push({ graph, ntriples });
  }
  return { updates: updateRequests(update.deletes, new Map()), posts: out };
}

/** N-Triples lines (without their line ends) joined into bodies of at most `POST_CHARS` characters each. */
export function postBodies(triples: readonly string[]): string[] {
  const bodies: string[] = [];
  let chunk: string[] = [];
  let size = 0;
  for (const triple of triples) {
    if (size + triple.length + 1 > POST_CHARS && chunk.length > 0) {
      bodies.push(chunk.join(''));
      chunk = [];
      size = 0;
    }
    chunk.push(`${triple}\n`);
    size += triple.length + 1;
  }
  if (chunk.length > 0) bodies.push(chunk.join(''));
  return bodies;
}

/**
 * The graph update of a commit and its undo. A line about an outside subject is deleted only when no other
 * record still asserts it, and the undo deletes only lines that were not on the server before.
 */
export function updateOf(db: Database, changes: readonly Change[]): GraphUpdate {
  const committed = new Set(changes.map((change) => keyOf(change.write)));
  const assertedAfter = new Set<string>();
  for (const change of changes) {
    for (const line of change.lines ?? []) {
      if (!isOwnSubject(change.write.subject, subjectOfLine(line)))
        assertedAfter.add(`${change.write.graph}\n${line}`);
    }
  }
  const heldElsewhere = (graph: string, record: string, line: string): boolean =>
    sharedLineHolders(db, graph, line).some(
      (holder) => holder !== record && !committed.has(`${graph}\n${holder}`),
    );
  const deletes = new Map<string, string[]>();
  const inserts = new Map<string, string[]>();
  const undo: UndoPlan = { delete: {}, insert: {} };
  const push = (map: Map<string, string[]>, graph: string, line: string): void => {
    const list = map.get(graph);
    if (list === undefined) map.set(graph, [line]);
    else list.push(line);
  };
  for (const { write, old, lines } of changes) {
    const { graph, subject } = write;
    const before = new Set(old?.lines ?? []);
    const after = new Set(lines ?? []);
    for (const line of before) {
      if (after.has(line)) continue;
      const shared = !isOwnSubject(subject, subjectOfLine(line));
      if (shared && (heldElsewhere(graph, subject, line) || assertedAfter.has(`${graph}\n${line}`))) continue;
      const server = old?.serverForm.get(line) ?? line;
      push(deletes, graph, server);
      (undo.insert[graph] ??= []).push(server);
    }
    for (const line of after) {
      if (before.has(line)) continue;
      push(inserts, graph, line);
      const shared = !isOwnSubject(subject, subjectOfLine(line));
      if (!shared || !heldElsewhere(graph, subject, line)) (undo.delete[graph] ??= []).push(line);
    }
  }
  return { deletes, inserts, undo };
}

/**
 * Records the changes of a commit in the subject table and the lineage index, then the search index for all of
 * them together; runs inside the commit's transaction.
 */
export function recordChanges(db: Database, search: SearchReader, changes: readonly Change[]): void {
  const searched: SearchWrite[] = [];
  for (const change of changes) {
    const { write, lines, kind, before, old } = change;
    if (lines === null) {
      deleteExternalRecord(db, write.graph, write.subject);
      searched.push({ graph: write.graph, subject: write.subject, kind: before?.kind, lines: null });
      indexRecordLineage(db, write.graph, write.subject, null);
      continue;
    }
    const kept = new Set(lines);
    const previous = new Set(old?.lines ?? []);
    // Lines kept from before keep what is known of their server form; typed lines new here are checked by the
    // next read, which is a query the registry makes anyway.
    const rewrites = [...(old?.serverForm ?? [])]
      .filter(([written]) => kept.has(written))
      .map(([written, server]): [string, string] => [server, written]);
    const unverified = lines.filter((line) => !previous.has(line) && mayBeRewritten(line));
    const fresh = before === undefined;
    writeExternalRecord(
      db,
      {
        graph: write.graph,
        subject: write.subject,
        kind,
        quadCount: lines.length,
        subjects: [...new Set(lines.map(subjectOfLine))].sort(),
        sharedLines: lines.filter((line) => !isOwnSubject(write.subject, subjectOfLine(line))),
        rewrites,
        unverified,
      },
      fresh,
    );
    // Withdrawn records (kind `<kind>:withdrawn`, or carrying the tombstone) leave the search index there.
    searched.push({ graph: write.graph, subject: write.subject, kind, lines });
    indexRecordLineage(db, write.graph, write.subject, lines, fresh);
  }
  indexRecordsForSearch(db, search, searched);
}

/** Forgets records written ahead of the server (`UndoPlan.written`), as a delete of each would; in a transaction. */
export function forgetWritten(db: Database, search: SearchReader, undo: UndoPlan): void {
  const changes: Change[] = (undo.written ?? []).map(([graph, subject]) => ({
    write: { graph, subject, quads: null },
    before: readExternalRecord(db, graph, subject),
    old: undefined,
    lines: null,
    kind: null,
  }));
  recordChanges(
    db,
    search,
    changes.filter((change) => change.before !== undefined),
  );
}

/** The update requests that apply a journalled undo (none when it has nothing to do). */
export function undoRequests(undo: UndoPlan): string[] {
  return updateRequests(new Map(Object.entries(undo.delete)), new Map(Object.entries(undo.insert)));
}

/** Items grouped by a key, in first-seen order. */
export function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const list = groups.get(k);
    if (list === undefined) groups.set(k, [item]);
    else list.push(item);
  }
  return groups;
}
