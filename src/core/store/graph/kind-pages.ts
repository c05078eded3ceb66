/**
 * Pages of the records of a kind, read from the table in `registry.db` that lists a store's records (the embedded
 * store's `record`, the external store's `external_record`; each row carries the record's kind, `<kind>:withdrawn`
 * once withdrawn) and its per-kind counts: an unfiltered list is answered from SQLite, before the query index has
 * loaded and without a request to an external store.
 */
import { GRAPHS, PEER_GRAPH_PREFIX } from '../../ns.js';
import type { Database } from '../database.js';

/** The table of a store's records and the table of their counts by graph and kind. */
export interface RecordTables {
  readonly records: 'record' | 'external_record';
  readonly stats: 'record_stats' | 'external_stats';
}

/** Which records of which graphs a page lists. */
export interface KindScope {
  /** The record kinds listed (a kind and its withdrawn form, for a list that keeps withdrawn records). */
  readonly kinds: readonly string[];
  /** One graph, or undefined for this registry's and every peer's. */
  readonly graph?: string | undefined;
}

/** A page of a kind: at most `limit` records whose subject sorts before `before`, newest (greatest) first. */
export interface KindPageQuery extends KindScope {
  readonly before?: string | undefined;
  readonly limit: number;
}

/** The last graph name that starts with the peer prefix, as an exclusive upper bound. */
const PEER_GRAPHS_END = `${PEER_GRAPH_PREFIX.slice(0, -1)}${String.fromCharCode(PEER_GRAPH_PREFIX.charCodeAt(PEER_GRAPH_PREFIX.length - 1) + 1)}`;

/** The condition on a graph column that selects one graph, or this registry's and every peer's. */
function graphCondition(graph: string | undefined, column = 'graph'): { sql: string; params: string[] } {
  return graph === undefined
    ? {
        sql: `(${column} = ? OR (${column} >= ? AND ${column} < ?))`,
        params: [GRAPHS.local, PEER_GRAPH_PREFIX, PEER_GRAPHS_END],
      }
    : { sql: `${column} = ?`, params: [graph] };
}

/**
 * One page of records of the scope's kinds, in descending subject order (minted ids are time-ordered, so newest
 * first), a record held in two graphs listed once per graph. One statement per kind, each reading at most `limit`
 * rows of the (kind, subject) index.
 */
export function kindPage(
  db: Database,
  tables: RecordTables,
  query: KindPageQuery,
): { subject: string; graph: string }[] {
  const graphs = graphCondition(query.graph);
  const before = query.before === undefined ? '' : 'AND subject < ?';
  const statement = db.prepare(
    `SELECT subject, graph FROM ${tables.records} WHERE kind = ? AND ${graphs.sql} ${before}
     ORDER BY subject DESC, graph LIMIT ?`,
  );
  const rows = query.kinds.flatMap(
    (kind) =>
      statement.all(
        kind,
        ...graphs.params,
        ...(query.before === undefined ? [] : [query.before]),
        query.limit,
      ) as { subject: string; graph: string }[],
  );
  if (query.kinds.length > 1)
    rows.sort((a, b) =>
      a.subject === b.subject ? compare(a.graph, b.graph) : compare(b.subject, a.subject),
    );
  return rows.slice(0, query.limit);
}

/** How many records of the scope's kinds there are, from the counts kept with the records. */
export function kindTotal(db: Database, tables: RecordTables, scope: KindScope): number {
  if (scope.kinds.length === 0) return 0;
  const graphs = graphCondition(scope.graph);
  const row = db
    .prepare(
      `SELECT coalesce(sum(records), 0) AS n FROM ${tables.stats}
       WHERE kind IN (${scope.kinds.map(() => '?').join(', ')}) AND ${graphs.sql}`,
    )
    .get(...scope.kinds, ...graphs.params) as { n: number };
  return row.n;
}

/** Orders strings as SQLite's binary collation does (by UTF-8 bytes, which is code point order). */
function compare(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a), Buffer.from(b));
}

/**
 * The values of a lineage index fact (`lineage-index.ts`, kept for list facets) over the records of the scope:
 * each value with how many records state it, most frequent first (then by value), at most `limit`.
 */
export function kindFacet(
  db: Database,
  tables: RecordTables,
  scope: KindScope,
  fact: number,
  limit: number,
): { value: string; count: number }[] {
  if (scope.kinds.length === 0) return [];
  const graphs = graphCondition(scope.graph, 'r.graph');
  return db
    .prepare(
      `SELECT n.value AS value, COUNT(DISTINCT r.subject) AS count FROM ${tables.records} r
       JOIN lineage_node n ON n.iri = r.subject AND n.graph = r.graph AND n.p = ?
       WHERE r.kind IN (${scope.kinds.map(() => '?').join(', ')}) AND ${graphs.sql}
       GROUP BY n.value ORDER BY count DESC, n.value LIMIT ?`,
    )
    .all(fact, ...scope.kinds, ...graphs.params, limit) as { value: string; count: number }[];
}
