/**
 * Pages of the records of a kind, read from the table in `registry.db` that lists a store's records (the embedded
 * store's `record`, the external store's `external_record`; each row carries the record's kind, `<kind>:withdrawn`
 * once withdrawn) and its per-kind counts, joined with the lineage index for filters it keeps: such a list is
 * answered from SQLite, before the query index has loaded and without a request to an external store.
 */
import type { Database } from '../database.js';
import { recordGraphSql, touchedSql } from '../lineage-index.js';

/** The table of a store's records and the table of their counts by graph and kind. */
export interface RecordTables {
  readonly records: 'record' | 'external_record';
  readonly stats: 'record_stats' | 'external_stats';
}

/**
 * A list filter the lineage index can answer (`lineage-index.ts`, `indexedAs`): the record links to `o`, or links to
 * something that links on to `through.o` (in the record's graph), or states `value` (an IRI or a literal's lexical
 * form; with `caseless`, in any case), or, with `orAbsent`, states it or nothing for that fact; or it is an artifact
 * `touchedSql` finds for the deployments a subquery gives; or the text of its `facts` joined by spaces (a missing
 * one read as empty) contains `words` in any case; or it meets one of `anyOf`.
 */
export type IndexCondition =
  | { readonly link: number; readonly o: string }
  | { readonly link: number; readonly through: { readonly link: number; readonly o: string } }
  | { readonly touchedBy: { readonly sql: string; readonly params: readonly unknown[] } }
  | {
      readonly fact: number;
      readonly value: string;
      readonly orAbsent?: boolean;
      readonly caseless?: boolean;
    }
  | { readonly words: string; readonly facts: readonly number[] }
  | { readonly anyOf: readonly IndexCondition[] };

/** Which records of which graphs a page lists. */
export interface KindScope {
  /** The record kinds listed (a kind and its withdrawn form, for a list that keeps withdrawn records). */
  readonly kinds: readonly string[];
  /** One graph, or undefined for this registry's and every peer's. */
  readonly graph?: string | undefined;
  /** Filters every listed record meets, in its own graph. */
  readonly conditions?: readonly IndexCondition[] | undefined;
}

/** A page of a kind: at most `limit` records whose subject sorts before `before`, newest (greatest) first. */
export interface KindPageQuery extends KindScope {
  readonly before?: string | undefined;
  readonly limit: number;
}

interface Sql {
  readonly sql: string;
  readonly params: unknown[];
}

/** The condition on the graph of the record `r`: one graph, or this registry's and every peer's. */
function graphCondition(graph: string | undefined): Sql {
  return graph === undefined ? recordGraphSql('r.graph') : { sql: 'r.graph = ?', params: [graph] };
}

/** A condition on the record `r` in its graph, as SQL with its parameters. */
function conditionSql(condition: IndexCondition): Sql {
  if ('anyOf' in condition) {
    const parts = condition.anyOf.map(conditionSql);
    return {
      sql: parts.length === 0 ? '0' : `(${parts.map((part) => part.sql).join(' OR ')})`,
      params: parts.flatMap((part) => part.params),
    };
  }
  if ('words' in condition) {
    // As SPARQL's CONTAINS(LCASE(CONCAT(...))) over optional fields: each combination of the fields' values, a
    // missing field read as empty; `lower_unicode` folds case as LCASE does, beyond ASCII.
    const joins = condition.facts
      .map(
        (_, n) =>
          `LEFT JOIN lineage_node t${n} ON t${n}.iri = r.subject AND t${n}.graph = r.graph AND t${n}.p = ?`,
      )
      .join(' ');
    const text = condition.facts.map((_, n) => `coalesce(t${n}.value, '')`).join(" || ' ' || ");
    return {
      sql: `EXISTS (SELECT 1 FROM (SELECT 1) x ${joins} WHERE instr(lower_unicode(${text}), ?) > 0)`,
      params: [...condition.facts, condition.words.toLowerCase()],
    };
  }
  if ('touchedBy' in condition) {
    const touched = touchedSql(condition.touchedBy.sql, condition.touchedBy.params);
    return { sql: `(r.graph, r.subject) IN (SELECT g, s FROM (${touched.sql}))`, params: touched.params };
  }
  if ('through' in condition)
    return {
      sql: `EXISTS (SELECT 1 FROM lineage_link l INDEXED BY lineage_link_from
              JOIN lineage_link m INDEXED BY lineage_link_from ON m.s = l.o AND m.graph = l.graph AND m.p = ? AND m.o = ?
              WHERE l.s = r.subject AND l.p = ? AND l.graph = r.graph)`,
      params: [condition.through.link, condition.through.o, condition.link],
    };
  if ('link' in condition)
    return {
      sql: 'EXISTS (SELECT 1 FROM lineage_link l INDEXED BY lineage_link_from WHERE l.s = r.subject AND l.p = ? AND l.o = ? AND l.graph = r.graph)',
      params: [condition.link, condition.o],
    };
  const caseless = condition.caseless === true;
  const stated = `EXISTS (SELECT 1 FROM lineage_node n WHERE n.iri = r.subject AND n.p = ? AND ${caseless ? 'lower_unicode(n.value)' : 'n.value'} = ? AND n.graph = r.graph)`;
  const value = caseless ? condition.value.toLowerCase() : condition.value;
  return condition.orAbsent === true
    ? {
        sql: `(${stated} OR NOT EXISTS (SELECT 1 FROM lineage_node n WHERE n.iri = r.subject AND n.p = ? AND n.graph = r.graph))`,
        params: [condition.fact, value, condition.fact],
      }
    : { sql: stated, params: [condition.fact, value] };
}

/**
 * The records `r` of a scope, without their kind (the caller's): the table they are read from and the conditions
 * they meet (graph and filters). The first link filter, when there is one, leads: the records are found from the
 * links to its target (so a deployment's few runs among many are not looked for one by one); the other filters are
 * checked per record with the index that starts at the record.
 */
function scopeSql(tables: RecordTables, scope: KindScope): { from: string; where: Sql } {
  const conditions = scope.conditions ?? [];
  const lead = conditions.find((condition) => 'o' in condition && 'link' in condition);
  const parts: Sql[] = [graphCondition(scope.graph)];
  for (const condition of conditions) if (condition !== lead) parts.push(conditionSql(condition));
  if (lead !== undefined && 'link' in lead)
    parts.unshift({ sql: 'd.p = ? AND d.o = ?', params: [lead.link, lead.o] });
  return {
    from:
      lead === undefined
        ? `${tables.records} r`
        : `lineage_link d JOIN ${tables.records} r ON r.graph = d.graph AND r.subject = d.s`,
    where: { sql: parts.map((part) => part.sql).join(' AND '), params: parts.flatMap((part) => part.params) },
  };
}

const placeholders = (values: readonly unknown[]): string => values.map(() => '?').join(', ');

/**
 * One page of records of the scope's kinds, in descending subject order (minted ids are time-ordered, so newest
 * first), a record held in two graphs listed once per graph. One statement per kind, each reading the (kind,
 * subject) index from `before` until `limit` records meet the scope.
 */
export function kindPage(
  db: Database,
  tables: RecordTables,
  query: KindPageQuery,
): { subject: string; graph: string }[] {
  const { from, where } = scopeSql(tables, query);
  const before = query.before === undefined ? '' : 'AND r.subject < ?';
  const statement = db.prepare(
    `SELECT DISTINCT r.subject AS subject, r.graph AS graph FROM ${from}
     WHERE r.kind = ? AND ${where.sql} ${before} ORDER BY r.subject DESC, r.graph LIMIT ?`,
  );
  const rows = query.kinds.flatMap(
    (kind) =>
      statement.all(
        kind,
        ...where.params,
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

/**
 * How many records of the scope's kinds there are: from the counts kept with the records, or, with filters, by
 * counting the distinct subjects that meet them.
 */
export function kindTotal(db: Database, tables: RecordTables, scope: KindScope): number {
  if (scope.kinds.length === 0) return 0;
  const kinds = `r.kind IN (${placeholders(scope.kinds)})`;
  if ((scope.conditions ?? []).length === 0) {
    const graphs = graphCondition(scope.graph);
    return db
      .prepare(`SELECT coalesce(sum(records), 0) FROM ${tables.stats} r WHERE ${kinds} AND ${graphs.sql}`)
      .pluck()
      .get(...scope.kinds, ...graphs.params) as number;
  }
  const { from, where } = scopeSql(tables, scope);
  return db
    .prepare(`SELECT COUNT(DISTINCT r.subject) FROM ${from} WHERE ${kinds} AND ${where.sql}`)
    .pluck()
    .get(...scope.kinds, ...where.params) as number;
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
  const { from, where } = scopeSql(tables, scope);
  return db
    .prepare(
      `SELECT f.value AS value, COUNT(DISTINCT r.subject) AS count FROM ${from}
       JOIN lineage_node f ON f.iri = r.subject AND f.graph = r.graph AND f.p = ?
       WHERE r.kind IN (${placeholders(scope.kinds)}) AND ${where.sql}
       GROUP BY f.value ORDER BY count DESC, f.value LIMIT ?`,
    )
    .all(fact, ...scope.kinds, ...where.params, limit) as { value: string; count: number }[];
}

/** Orders strings as SQLite's binary collation does (by UTF-8 bytes, which is code point order). */
function compare(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a), Buffer.from(b));
}
