/**
 * Pages of the records of a kind, read from the table in `registry.db` that lists a store's records (the embedded
 * store's `record`, the external store's `external_record`; each row carries the record's kind, `<kind>:withdrawn`
 * once withdrawn) and its per-kind counts, joined with the lineage index for filters it keeps: such a list is
 * answered from SQLite, before the query index has loaded and without a request to an external store.
 */
import type { Database } from '../database.js';
import { recordGraphSql, touchedSql } from '../lineage/lineage-sql.js';

/** The table of a store's records and the table of their counts by graph and kind. */
export interface RecordTables {
  readonly records: 'record' | 'external_record';
  readonly stats: 'record_stats' | 'external_stats';
}

/**
 * A list filter the lineage index can answer (`lineage-index.ts`, `indexedAs`), met by a node in a graph (the listed
 * record in its own, or a node a link reaches): the node links to `o`, or links to something that links on to
 * `through.o`, or links to something meeting `to` (in the same graph); something meeting `from` links to it (in the
 * same graph, or with `anyGraph` in any); it is the IRI `is`; it states `value` (an IRI or a literal's lexical
 * form; with `caseless`, in any case), or, with `orAbsent`, states it or nothing for that fact; it is an artifact
 * `touchedSql` finds for the deployments a subquery gives; the text of its `facts` joined by spaces (a missing one
 * read as empty) contains `words` in any case; or it meets one of `anyOf`, each of `allOf`, or not `not`.
 */
export type IndexCondition =
  | { readonly link: number; readonly o: string }
  | { readonly link: number; readonly through: { readonly link: number; readonly o: string } }
  | { readonly link: number; readonly to: IndexCondition }
  | { readonly linkedBy: number; readonly from: IndexCondition; readonly anyGraph?: boolean }
  | { readonly is: string }
  | { readonly touchedBy: { readonly sql: string; readonly params: readonly unknown[] } }
  | {
      readonly fact: number;
      readonly value: string;
      readonly orAbsent?: boolean;
      readonly caseless?: boolean;
    }
  | { readonly words: string; readonly facts: readonly number[] }
  | { readonly anyOf: readonly IndexCondition[] }
  | { readonly allOf: readonly IndexCondition[] }
  | { readonly not: IndexCondition };

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

/** Where a condition is checked: the columns (or expressions) giving the node and its graph. */
interface At {
  readonly node: string;
  readonly graph: string;
}

const RECORD: At = { node: 'r.subject', graph: 'r.graph' };

/**
 * A condition on the node `at` in its graph, as SQL with its parameters. `alias` names the tables of nested
 * conditions apart from those of the conditions they are nested in.
 */
function conditionSql(condition: IndexCondition, at: At = RECORD, alias = aliases()): Sql {
  const { node, graph } = at;
  if ('anyOf' in condition || 'allOf' in condition) {
    const [parts, joiner, none] =
      'anyOf' in condition
        ? [condition.anyOf.map((part) => conditionSql(part, at, alias)), ' OR ', '0']
        : [condition.allOf.map((part) => conditionSql(part, at, alias)), ' AND ', '1'];
    return {
      sql: parts.length === 0 ? none : `(${parts.map((part) => part.sql).join(joiner)})`,
      params: parts.flatMap((part) => part.params),
    };
  }
  if ('not' in condition) {
    const inner = conditionSql(condition.not, at, alias);
    return { sql: `NOT ${inner.sql}`, params: inner.params };
  }
  if ('is' in condition) return { sql: `${node} = ?`, params: [condition.is] };
  if ('to' in condition) {
    const l = alias();
    const to = conditionSql(condition.to, { node: `${l}.o`, graph: `${l}.graph` }, alias);
    return {
      sql: `EXISTS (SELECT 1 FROM lineage_link ${l} INDEXED BY lineage_link_from
              WHERE ${l}.s = ${node} AND ${l}.p = ? AND ${l}.graph = ${graph} AND ${to.sql})`,
      params: [condition.link, ...to.params],
    };
  }
  if ('linkedBy' in condition) {
    const l = alias();
    const from = conditionSql(condition.from, { node: `${l}.s`, graph: `${l}.graph` }, alias);
    const inGraph = condition.anyGraph === true ? '' : `AND ${l}.graph = ${graph}`;
    return {
      sql: `EXISTS (SELECT 1 FROM lineage_link ${l} INDEXED BY lineage_link_to
              WHERE ${l}.o = ${node} AND ${l}.p = ? ${inGraph} AND ${from.sql})`,
      params: [condition.linkedBy, ...from.params],
    };
  }
  if ('words' in condition) {
    // As SPARQL's CONTAINS(LCASE(CONCAT(...))) over optional fields: each combination of the fields' values, a
    // missing field read as empty; `lower_unicode` folds case as LCASE does, beyond ASCII.
    const t = alias();
    const joins = condition.facts
      .map(
        (_, n) =>
          `LEFT JOIN lineage_node ${t}_${n} ON ${t}_${n}.iri = ${node} AND ${t}_${n}.graph = ${graph} AND ${t}_${n}.p = ?`,
      )
      .join(' ');
    const text = condition.facts.map((_, n) => `coalesce(${t}_${n}.value, '')`).join(" || ' ' || ");
    return {
      sql: `EXISTS (SELECT 1 FROM (SELECT 1) ${t} ${joins} WHERE instr(lower_unicode(${text}), ?) > 0)`,
      params: [...condition.facts, condition.words.toLowerCase()],
    };
  }
  if ('touchedBy' in condition) {
    const touched = touchedSql(condition.touchedBy.sql, condition.touchedBy.params);
    return { sql: `(${graph}, ${node}) IN (SELECT g, s FROM (${touched.sql}))`, params: touched.params };
  }
  if ('through' in condition) {
    const [l, m] = [alias(), alias()];
    return {
      sql: `EXISTS (SELECT 1 FROM lineage_link ${l} INDEXED BY lineage_link_from
              JOIN lineage_link ${m} INDEXED BY lineage_link_from ON ${m}.s = ${l}.o AND ${m}.graph = ${l}.graph AND ${m}.p = ? AND ${m}.o = ?
              WHERE ${l}.s = ${node} AND ${l}.p = ? AND ${l}.graph = ${graph})`,
      params: [condition.through.link, condition.through.o, condition.link],
    };
  }
  if ('link' in condition) {
    const l = alias();
    return {
      sql: `EXISTS (SELECT 1 FROM lineage_link ${l} INDEXED BY lineage_link_from WHERE ${l}.s = ${node} AND ${l}.p = ? AND ${l}.o = ? AND ${l}.graph = ${graph})`,
      params: [condition.link, condition.o],
    };
  }
  const n = alias();
  const caseless = condition.caseless === true;
  const stated = `EXISTS (SELECT 1 FROM lineage_node ${n} WHERE ${n}.iri = ${node} AND ${n}.p = ? AND ${caseless ? `lower_unicode(${n}.value)` : `${n}.value`} = ? AND ${n}.graph = ${graph})`;
  const value = caseless ? condition.value.toLowerCase() : condition.value;
  return condition.orAbsent === true
    ? {
        sql: `(${stated} OR NOT EXISTS (SELECT 1 FROM lineage_node ${n} WHERE ${n}.iri = ${node} AND ${n}.p = ? AND ${n}.graph = ${graph}))`,
        params: [condition.fact, value, condition.fact],
      }
    : { sql: stated, params: [condition.fact, value] };
}

/** Names for the tables of conditions, each new: `c1`, `c2`, ... */
function aliases(): () => string {
  let next = 0;
  return () => `c${++next}`;
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
