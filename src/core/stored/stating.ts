/**
 * Records of this registry found by a value one of their nodes states, or by a record one of their nodes links
 * to: the lookups credentials and event intake make (which deployment a credential registered, which software
 * lists a client, which releases a software has). Candidates come from the lineage index in `registry.db` when it
 * is complete (so these answer while the query index loads, and cost no query on an external store), else from a
 * query; each record found is then read whole and its callers check the rest on its own quads (its class, that it
 * is not withdrawn, its other fields), the same whichever way it was found.
 */
import type * as RDF from '@rdfjs/types';
import { GRAPHS, RDF as RDF_NS, REG, XSD } from '../ns.js';
import { indexQuads, type SubjectIndex } from '../records/reader.js';
import { ownerOf, parseNQuads } from '../store/nquads.js';
import { lineageIndexReady } from '../store/lineage/lineage-index.js';
import {
  FACT,
  FIRST_LOOKUP_FACT,
  indexedAs,
  linksToValue,
  LOOKUP_FACTS,
} from '../store/lineage/lineage-facts.js';
import { sparqlIri, sparqlString } from '../discovery/sparql-text.js';
import type { Core } from '../core.js';

/** A live record of this registry, as read whole, with the node of it that matched. */
export interface FoundRecord {
  readonly iri: string;
  readonly node: string;
  readonly about: SubjectIndex;
}

/** The nodes of this registry's records that state `value` (its text) for `predicate`, in IRI order. */
export async function nodesStating(core: Core, predicate: string, value: string): Promise<string[]> {
  const kept = indexedAs(predicate);
  if (kept !== undefined && 'fact' in kept && kept.fact >= FIRST_LOOKUP_FACT && lineageIndexReady(core.db))
    return core.db
      .prepare(
        `SELECT DISTINCT n.iri FROM lineage_node n
         WHERE n.p = ? AND n.value = ? AND n.graph = ? AND n.${LOOKUP_FACTS} ORDER BY n.iri`,
      )
      .pluck()
      .all(kept.fact, value, GRAPHS.local) as string[];
  const rows = await core.graph.select(
    `SELECT DISTINCT ?n WHERE { GRAPH <${GRAPHS.local}> { ?n <${predicate}> ?v FILTER(STR(?v) = ${sparqlString(value)}) } } ORDER BY STR(?n)`,
  );
  return rows.flatMap((row) => (row.n?.type === 'uri' ? [row.n.value] : []));
}

/** A value a node states too: its text, or with `caseless` its text in any case. */
export interface AlsoStating {
  readonly predicate: string;
  readonly value: string;
  readonly caseless?: boolean;
}

/**
 * The nodes of this registry's records that link to `target` by `predicate` (and, with `also`, state a value too),
 * in IRI order.
 */
export async function nodesLinkingTo(
  core: Core,
  predicate: string,
  target: string,
  also?: AlsoStating,
): Promise<string[]> {
  const kept = indexedAs(predicate);
  const alsoKept = also === undefined ? undefined : indexedAs(also.predicate);
  const indexed = also === undefined || (alsoKept !== undefined && 'fact' in alsoKept);
  if (predicate !== RDF_NS('type') && indexed && lineageIndexReady(core.db)) {
    const fact = alsoKept !== undefined && 'fact' in alsoKept ? alsoKept.fact : undefined;
    const stated =
      also === undefined || fact === undefined
        ? { sql: '', params: [] }
        : {
            sql: `AND EXISTS (SELECT 1 FROM lineage_node v WHERE v.iri = l.s AND v.graph = l.graph AND v.p = ?
                    AND ${also.caseless === true ? 'lower_unicode(v.value)' : 'v.value'} = ?)`,
            params: [fact, also.caseless === true ? also.value.toLowerCase() : also.value],
          };
    // A predicate not kept as a link is kept as a fact of its target and predicate, found by that value.
    const links =
      kept !== undefined && 'link' in kept
        ? { sql: 'SELECT s, graph FROM lineage_link WHERE o = ? AND p = ?', params: [target, kept.link] }
        : {
            sql: `SELECT iri AS s, graph FROM lineage_node WHERE p = ? AND value = ? AND ${LOOKUP_FACTS}`,
            params: [FACT.linksTo, linksToValue(target, predicate)],
          };
    return core.db
      .prepare(`SELECT DISTINCT l.s FROM (${links.sql}) l WHERE l.graph = ? ${stated.sql} ORDER BY l.s`)
      .pluck()
      .all(...links.params, GRAPHS.local, ...stated.params) as string[];
  }
  const value = also?.caseless === true ? 'LCASE(STR(?v)) = LCASE' : 'STR(?v) = ';
  const stated =
    also === undefined ? '' : `?n <${also.predicate}> ?v FILTER(${value}(${sparqlString(also.value)}))`;
  const rows = await core.graph.select(
    `SELECT DISTINCT ?n WHERE { GRAPH <${GRAPHS.local}> { ?n <${predicate}> ${sparqlIri(target, 'target')} . ${stated} } } ORDER BY STR(?n)`,
  );
  return rows.flatMap((row) => (row.n?.type === 'uri' ? [row.n.value] : []));
}

/**
 * The live records of one of `classes` that hold `nodes` (a record holds its own IRI and its fragments), read
 * together, each with the node found; in the order of the nodes.
 */
export async function recordsOfNodes(
  core: Core,
  nodes: readonly string[],
  classes: readonly string[],
): Promise<FoundRecord[]> {
  if (nodes.length === 0) return [];
  const texts = await core.graph.readRecords(GRAPHS.local, [...new Set(nodes.map(ownerOf))]);
  const read = new Map<string, SubjectIndex>();
  const found: FoundRecord[] = [];
  for (const node of nodes) {
    const iri = ownerOf(node);
    const text = texts.get(iri);
    if (text === undefined) continue;
    let about = read.get(iri);
    if (about === undefined) read.set(iri, (about = indexQuads(parseNQuads(text))));
    const types = valuesOf(about, iri, RDF_NS('type'));
    const live = !statesTrue(about, iri, REG('tombstoned'));
    if (live && types.some((type) => classes.includes(type))) found.push({ iri, node, about });
  }
  return found;
}

/** The live records of one of `classes` whose own node (not a fragment) states `value` for `predicate`. */
export async function recordsStating(
  core: Core,
  predicate: string,
  value: string,
  classes: readonly string[],
): Promise<FoundRecord[]> {
  const nodes = await nodesStating(core, predicate, value);
  return recordsOfNodes(
    core,
    nodes.filter((node) => node === ownerOf(node)),
    classes,
  );
}

/**
 * The live records of one of `classes` whose own node links to `target` by `predicate` (and, with `also`, states a
 * value too), in IRI order.
 */
export async function recordsLinkingTo(
  core: Core,
  predicate: string,
  target: string,
  classes: readonly string[],
  also?: AlsoStating,
): Promise<FoundRecord[]> {
  const nodes = await nodesLinkingTo(core, predicate, target, also);
  return recordsOfNodes(
    core,
    nodes.filter((node) => node === ownerOf(node)),
    classes,
  );
}

/** The values (IRIs or literals' text) a record states of `subject` for `predicate`. */
export function valuesOf(about: SubjectIndex, subject: string, predicate: string): string[] {
  return (about.get(subject)?.get(predicate) ?? []).map((term) => term.value);
}

/** The first value a record states of `subject` for `predicate` (its quads are kept in canonical order). */
export function valueOf(about: SubjectIndex, subject: string, predicate: string): string | undefined {
  return valuesOf(about, subject, predicate)[0];
}

/** Whether a record states the boolean true of `subject` for `predicate` (as the pattern `?s <p> true` matches). */
export function statesTrue(about: SubjectIndex, subject: string, predicate: string): boolean {
  return (about.get(subject)?.get(predicate) ?? []).some(isTrue);
}

/** As the pattern `?s reg:tombstoned true` matches: the boolean true. */
function isTrue(term: RDF.Term): boolean {
  return term.termType === 'Literal' && term.value === 'true' && term.datatype.value === XSD('boolean');
}
