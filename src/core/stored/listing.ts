import { BadRequestError } from '../errors.js';
import { GRAPHS, PEER_GRAPH_PREFIX, REG } from '../ns.js';
import { findPeerByBase } from '../store/peers.js';
import type { Core } from '../core.js';
import { kindOfClass } from '../records/kind-registry.js';
import {
  kindFacet,
  kindPage,
  kindTotal,
  type IndexCondition,
  type KindScope,
} from '../store/graph/kind-pages.js';
import { lineageIndexReady } from '../store/lineage/lineage-index.js';
import { valueFactOf } from '../store/lineage/lineage-facts.js';
import { PAGE_ROWS, selectByKey } from './keyset.js';
import { normaliseBaseIri } from '../federation/peer-http.js';
import { sparqlIri, sparqlString } from '../discovery/sparql-text.js';

/** Default and largest page sizes of record lists. */
export const PAGE = { default: 25, max: 200 } as const;

/** A record list query: the class of its items plus SPARQL patterns over `?s`, inside the record's graph. */
export interface ListQuery {
  readonly type: string;
  readonly patterns: readonly string[];
  readonly limit?: number | undefined;
  readonly cursor?: string | undefined;
  /** `local`, a peer id, or undefined for every registry. */
  readonly registry?: string | undefined;
  /** Keep withdrawn records (they are left out of lists by default). */
  readonly withdrawn?: boolean;
  /**
   * The patterns as conditions the lineage index answers (`filterConditions`), when it keeps all of them: the list
   * is then read from SQLite once the index is complete.
   */
  readonly conditions?: readonly IndexCondition[] | undefined;
}

/** One page of record IRIs with the graph each lives in. */
export interface ListPage {
  readonly items: readonly { readonly iri: string; readonly graph: string }[];
  readonly total: number;
  readonly next_cursor?: string;
}

/** Clamps a requested page size to 1–200 (default 25). */
export function pageSize(raw: string | undefined): number {
  if (raw === undefined || raw === '') return PAGE.default;
  if (!/^\d+$/.test(raw)) throw new BadRequestError(`limit must be a whole number, got "${raw}"`);
  return Math.min(PAGE.max, Math.max(1, Number(raw)));
}

/**
 * The graph a `registry` filter selects: this registry's (`local`, or its own base IRI), or the cache of one peer
 * named by its id or its base IRI; none (every registry) when absent. A registry that is not a peer holds nothing
 * here, so it selects nothing; a value that is neither an id nor an http(s) IRI is a 400.
 */
function registryGraph(core: Core, registry: string | undefined): string | undefined {
  if (registry === undefined || registry === '') return undefined;
  if (registry === 'local') return GRAPHS.local;
  const base = normaliseBaseIri(registry);
  if (base !== undefined) {
    if (base === normaliseBaseIri(core.config.baseIri)) return GRAPHS.local;
    return `${PEER_GRAPH_PREFIX}${findPeerByBase(core.db, base)?.id ?? 'unknown'}`;
  }
  if (!/^[A-Za-z0-9._-]{1,100}$/.test(registry))
    throw new BadRequestError(
      `registry must be "local", or the id or base IRI of a peer registry, got "${registry}"`,
    );
  return `${PEER_GRAPH_PREFIX}${registry}`;
}

function graphFilter(graph: string | undefined): string {
  if (graph === undefined)
    return `FILTER(?g = <${GRAPHS.local}> || STRSTARTS(STR(?g), "${PEER_GRAPH_PREFIX}"))`;
  return `FILTER(?g = <${graph}>)`;
}

function where(core: Core, query: ListQuery): string {
  const live = query.withdrawn === true ? '' : `FILTER NOT EXISTS { ?s <${REG('tombstoned')}> true }`;
  return `GRAPH ?g { ?s a <${query.type}> . ${live} ${query.patterns.join(' ')} } ${graphFilter(registryGraph(core, query.registry))}`;
}

/**
 * The kinds a list selects, when its class marks a record kind and it is unfiltered or its filters are conditions
 * the complete lineage index answers: such a list is read from the store's table of records and that index (no
 * query, so it is answered before the query index has loaded). Undefined when only a query can match it.
 */
function kindScope(core: Core, query: Omit<ListQuery, 'limit' | 'cursor'>): KindScope | undefined {
  const filtered = query.patterns.length > 0;
  if (filtered && (query.conditions === undefined || !lineageIndexReady(core.db))) return undefined;
  const kind = kindOfClass(query.type);
  if (kind === undefined) return undefined;
  return {
    kinds: query.withdrawn === true ? [kind, `${kind}:withdrawn`] : [kind],
    graph: registryGraph(core, query.registry),
    ...(filtered ? { conditions: query.conditions } : {}),
  };
}

/** Lists records newest first (descending IRI; minted ids are time-ordered), with the filtered total. */
export async function listRecords(core: Core, query: ListQuery): Promise<ListPage> {
  // One more row than the page tells whether another page follows; the whole stays within one query's rows.
  const limit = Math.min(query.limit ?? PAGE.default, PAGE_ROWS - 1);
  const scope = kindScope(core, query);
  const rows =
    scope === undefined
      ? (
          await core.graph.select(
            `SELECT DISTINCT ?s ?g WHERE { ${where(core, query)} ${query.cursor === undefined ? '' : `FILTER(STR(?s) < ${sparqlString(query.cursor)})`} } ORDER BY DESC(STR(?s)) LIMIT ${limit + 1}`,
          )
        ).map((row) => ({ iri: row.s?.value ?? '', graph: row.g?.value ?? GRAPHS.local }))
      : kindPage(core.db, core.graph.recordTables, { ...scope, before: query.cursor, limit: limit + 1 }).map(
          (row) => ({ iri: row.subject, graph: row.graph }),
        );
  const total = await countRecords(core, query);
  const items = rows.slice(0, limit);
  const last = items.at(-1);
  return rows.length > limit && last !== undefined
    ? { items, total, next_cursor: last.iri }
    : { items, total };
}

/**
 * Every record a list query selects, newest first, for lists the API does not page: read a page at a time in
 * keyset order, so no query sorts or returns more than a store allows by default. At most `max` records.
 */
export async function listAllRecords(
  core: Core,
  query: Omit<ListQuery, 'limit' | 'cursor'>,
  max: number,
): Promise<{ items: ListPage['items']; total: number }> {
  const scope = kindScope(core, query);
  if (scope !== undefined)
    return {
      items: kindPage(core.db, core.graph.recordTables, { ...scope, limit: max }).map((row) => ({
        iri: row.subject,
        graph: row.graph,
      })),
      total: kindTotal(core.db, core.graph.recordTables, scope),
    };
  const rows = await selectByKey(
    core,
    's',
    ({ after, order }) => `SELECT DISTINCT ?s ?g WHERE { ${where(core, query)} ${after} } ${order}`,
    { descending: true, max },
  );
  const items = rows
    .slice(0, max)
    .map((row) => ({ iri: row.s?.value ?? '', graph: row.g?.value ?? GRAPHS.local }));
  return { items, total: await countRecords(core, query) };
}

/** How many records a list query selects, over every page. */
export async function countRecords(core: Core, query: Omit<ListQuery, 'limit' | 'cursor'>): Promise<number> {
  const scope = kindScope(core, query);
  if (scope !== undefined) return kindTotal(core.db, core.graph.recordTables, scope);
  const [count] = await core.graph.select(
    `SELECT (COUNT(DISTINCT ?s) AS ?n) WHERE { ${where(core, query)} }`,
  );
  return Number(count?.n?.value ?? 0);
}

/**
 * `countRecords` for each of several values of a variable the query's patterns use (`?counted`): one query whatever
 * their number, a count per value (zero for values nothing matches).
 */
export async function countRecordsFor(
  core: Core,
  query: Omit<ListQuery, 'limit' | 'cursor'>,
  values: readonly string[],
): Promise<Map<string, number>> {
  const out = new Map(values.map((value) => [value, 0]));
  if (values.length === 0) return out;
  const rows = await core.graph.select(
    `SELECT ?counted (COUNT(DISTINCT ?s) AS ?n) WHERE { VALUES ?counted { ${values.map((value) => sparqlIri(value, 'value')).join(' ')} } ${where(core, query)} } GROUP BY ?counted`,
  );
  for (const row of rows)
    if (row.counted !== undefined) out.set(row.counted.value, Number(row.n?.value ?? 0));
  return out;
}

/** The most values a facet lists. */
const FACET_VALUES = 25;

/**
 * Counts the values of `predicate` over the records a list query selects (at most 25 values, most frequent first):
 * from the lineage index when it keeps the predicate's values and the list is one `kindScope` answers.
 */
export async function facetCounts(
  core: Core,
  query: ListQuery,
  predicate: string,
): Promise<{ value: string; count: number }[]> {
  const scope = kindScope(core, query);
  const fact = valueFactOf(predicate);
  if (scope !== undefined && fact !== undefined && lineageIndexReady(core.db))
    return kindFacet(core.db, core.graph.recordTables, scope, fact, FACET_VALUES);
  const rows = await core.graph.select(
    `SELECT ?v (COUNT(DISTINCT ?s) AS ?n) WHERE { ${where(core, { ...query, patterns: [...query.patterns, `?s <${predicate}> ?v .`] })} } GROUP BY ?v ORDER BY DESC(?n) STR(?v) LIMIT ${FACET_VALUES}`,
  );
  return rows.map((row) => ({ value: row.v?.value ?? '', count: Number(row.n?.value ?? 0) }));
}

/** A pattern requiring `?s <predicate> <iri>`, checking the IRI. */
export function iriPattern(predicate: string, iri: string, what: string): string {
  return `?s <${predicate}> ${sparqlIri(iri, what)} .`;
}
