/**
 * SQL fragments over the lineage index (`lineage-index.ts`) that its readers share: which graphs hold records, a
 * node not withdrawn, a node's first fact or link, the facts of several nodes, and the artifacts deployments
 * touched.
 */
import type { Database } from '../database.js';
import { GRAPHS, PEER_GRAPH_PREFIX } from '../../ns.js';
import { FACT, LINK } from './lineage-facts.js';

/** The last graph name that starts with the peer prefix, as an exclusive upper bound. */
const PEER_GRAPHS_END = `${PEER_GRAPH_PREFIX.slice(0, -1)}${String.fromCharCode(PEER_GRAPH_PREFIX.charCodeAt(PEER_GRAPH_PREFIX.length - 1) + 1)}`;

/**
 * An SQL condition that the graph in `column` holds records (this registry's, or a peer's cache), as the query
 * readers filter `?g`; a range, so the column's indexes serve it. With its parameters.
 */
export function recordGraphSql(column: string): { sql: string; params: string[] } {
  return {
    sql: `(${column} = ? OR (${column} >= ? AND ${column} < ?))`,
    params: [GRAPHS.local, PEER_GRAPH_PREFIX, PEER_GRAPHS_END],
  };
}

/** An SQL condition that the graph in `column` is a peer's cache, as a range; with its parameters. */
export function peerGraphSql(column: string): { sql: string; params: string[] } {
  return { sql: `(${column} >= ? AND ${column} < ?)`, params: [PEER_GRAPH_PREFIX, PEER_GRAPHS_END] };
}

/** An SQL condition that the node in `iri` is not withdrawn in the graph `graph` (a column or `?`), or in any. */
export function notWithdrawnSql(iri: string, graph?: string): string {
  const inGraph = graph === undefined ? '' : ` AND w.graph = ${graph}`;
  return `NOT EXISTS (SELECT 1 FROM lineage_node w WHERE w.iri = ${iri}${inGraph} AND w.p = ${FACT.tombstoned})`;
}

/**
 * An SQL subquery giving the first value of the fact `fact` of the node in `iri` in the graph in `graph` (both
 * columns or parameters of the enclosing statement), in the order the records stated them: null when none.
 */
export function firstFactSql(iri: string, graph: string, fact: number): string {
  return `(SELECT first_fact.value FROM lineage_node first_fact WHERE first_fact.iri = ${iri}
    AND first_fact.graph = ${graph} AND first_fact.p = ${fact} ORDER BY first_fact.rowid LIMIT 1)`;
}

/** `firstFactSql` for the target of the link `link` from the node in `s`. */
export function firstLinkSql(s: string, graph: string, link: number): string {
  return `(SELECT first_link.o FROM lineage_link first_link WHERE first_link.s = ${s}
    AND first_link.graph = ${graph} AND first_link.p = ${link} ORDER BY first_link.rowid LIMIT 1)`;
}

/**
 * The facts of the codes `facts` kept about each node in its graph (pairs of IRI and graph), in the order the
 * records stated them.
 */
export function factsAt(
  db: Database,
  nodes: readonly (readonly [string, string])[],
  facts: readonly number[],
): { iri: string; graph: string; p: number; value: string }[] {
  return db
    .prepare(
      `SELECT n.iri AS iri, n.graph AS graph, n.p AS p, n.value AS value FROM json_each(?) c
       JOIN lineage_node n ON n.iri = c.value ->> 0 AND n.graph = c.value ->> 1
       WHERE n.p IN (${facts.map(() => '?').join(', ')}) ORDER BY n.rowid`,
    )
    .all(JSON.stringify(nodes), ...facts) as { iri: string; graph: string; p: number; value: string }[];
}

/**
 * The artifacts deployments touched, as rows (i, s, g): the deployment `i`, an artifact `s` and a graph `g` that
 * holds it (of this registry or a peer, not withdrawn there), where a run associated with `i` generated `s` (stated
 * in g) or used it, or `s` is attributed to `i` (stated in g) and `i` is a deployment. `deployments` is an SQL
 * subquery giving the deployments' IRIs, with its parameters.
 */
export function touchedSql(
  deployments: string,
  params: readonly unknown[],
): { sql: string; params: unknown[] } {
  return {
    sql: `SELECT i, s, g FROM (
      SELECT a.o AS i, made.s AS s, made.graph AS g FROM lineage_link a
        JOIN lineage_link made ON made.o = a.s AND made.p = ${LINK.generatedBy}
        WHERE a.o IN (${deployments}) AND a.p = ${LINK.associatedWith}
      UNION
      SELECT a.o, u.o, h.graph FROM lineage_link a
        JOIN lineage_link u ON u.s = a.s AND u.graph = a.graph AND u.p = ${LINK.used}
        JOIN lineage_node h ON h.iri = u.o AND h.p = ${FACT.artifact}
        WHERE a.o IN (${deployments}) AND a.p = ${LINK.associatedWith}
      UNION
      SELECT t.o, t.s, t.graph FROM lineage_link t
        WHERE t.o IN (${deployments}) AND t.p = ${LINK.attributedTo}
          AND EXISTS (SELECT 1 FROM lineage_node d WHERE d.iri = t.o AND d.p = ${FACT.deployment})
    ) x
    WHERE ${recordGraphSql('g').sql}
      AND EXISTS (SELECT 1 FROM lineage_node k WHERE k.iri = x.s AND k.graph = x.g AND k.p = ${FACT.artifact})
      AND ${notWithdrawnSql('x.s', 'x.g')}`,
    params: [...params, ...params, ...params, ...recordGraphSql('g').params],
  };
}
