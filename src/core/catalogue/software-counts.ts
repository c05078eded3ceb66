/**
 * A software's counts, derived from other records: its deployments, its releases and the newest of them, and the
 * runs of its deployments in the last 30 days; and the list of its releases. Read from the lineage index in
 * `registry.db` (which keeps the links and facts they are derived from), so they are answered before the query
 * index has loaded and cost no request to an external store; from the query index while the lineage index is
 * being filled.
 */
import { DCT, GRAPHS, PROV, REG, SCHEMA } from '../ns.js';
import { idOf } from '../records/ids.js';
import type { JsonObject } from '../records/mapper.js';
import type { Core } from '../core.js';
import { lineageIndexReady } from '../store/lineage/lineage-index.js';
import { FACT, LINK } from '../store/lineage/lineage-facts.js';
import { notWithdrawnSql } from '../store/lineage/lineage-sql.js';
import type { Binding } from '../store/graph/types.js';
import { memoisedEach } from '../stored/memoised.js';
import { withinLastDays } from '../discovery/sparql-text.js';

/** What the counts of some software are made of, each by software IRI. */
interface CountParts {
  readonly instances: Map<string, number>;
  readonly releases: Map<string, number>;
  readonly runs: Map<string, number>;
  readonly latest: Map<string, { readonly iri: string; readonly version: string; readonly date?: string }>;
}

interface ReleaseDetail {
  readonly iri: string;
  readonly version: string;
  readonly date: string | null;
}

const RUN_DAYS = 30;

/** Counts derived from other records: deployments and releases of a software, and its newest release. */
export async function softwareCounts(core: Core, iri: string): Promise<JsonObject> {
  return (await softwareCountsOf(core, [iri])).get(iri) ?? {};
}

/**
 * The counts of `softwareCounts` for several software at once (a list page): a few lookups whatever their number,
 * each answer kept until the next write.
 */
export async function softwareCountsOf(
  core: Core,
  iris: readonly string[],
): Promise<Map<string, JsonObject>> {
  if (!lineageIndexReady(core.db) && !core.graph.ready) return new Map();
  return memoisedEach(core, 'software-counts', iris, async (missing) =>
    present(
      missing,
      lineageIndexReady(core.db) ? countsFromIndex(core, missing) : await countsFromQueries(core, missing),
    ),
  );
}

function present(missing: readonly string[], parts: CountParts): Map<string, JsonObject> {
  const out = new Map<string, JsonObject>();
  for (const iri of missing) {
    const result: JsonObject = {
      instance_count: parts.instances.get(iri) ?? 0,
      release_count: parts.releases.get(iri) ?? 0,
      // Runs of its deployments in the last 30 days (cached until the next write, like the other counts).
      runs_30d: parts.runs.get(iri) ?? 0,
    };
    const latest = parts.latest.get(iri);
    if (latest !== undefined) {
      result.latest_release = {
        iri: latest.iri,
        id: idOf(latest.iri),
        version: latest.version,
        ...(latest.date === undefined ? {} : { date_published: latest.date }),
      };
    }
    out.set(iri, result);
  }
  return out;
}

/**
 * The releases of a software that are not withdrawn, newest first (descending IRI, as lists order), at most `max`,
 * with their number: from the lineage index, or undefined while it is being filled.
 */
export function releasesFromIndex(
  core: Core,
  software: string,
  max: number,
): { items: { iri: string; graph: string }[]; total: number } | undefined {
  if (!lineageIndexReady(core.db)) return undefined;
  const local = GRAPHS.local;
  const iris = core.db
    .prepare(`SELECT DISTINCT l.s FROM lineage_link l WHERE ${releaseOf('= ?')} ORDER BY l.s DESC LIMIT ?`)
    .pluck()
    .all(software, local, max) as string[];
  const total = core.db
    .prepare(`SELECT COUNT(DISTINCT l.s) FROM lineage_link l WHERE ${releaseOf('= ?')}`)
    .pluck()
    .get(software, local) as number;
  return { items: iris.map((iri) => ({ iri, graph: local })), total };
}

const live = (column: string): string => notWithdrawnSql(column, 'l.graph');
const has = (column: string, fact: number): string =>
  `EXISTS (SELECT 1 FROM lineage_node h WHERE h.iri = ${column} AND h.graph = l.graph AND h.p = ${fact})`;
/** The links `l` from a release that is not withdrawn to the software `software` names (a condition on `l.o`). */
const releaseOf = (software: string): string =>
  `l.o ${software} AND l.p = ${LINK.versionOf} AND l.graph = ? AND ${has('l.s', FACT.release)} AND ${live('l.s')}`;

/** The counts from the lineage index: five statements whatever the number of software. */
function countsFromIndex(core: Core, software: readonly string[]): CountParts {
  const wanted = JSON.stringify(software);
  const local = GRAPHS.local;
  const counted = (sql: string, ...params: unknown[]): Map<string, number> =>
    new Map((core.db.prepare(sql).all(...params) as { s: string; n: number }[]).map((row) => [row.s, row.n]));
  const instances = counted(
    `SELECT l.o AS s, COUNT(DISTINCT l.s) AS n FROM lineage_link l
     WHERE l.o IN (SELECT value FROM json_each(?)) AND l.p = ${LINK.instanceOf} AND l.graph = ? AND ${live('l.s')}
     GROUP BY l.o`,
    wanted,
    local,
  );
  const ofWanted = releaseOf('IN (SELECT value FROM json_each(?))');
  const releases = counted(
    `SELECT l.o AS s, COUNT(DISTINCT l.s) AS n FROM lineage_link l WHERE ${ofWanted} GROUP BY l.o`,
    wanted,
    local,
  );
  // The newest release with a version: the greatest "date, tab, IRI" (no date sorts first), as in the query.
  const newest = core.db
    .prepare(
      `SELECT l.o AS s, MAX(coalesce(d.value, '') || char(9) || l.s) AS best FROM lineage_link l
       LEFT JOIN lineage_node d ON d.iri = l.s AND d.graph = l.graph AND d.p = ${FACT.published}
       WHERE ${ofWanted} AND ${has('l.s', FACT.softwareVersion)} GROUP BY l.o`,
    )
    .all(wanted, local) as { s: string; best: string }[];
  const newestOf = new Map(newest.map(({ s, best }) => [s, best.slice(best.indexOf('\t') + 1)]));
  // Their versions and dates as stored (the first, should a release state more than one).
  const rows = core.db
    .prepare(
      `SELECT v.iri AS iri, v.value AS version, d.value AS date FROM lineage_node v
       LEFT JOIN lineage_node d ON d.iri = v.iri AND d.graph = v.graph AND d.p = ${FACT.published}
       WHERE v.iri IN (SELECT value FROM json_each(?)) AND v.graph = ? AND v.p = ${FACT.softwareVersion}`,
    )
    .all(JSON.stringify([...new Set(newestOf.values())]), local) as ReleaseDetail[];
  const details = new Map<string, ReleaseDetail>();
  for (const row of rows) if (!details.has(row.iri)) details.set(row.iri, row);
  const latest: CountParts['latest'] = new Map();
  for (const [s, iri] of newestOf) {
    const row = details.get(iri);
    if (row !== undefined)
      latest.set(s, { iri, version: row.version, ...(row.date === null ? {} : { date: row.date }) });
  }
  const since = new Date(Date.now() - RUN_DAYS * 86_400_000).toISOString();
  const runs = counted(
    `SELECT l.o AS s, COUNT(DISTINCT a.s) AS n FROM lineage_link l
     JOIN lineage_link a ON a.o = l.s AND a.p = ${LINK.associatedWith} AND a.graph = l.graph
     JOIN lineage_node st ON st.iri = a.s AND st.graph = l.graph AND st.p = ${FACT.started} AND st.value >= ?
     WHERE l.o IN (SELECT value FROM json_each(?)) AND l.p = ${LINK.instanceOf} AND l.graph = ?
     GROUP BY l.o`,
    since,
    wanted,
    local,
  );
  return { instances, releases, runs, latest };
}

/** The counts from the query index: four queries whatever the number of software. */
async function countsFromQueries(core: Core, missing: readonly string[]): Promise<CountParts> {
  const values = `VALUES ?s { ${missing.map((iri) => `<${iri}>`).join(' ')} }`;
  const live = `FILTER NOT EXISTS { ?x <${REG('tombstoned')}> true }`;
  const byS = (rows: Binding[]) => new Map(rows.map((row) => [row.s?.value ?? '', row]));
  const numbers = (rows: Binding[], name: string): Map<string, number> =>
    new Map(rows.map((row) => [row.s?.value ?? '', Number(row[name]?.value ?? 0)]));
  const counts = await core.graph.select(
    `SELECT ?s (COUNT(DISTINCT ?i) AS ?instances) (COUNT(DISTINCT ?r) AS ?releases) WHERE { ${values}
       GRAPH <${GRAPHS.local}> {
         { ?i <${REG('instanceOf')}> ?s . BIND(?i AS ?x) ${live} } UNION
         { ?r <${DCT('isVersionOf')}> ?s ; a <${REG('Release')}> . BIND(?r AS ?x) ${live} } } } GROUP BY ?s`,
  );
  // The newest release of each: the greatest of "date, tab, IRI" (no date sorts first), as ordering by date and
  // then IRI, newest first, would give; its version and date are then read as stored.
  const newest = byS(
    await core.graph.select(
      `SELECT ?s (MAX(CONCAT(COALESCE(STR(?date), ""), "\t", STR(?r))) AS ?best) WHERE { ${values}
         GRAPH <${GRAPHS.local}> { ?r <${DCT('isVersionOf')}> ?s ; a <${REG('Release')}> ;
           <${SCHEMA('softwareVersion')}> ?version . BIND(?r AS ?x) ${live}
           OPTIONAL { ?r <${SCHEMA('datePublished')}> ?date } } } GROUP BY ?s`,
    ),
  );
  const newestOf = new Map(
    [...newest].flatMap(([s, row]) => {
      const best = row.best?.value ?? '';
      const release = best.slice(best.indexOf('\t') + 1);
      return release === '' ? [] : [[s, release] as const];
    }),
  );
  const releases = new Map<string, Binding>();
  if (newestOf.size > 0) {
    const rows = await core.graph.select(
      `SELECT ?r ?version ?date WHERE { VALUES ?r { ${[...new Set(newestOf.values())].map((r) => `<${r}>`).join(' ')} }
         GRAPH <${GRAPHS.local}> { ?r <${SCHEMA('softwareVersion')}> ?version .
           OPTIONAL { ?r <${SCHEMA('datePublished')}> ?date } } }`,
    );
    for (const row of rows) if (row.r !== undefined) releases.set(row.r.value, row);
  }
  const runs = await core.graph.select(
    `SELECT ?s (COUNT(DISTINCT ?run) AS ?recent) WHERE { ${values} GRAPH <${GRAPHS.local}> {
       ?i <${REG('instanceOf')}> ?s . ?run <${PROV('wasAssociatedWith')}> ?i ; <${PROV('startedAtTime')}> ?start .
       ${withinLastDays('?start', RUN_DAYS)} } } GROUP BY ?s`,
  );
  const latest: CountParts['latest'] = new Map();
  for (const [s, iri] of newestOf) {
    const row = releases.get(iri);
    if (row === undefined) continue;
    const date = row.date?.value;
    latest.set(s, { iri, version: row.version?.value ?? '', ...(date === undefined ? {} : { date }) });
  }
  return {
    instances: numbers(counts, 'instances'),
    releases: numbers(counts, 'releases'),
    runs: numbers(runs, 'recent'),
    latest,
  };
}
