/**
 * What a deployment did: runs and failed runs in the last 30 days, when it last ran, and how many artifacts it
 * touched (its runs produced or consumed them, or it registered them). Read from the lineage index in
 * `registry.db` (which keeps runs' associations, starts and statuses, and artifacts' generated-by, used and
 * attributed-to links), so a deployment and a list of them are answered before the query index has loaded; from
 * the query index while the lineage index is being filled; zero when neither is ready.
 */
import { GRAPHS, PROV, REG } from '../ns.js';
import type { JsonObject } from '../records/mapper.js';
import type { Core } from '../core.js';
import { countArtifactsOfInstances } from '../provenance/artifact-list.js';
import { lineageIndexReady } from '../store/lineage/lineage-index.js';
import { FACT, LINK } from '../store/lineage/lineage-facts.js';
import { touchedSql } from '../store/lineage/lineage-sql.js';
import type { Binding } from '../store/graph/types.js';
import { memoisedEach } from '../stored/memoised.js';
import { withinLastDays } from '../discovery/sparql-text.js';

const RUN_DAYS = 30;

/** The activity of one deployment. */
export async function activityOf(core: Core, iri: string): Promise<JsonObject> {
  return (await activitiesOf(core, [iri])).get(iri) ?? {};
}

/**
 * `activityOf` for several deployments at once (a list page): a few lookups whatever their number, each answer kept
 * until the next write.
 */
export async function activitiesOf(core: Core, iris: readonly string[]): Promise<Map<string, JsonObject>> {
  const fromIndex = lineageIndexReady(core.db);
  if (!fromIndex && !core.graph.ready)
    return new Map(iris.map((iri) => [iri, { runs_30d: 0, failures_30d: 0, artifact_count: 0 }]));
  return memoisedEach(core, 'instance-activity', iris, async (missing) =>
    present(missing, fromIndex ? partsFromIndex(core, missing) : await partsFromQueries(core, missing)),
  );
}

/** What the activity of some deployments is made of, each by deployment IRI. */
interface ActivityParts {
  readonly recent: Map<string, number>;
  readonly failures: Map<string, number>;
  readonly last: Map<string, string>;
  readonly artifacts: Map<string, number>;
}

function present(missing: readonly string[], parts: ActivityParts): Map<string, JsonObject> {
  const out = new Map<string, JsonObject>();
  for (const iri of missing) {
    const lastRun = parts.last.get(iri);
    out.set(iri, {
      runs_30d: parts.recent.get(iri) ?? 0,
      failures_30d: parts.failures.get(iri) ?? 0,
      artifact_count: parts.artifacts.get(iri) ?? 0,
      ...(lastRun === undefined ? {} : { last_run_at: lastRun }),
    });
  }
  return out;
}

/**
 * The activity from the lineage index: three statements whatever the number of deployments, counting what the
 * queries below count (runs of the local graph by their start in UTC; artifacts of this registry's or a peer's
 * graph that are not withdrawn there, as the deployment's artifact list selects them).
 */
function partsFromIndex(core: Core, deployments: readonly string[]): ActivityParts {
  const wanted = JSON.stringify(deployments);
  const local = GRAPHS.local;
  const since = new Date(Date.now() - RUN_DAYS * 86_400_000).toISOString();
  const runs = core.db
    .prepare(
      `SELECT a.o AS i,
         COUNT(DISTINCT CASE WHEN st.value >= ? THEN a.s END) AS recent,
         COUNT(DISTINCT CASE WHEN st.value >= ? AND EXISTS (SELECT 1 FROM lineage_node f WHERE f.iri = a.s
           AND f.graph = a.graph AND f.p = ${FACT.status} AND f.value IN ('failed', 'aborted')) THEN a.s END) AS failures,
         MAX(st.value) AS last
       FROM lineage_link a
       JOIN lineage_node st ON st.iri = a.s AND st.graph = a.graph AND st.p = ${FACT.started}
       WHERE a.o IN (SELECT value FROM json_each(?)) AND a.p = ${LINK.associatedWith} AND a.graph = ?
       GROUP BY a.o`,
    )
    .all(since, since, wanted, local) as { i: string; recent: number; failures: number; last: string }[];
  // Each artifact `s` with a graph `g` that holds it, touched by the deployment `i`: generated (in g) by a run
  // associated with it, used by a run associated with it (both in the run's graph), or attributed to it (in g).
  const touched = touchedSql('SELECT value FROM json_each(?)', [wanted]);
  const artifacts = core.db
    .prepare(`SELECT i, COUNT(DISTINCT s) AS n FROM (${touched.sql}) GROUP BY i`)
    .all(...touched.params) as { i: string; n: number }[];
  return {
    recent: new Map(runs.map((row) => [row.i, row.recent])),
    failures: new Map(runs.map((row) => [row.i, row.failures])),
    last: new Map(runs.map((row) => [row.i, row.last])),
    artifacts: new Map(artifacts.map((row) => [row.i, row.n])),
  };
}

/** The activity from the query index: three queries whatever the number of deployments. */
async function partsFromQueries(core: Core, missing: readonly string[]): Promise<ActivityParts> {
  const values = `VALUES ?i { ${missing.map((iri) => `<${iri}>`).join(' ')} }`;
  const ran = `?r <${PROV('wasAssociatedWith')}> ?i ; <${PROV('startedAtTime')}> ?start .`;
  const byI = (rows: Binding[], name: string) =>
    new Map(
      rows.flatMap((row) => {
        const value = row[name]?.value;
        return value === undefined ? [] : [[row.i?.value ?? '', value] as const];
      }),
    );
  const runs = await core.graph.select(
    `SELECT ?i (COUNT(DISTINCT ?r) AS ?recent) (COUNT(DISTINCT ?failed) AS ?failures) WHERE { ${values}
       GRAPH <${GRAPHS.local}> { ${ran} ${withinLastDays('?start', RUN_DAYS)}
       OPTIONAL { ?r <${REG('status')}> ?status FILTER(?status IN ("failed", "aborted")) BIND(?r AS ?failed) } } }
     GROUP BY ?i`,
  );
  const last = await core.graph.select(
    `SELECT ?i (MAX(?start) AS ?last) WHERE { ${values} GRAPH <${GRAPHS.local}> { ${ran} } } GROUP BY ?i`,
  );
  const numbers = (name: string) => new Map([...byI(runs, name)].map(([i, n]) => [i, Number(n)]));
  return {
    recent: numbers('recent'),
    failures: numbers('failures'),
    last: byI(last, 'last'),
    // Exactly what GET /api/v1/instances/{id}/artifacts lists: artifact records, not foreign IRIs a run used.
    artifacts: await countArtifactsOfInstances(core, missing),
  };
}
