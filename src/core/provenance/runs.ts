/**
 * Reading runs: one run with what it used and generated, and the paged run list. A run stores what it used
 * (`prov:used`); what it generated is stored on the artifacts (`prov:wasGeneratedBy`) and found by inverse lookup.
 */
import { DCAT, DCT, GRAPHS, PEER_GRAPH_PREFIX, PROV, REG } from '../ns.js';
import { RUN } from '../records/activity-specs.js';
import { idOf } from '../records/ids.js';
import type { ListParams } from '../records/kind-registry.js';
import type { JsonObject } from '../records/mapper.js';
import { INSTANCE, RELEASE } from '../records/specs.js';
import type { Binding } from '../store/graph/types.js';
import type { Core } from '../core.js';
import { selectByKey } from '../stored/keyset.js';
import { filterConditions, filterPatterns, type CustomFilters } from '../stored/list-filters.js';
import { listRecords, pageSize } from '../stored/listing.js';
import { memoised } from '../stored/memoised.js';
import { NO_PEER_REASON, peerCovering } from '../federation/peers.js';
import { findResolveRow } from '../store/peers.js';
import { lineageIndexReady } from '../store/lineage/lineage-index.js';
import { FACT, LINK } from '../store/lineage/lineage-facts.js';
import { factsAt, notWithdrawnSql, recordGraphSql } from '../store/lineage/lineage-sql.js';
import {
  iriOf,
  originOf,
  prefetchReferences,
  readStoredMany,
  requireReadable,
  storedKey,
  type StoredRecord,
  presentingTogether,
} from '../stored/records.js';
import { readRelated, softwareName } from '../catalogue/releases.js';

import { sparqlIri } from '../discovery/sparql-text.js';

/** Availability values from most to least open; an artifact is as available as its most open distribution. */
const OPENNESS = ['public', 'restricted', 'embargoed', 'metadata-only'] as const;
/** Record graphs (this registry's and cached peers'), as a filter on `?g`. */
const RECORD_GRAPHS = `(?g = <${GRAPHS.local}> || STRSTARTS(STR(?g), "${PEER_GRAPH_PREFIX}"))`;

/** How a run or a lineage refers to an artifact: what is known of it, or `unresolved` when nothing is. */
export interface ArtifactRef {
  readonly iri: string;
  readonly title?: string;
  readonly conforms_to?: string;
  readonly availability?: string;
  readonly origin: JsonObject;
  readonly unresolved?: true;
}

/** What one query found about an artifact in the graph it is read from. */
interface Found {
  readonly graph: string;
  title?: string;
  type?: string;
  tomb: boolean;
  /** Distribution IRI → availability. */
  readonly distributions: Map<string, string>;
}

/**
 * The origin of an IRI the registry holds nothing about: here, or another registry. A foreign one says how its
 * resolution stands: the peer whose base IRI covers it, if any; `resolve_status` `unknown` while it waits for its
 * first fetch or for a peer that covers it, `error` after a failed fetch; and `reason` when one is known.
 */
export function unresolvedOrigin(core: Core, iri: string): JsonObject {
  if (iri.startsWith(`${core.config.baseIri}/`)) return { kind: 'local' };
  const peer = peerCovering(core, iri);
  const queued = findResolveRow(core.db, iri);
  const reason = peer === undefined ? NO_PEER_REASON : (queued?.last_error ?? undefined);
  return {
    kind: 'peer',
    ...(peer === undefined ? {} : { peer_id: peer.id, peer_base_iri: peer.base_iri }),
    resolve_status: queued?.status === 'failed' ? 'error' : 'unknown',
    ...(reason === undefined ? {} : { reason }),
  };
}

/** A SPARQL `VALUES` block binding `variable` to each IRI (IRIs that are not absolute are left out). */
export function valuesBlock(variable: string, iris: Iterable<string>): string {
  const terms: string[] = [];
  for (const iri of iris) {
    try {
      terms.push(sparqlIri(iri, 'iri'));
    } catch {
      // A stored value that is not an IRI cannot be looked up; it reads as unresolved.
    }
  }
  return `VALUES ?${variable} { ${terms.join(' ')} }`;
}

/** Artifacts described per query by `artifactRefs`. */
const ARTIFACT_REF_BATCH = 100;

/**
 * Describes artifacts by IRI in one query per hundred, from this registry's graph (preferred) or a peer's cache. Withdrawn
 * ones are left out; IRIs the registry holds nothing about come back `unresolved`, in the order given.
 */
export async function artifactRefs(core: Core, iris: readonly string[]): Promise<ArtifactRef[]> {
  const unique = [...new Set(iris)];
  if (unique.length === 0) return [];
  const found = lineageIndexReady(core.db) ? foundInIndex(core, unique) : await foundByQuery(core, unique);
  const refs: ArtifactRef[] = [];
  for (const iri of unique) {
    const entry = found.get(iri);
    if (entry === undefined) {
      refs.push({ iri, origin: unresolvedOrigin(core, iri), unresolved: true });
      continue;
    }
    if (entry.tomb) continue;
    // A distribution without an availability reads as public, as the artifact itself presents it.
    const ranks = [...entry.distributions.values()]
      .map((value) => OPENNESS.indexOf(value as (typeof OPENNESS)[number]))
      .filter((rank) => rank >= 0);
    const rank = ranks.length === 0 ? OPENNESS.length - 1 : Math.min(...ranks);
    refs.push({
      iri,
      ...(entry.title === undefined ? {} : { title: entry.title }),
      ...(entry.type === undefined ? {} : { conforms_to: entry.type }),
      availability: OPENNESS[rank]!,
      origin: originOf(entry.graph, core, iri),
    });
  }
  return refs;
}

/**
 * What `artifactRefs` needs of each artifact, from the lineage index (which keeps artifacts by graph, their titles,
 * types, withdrawals, distributions and availabilities): five statements whatever their number.
 */
function foundInIndex(core: Core, iris: readonly string[]): Map<string, Found> {
  const wanted = JSON.stringify(iris);
  const held = core.db
    .prepare(
      `SELECT iri, graph FROM lineage_node WHERE iri IN (SELECT value FROM json_each(?)) AND p = ${FACT.artifact}
         AND ${recordGraphSql('graph').sql} ORDER BY iri, graph`,
    )
    .all(wanted, ...recordGraphSql('graph').params) as { iri: string; graph: string }[];
  const found = new Map<string, Found>();
  // This registry's own copy wins over a peer's cached one.
  for (const { iri, graph } of held)
    if (!found.has(iri) || graph === GRAPHS.local)
      found.set(iri, { graph, tomb: false, distributions: new Map() });
  const nodes = [...found].map(([iri, entry]) => [iri, entry.graph] as const);
  for (const { iri, p, value } of factsAt(core.db, nodes, [FACT.title, FACT.tombstoned])) {
    const entry = found.get(iri);
    if (entry === undefined) continue;
    if (p === FACT.title) entry.title = value;
    else entry.tomb = true;
  }
  const links = core.db
    .prepare(
      `SELECT l.s AS iri, l.p AS p, l.o AS o, av.value AS availability FROM json_each(?) c
       JOIN lineage_link l ON l.s = c.value ->> 0 AND l.graph = c.value ->> 1
       LEFT JOIN lineage_node av ON l.p = ${LINK.distribution} AND av.iri = l.o AND av.graph = l.graph
         AND av.p = ${FACT.availability}
       WHERE l.p IN (${LINK.conformsTo}, ${LINK.distribution}) ORDER BY l.rowid, av.rowid`,
    )
    .all(JSON.stringify(nodes)) as { iri: string; p: number; o: string; availability: string | null }[];
  for (const { iri, p, o, availability } of links) {
    const entry = found.get(iri);
    if (entry === undefined) continue;
    if (p === LINK.conformsTo) entry.type = o;
    else if (availability !== null) entry.distributions.set(o, availability);
    else if (!entry.distributions.has(o)) entry.distributions.set(o, 'public');
  }
  return found;
}

/** What `artifactRefs` needs of each artifact, from the query index: one query per hundred artifacts. */
async function foundByQuery(core: Core, unique: readonly string[]): Promise<Map<string, Found>> {
  // VALUES inside the GRAPH block and flat OPTIONALs outside it: oxigraph then looks each artifact up rather
  // than evaluating the optional parts over every artifact it holds (hundreds of times slower on a large store).
  // A batch of artifacts per query: distributions multiply the solutions, and a store caps an answer's rows.
  const rows: Binding[] = [];
  for (let start = 0; start < unique.length; start += ARTIFACT_REF_BATCH) {
    const batch = unique.slice(start, start + ARTIFACT_REF_BATCH);
    rows.push(
      ...(await core.graph.select(
        `SELECT ?a ?g ?title ?type ?tomb ?d ?d2 ?av WHERE {
       GRAPH ?g { ${valuesBlock('a', batch)} ?a a <${DCAT('Dataset')}> } FILTER${RECORD_GRAPHS}
       OPTIONAL { GRAPH ?g { ?a <${DCT('title')}> ?title } }
       OPTIONAL { GRAPH ?g { ?a <${DCT('conformsTo')}> ?type } }
       OPTIONAL { GRAPH ?g { ?a <${REG('tombstoned')}> ?tomb } }
       OPTIONAL { GRAPH ?g { ?a <${DCAT('distribution')}> ?d } }
       OPTIONAL { GRAPH ?g { ?a <${DCAT('distribution')}> ?d2 . ?d2 <${REG('availability')}> ?av } } }`,
      )),
    );
  }
  const found = new Map<string, Found>();
  for (const row of rows) {
    const iri = row.a?.value ?? '';
    const graph = row.g?.value ?? GRAPHS.local;
    let entry = found.get(iri);
    // This registry's own copy wins over a peer's cached one; otherwise the first graph seen is read.
    if (entry !== undefined && entry.graph !== graph) {
      if (graph !== GRAPHS.local) continue;
      entry = undefined;
    }
    entry ??= { graph, tomb: false, distributions: new Map() };
    if (row.title !== undefined) entry.title = row.title.value;
    if (row.type !== undefined) entry.type = row.type.value;
    if (row.tomb?.value === 'true') entry.tomb = true;
    if (row.d !== undefined && !entry.distributions.has(row.d.value))
      entry.distributions.set(row.d.value, 'public');
    if (row.d2 !== undefined && row.av !== undefined) entry.distributions.set(row.d2.value, row.av.value);
    found.set(iri, entry);
  }
  return found;
}

/** The artifacts that name `run` as the activity that generated them, oldest first. */
export async function generatedBy(core: Core, run: string): Promise<string[]> {
  if (lineageIndexReady(core.db))
    return core.db
      .prepare(
        `SELECT DISTINCT s FROM lineage_link WHERE o = ? AND p = ${LINK.generatedBy} AND ${recordGraphSql('graph').sql}
         ORDER BY s`,
      )
      .pluck()
      .all(run, ...recordGraphSql('graph').params) as string[];
  const rows = await selectByKey(
    core,
    'a',
    ({ after, order }) =>
      `SELECT DISTINCT ?a WHERE { GRAPH ?g { ?a <${PROV('wasGeneratedBy')}> <${run}> } FILTER${RECORD_GRAPHS} ${after} }
     ${order}`,
  );
  return rows.map((row) => row.a?.value ?? '');
}

/** Live artifacts each run generated and used, counted for a page of runs in one query. */
async function activityCounts(
  core: Core,
  runs: readonly string[],
): Promise<Map<string, { generated: number; used: number }>> {
  const counts = new Map<string, { generated: number; used: number }>();
  if (runs.length === 0) return counts;
  if (lineageIndexReady(core.db)) return activityCountsFromIndex(core, runs);
  const live = (node: string) => `FILTER NOT EXISTS { GRAPH ?t { ${node} <${REG('tombstoned')}> true } }`;
  const values = valuesBlock('r', runs);
  const rows = await core.graph.select(
    `SELECT ?r (COUNT(DISTINCT ?made) AS ?generated) (COUNT(DISTINCT ?use) AS ?used) WHERE {
       { GRAPH ?g { ${values} ?made <${PROV('wasGeneratedBy')}> ?r } FILTER${RECORD_GRAPHS} ${live('?made')} } UNION
       { GRAPH ?g { ${values} ?r <${PROV('used')}> ?use } ${live('?use')} } } GROUP BY ?r`,
  );
  for (const row of rows)
    counts.set(row.r?.value ?? '', {
      generated: Number(row.generated?.value ?? 0),
      used: Number(row.used?.value ?? 0),
    });
  return counts;
}

/**
 * `activityCounts` from the lineage index (which keeps every record's generated-by and used links and withdrawals):
 * two statements whatever the number of runs, answered before the query index has loaded.
 */
function activityCountsFromIndex(
  core: Core,
  runs: readonly string[],
): Map<string, { generated: number; used: number }> {
  const wanted = JSON.stringify(runs);
  const counted = (sql: string, ...params: unknown[]): Map<string, number> =>
    new Map((core.db.prepare(sql).all(...params) as { r: string; n: number }[]).map((row) => [row.r, row.n]));
  const generated = counted(
    `SELECT l.o AS r, COUNT(DISTINCT l.s) AS n FROM lineage_link l
     WHERE l.o IN (SELECT value FROM json_each(?)) AND l.p = ${LINK.generatedBy}
       AND ${recordGraphSql('l.graph').sql} AND ${notWithdrawnSql('l.s')}
     GROUP BY l.o`,
    wanted,
    ...recordGraphSql('l.graph').params,
  );
  const used = counted(
    `SELECT l.s AS r, COUNT(DISTINCT l.o) AS n FROM lineage_link l
     WHERE l.s IN (SELECT value FROM json_each(?)) AND l.p = ${LINK.used} AND ${notWithdrawnSql('l.o')}
     GROUP BY l.s`,
    wanted,
  );
  const counts = new Map<string, { generated: number; used: number }>();
  for (const run of runs)
    if (generated.has(run) || used.has(run))
      counts.set(run, { generated: generated.get(run) ?? 0, used: used.get(run) ?? 0 });
  return counts;
}

/** Names of what a run refers to: its deployment's label and software, its release's version. */
async function runContext(core: Core, json: JsonObject, graph: string): Promise<JsonObject> {
  const out: JsonObject = {};
  if (typeof json.instance === 'string') {
    const instance = await readRelated(core, INSTANCE, json.instance, graph);
    if (typeof instance?.json.label === 'string') out.instance_label = instance.json.label;
    const software = instance?.json.software;
    if (typeof software === 'string') {
      out.software = software;
      const name = await softwareName(core, software, instance?.graph ?? graph);
      if (name !== undefined) out.software_name = name;
    }
  }
  if (typeof json.release === 'string') {
    const version = (await readRelated(core, RELEASE, json.release, graph))?.json.version;
    if (typeof version === 'string') out.release_version = version;
  }
  return out;
}

/** Seconds between start and end, when both are known and in order. */
function durationOf(json: JsonObject): number | undefined {
  if (typeof json.started_at !== 'string' || typeof json.ended_at !== 'string') return undefined;
  const ms = Date.parse(json.ended_at) - Date.parse(json.started_at);
  return Number.isFinite(ms) && ms >= 0 ? ms / 1000 : undefined;
}

/** The RunSummary of a stored run: its own fields, names of what it refers to, and activity counts. */
async function summarise(
  core: Core,
  stored: StoredRecord,
  counts: { generated: number; used: number },
): Promise<JsonObject> {
  const {
    tombstoned: _t,
    tombstoned_at: _at,
    action_status: _status,
    used: _used,
    openlineage_payload: _payload,
    ...json
  } = stored.json;
  const duration = durationOf(json);
  const out: JsonObject = {
    iri: stored.iri,
    id: idOf(stored.iri),
    ...json,
    status: typeof json.status === 'string' ? json.status : 'unknown',
    ...(duration === undefined ? {} : { duration_seconds: duration }),
    ...(await runContext(core, json, stored.graph)),
    used_count: counts.used,
    generated_count: counts.generated,
    origin: originOf(stored.graph, core, stored.iri),
  };
  if (stored.tombstoned) out.tombstoned = true;
  return out;
}

/**
 * The run as the API returns it: the RunSummary fields plus `used` and `generated` artifact references
 * (withdrawn artifacts left out, foreign ones the registry holds nothing about marked `unresolved`) and the
 * OpenLineage event it was made from, if any.
 */
export async function presentRun(core: Core, stored: StoredRecord): Promise<JsonObject> {
  const usedIris = Array.isArray(stored.json.used)
    ? stored.json.used.filter((value): value is string => typeof value === 'string')
    : [];
  const used = await artifactRefs(core, usedIris);
  const generated = (await artifactRefs(core, await generatedBy(core, stored.iri))).filter(
    (ref) => ref.unresolved !== true,
  );
  const summary = await summarise(core, stored, { used: used.length, generated: generated.length });
  const payload = stored.json.openlineage_payload;
  return {
    ...summary,
    used: used as unknown as JsonObject[],
    generated: generated as unknown as JsonObject[],
    ...(payload === undefined ? {} : { openlineage_payload: payload }),
  };
}

/** Reads one run by id or IRI (anonymous reads allowed when reads are public). */
export async function getRun(core: Core, id: string): Promise<JsonObject> {
  const iri = iriOf(core, 'run', id);
  return memoised(core, `run ${iri}`, async () => presentRun(core, await requireReadable(core, RUN, iri)));
}

/** Query parameters of the run list (declared with the kind, in `records/kind-registry.ts`). */
export type RunListParams = ListParams<'run'>;

/** The filters of the run list a field alone does not express. */
function runFilters(core: Core): CustomFilters<'run'> {
  return {
    software: (value) => {
      const software = sparqlIri(iriOf(core, 'software', value), 'software');
      return `?s <${PROV('wasAssociatedWith')}> ?deployment . ?deployment <${REG('instanceOf')}> ${software} .`;
    },
  };
}

/** Lists runs newest first, with paging and filters (q over label, identifier and key, instance, software, status, registry). */
export async function listRuns(core: Core, params: RunListParams): Promise<JsonObject> {
  return memoised(core, `run-list ${JSON.stringify(params)}`, () =>
    presentingTogether(() => listRunsNow(core, params)),
  );
}

async function listRunsNow(core: Core, params: RunListParams): Promise<JsonObject> {
  const page = await listRecords(core, {
    type: RUN.types[0]!,
    patterns: filterPatterns(core, 'run', params, runFilters(core)) ?? [],
    conditions: filterConditions(core, 'run', params, {
      software: (value) => ({
        link: LINK.associatedWith,
        through: { link: LINK.instanceOf, o: iriOf(core, 'software', value) },
      }),
    }),
    limit: pageSize(params.limit),
    cursor: params.cursor,
    registry: params.registry,
  });
  const counts = await activityCounts(
    core,
    page.items.map((item) => item.iri),
  );
  const items: JsonObject[] = [];
  // The page's runs, their deployments and releases, and the deployments' software are read a level at a time,
  // together, so a page costs the same few requests whatever its size.
  const records = await readStoredMany(core, RUN, page.items);
  await prefetchReferences(core, records.values(), ['instance', 'release']);
  const instances = await readStoredMany(
    core,
    INSTANCE,
    [...records.values()].flatMap((run) =>
      typeof run.json.instance === 'string' ? [{ iri: run.json.instance, graph: run.graph }] : [],
    ),
  );
  await prefetchReferences(core, instances.values(), ['software']);
  for (const item of page.items) {
    const stored = records.get(storedKey(item.iri, item.graph));
    if (stored !== undefined)
      items.push(await summarise(core, stored, counts.get(item.iri) ?? { generated: 0, used: 0 }));
  }
  return {
    items,
    total: page.total,
    ...(page.next_cursor === undefined ? {} : { next_cursor: page.next_cursor }),
  };
}
