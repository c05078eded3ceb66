/**
 * `GET /api/v1/software/{id}/deployments`: what runs where. Every deployment of a software that is not withdrawn,
 * with the version it runs, since when (by its history, else its record's last change), its health and last run,
 * and two drift flags: `behind_latest` (it runs an older version than the software's latest release) and
 * `versions_differ` (the running deployments of its environment do not all run one version).
 */
import { GRAPHS, PROV, REG } from '../ns.js';
import { idOf } from '../records/ids.js';
import { isObject } from '../records/json.js';
import type { JsonObject } from '../records/mapper.js';
import { INSTANCE, RELEASE, SOFTWARE } from '../records/specs.js';
import type { Core } from '../core.js';
import { softwareCounts } from '../catalogue/software-counts.js';
import { iriPattern, listAllRecords } from '../stored/listing.js';
import {
  iriOf,
  prefetchReferences,
  presentingTogether,
  readStored,
  readStoredMany,
  requireReadable,
  storedKey,
  type StoredRecord,
} from '../stored/records.js';
import { changedAt } from './history-store.js';
import { lineageIndexReady } from '../store/lineage/lineage-index.js';
import { FACT, LINK } from '../store/lineage/lineage-facts.js';
import { factsAt } from '../store/lineage/lineage-sql.js';
import { stateOf } from './history.js';

/** Deployments of one software the view lists at most; `total` says how many there are. */
const MAX_DEPLOYMENTS = 2000;

const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/**
 * The last run of each deployment (by start time; among runs started at the same instant, the greatest IRI), in
 * one query whatever their number.
 */
async function lastRunsOf(core: Core, instances: readonly string[]): Promise<Map<string, JsonObject>> {
  if (lineageIndexReady(core.db)) return lastRunsFromIndex(core, instances);
  const out = new Map<string, JsonObject>();
  if (!core.graph.ready || instances.length === 0) return out;
  const values = `VALUES ?i { ${instances.map((iri) => `<${iri}>`).join(' ')} }`;
  const rows = await core.graph.select(
    `SELECT ?i ?r ?start ?status WHERE {
       { SELECT ?i (MAX(?began) AS ?start) WHERE { ${values}
           GRAPH <${GRAPHS.local}> { ?any <${PROV('wasAssociatedWith')}> ?i ; <${PROV('startedAtTime')}> ?began } }
         GROUP BY ?i }
       GRAPH <${GRAPHS.local}> { ?r <${PROV('wasAssociatedWith')}> ?i ; <${PROV('startedAtTime')}> ?start .
         OPTIONAL { ?r <${REG('status')}> ?status } } }`,
  );
  for (const row of rows) {
    if (row.i === undefined || row.r === undefined) continue;
    const known = out.get(row.i.value);
    if (known !== undefined && typeof known.iri === 'string' && known.iri >= row.r.value) continue;
    out.set(row.i.value, {
      iri: row.r.value,
      id: idOf(row.r.value),
      started_at: row.start?.value ?? null,
      status: row.status?.value ?? null,
    });
  }
  return out;
}

/** `lastRunsOf` from the lineage index, which keeps runs' deployments, starts (in UTC) and statuses. */
function lastRunsFromIndex(core: Core, instances: readonly string[]): Map<string, JsonObject> {
  const rows = core.db
    .prepare(
      `SELECT c.value AS i, (SELECT a.s FROM lineage_link a
         JOIN lineage_node st ON st.iri = a.s AND st.graph = a.graph AND st.p = ${FACT.started}
         WHERE a.o = c.value AND a.p = ${LINK.associatedWith} AND a.graph = ?
         ORDER BY st.value DESC, a.s DESC LIMIT 1) AS r
       FROM json_each(?) c`,
    )
    .all(GRAPHS.local, JSON.stringify(instances)) as { i: string; r: string | null }[];
  const last = rows.flatMap((row) => (row.r === null ? [] : [[row.i, row.r] as const]));
  const facts = factsAt(
    core.db,
    last.map(([, run]) => [run, GRAPHS.local] as const),
    [FACT.started, FACT.status],
  );
  const factOf = (run: string, p: number) => facts.find((fact) => fact.iri === run && fact.p === p)?.value;
  return new Map(
    last.map(([instance, run]) => [
      instance,
      {
        iri: run,
        id: idOf(run),
        // The start that made it the last: the greatest of the run's starts.
        started_at:
          facts
            .filter((fact) => fact.iri === run && fact.p === FACT.started)
            .map((fact) => fact.value)
            .sort()
            .at(-1) ?? null,
        status: factOf(run, FACT.status) ?? null,
      },
    ]),
  );
}

/** One deployment as the view shows it, before its drift flags are known. */
async function deploymentRow(
  core: Core,
  stored: StoredRecord,
  lastRun: JsonObject | null,
): Promise<JsonObject | undefined> {
  if (stored.tombstoned) return undefined;
  const iri = stored.iri;
  const json = stored.json;
  const state = stateOf(json);
  const releaseVersion =
    state.release === null ? null : text((await readStored(core, RELEASE, state.release))?.json.version);
  return {
    iri,
    id: idOf(iri),
    label: text(json.label),
    environment: state.environment,
    release: state.release,
    release_version: releaseVersion,
    version: state.version ?? releaseVersion,
    artifact_id: text(json.artifact_id),
    running: state.running,
    removed_at: text(json.removed_at),
    since: changedAt(core.db, iri) ?? text(json.modified),
    health: text(json.health) ?? 'unknown',
    health_checked_at: text(json.health_checked_at),
    last_seen_at: text(json.last_seen_at),
    last_run: lastRun,
  };
}

/** The running deployments of one environment and the versions they run. */
interface EnvironmentGroup {
  readonly environment: string;
  readonly versions: string[];
  readonly versions_differ: boolean;
  readonly deployments: string[];
}

/** The running deployments of each environment and whether they run more than one version. */
function environmentsOf(rows: readonly JsonObject[]): EnvironmentGroup[] {
  const byName = new Map<string, JsonObject[]>();
  for (const row of rows) {
    if (row.running !== true || typeof row.environment !== 'string') continue;
    byName.set(row.environment, [...(byName.get(row.environment) ?? []), row]);
  }
  return [...byName.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([environment, members]) => {
      const versions = [...new Set(members.map((row) => text(row.version)).filter((v) => v !== null))].sort();
      return {
        environment,
        versions,
        versions_differ: versions.length > 1,
        deployments: members.map((row) => row.iri as string),
      };
    });
}

/**
 * Whether a deployment runs something older than the latest release: not when it runs that release or its
 * version, nor when its version is a later one (dotted numbers compared as numbers); versions that cannot be
 * compared and differ count as behind.
 */
function isBehind(
  row: JsonObject,
  latest: { iri: string; version: string | null | undefined } | null,
): boolean {
  if (latest === null || typeof latest.version !== 'string' || typeof row.version !== 'string') return false;
  if (row.release === latest.iri || row.version === latest.version) return false;
  const order = compareVersions(row.version, latest.version);
  return order === undefined || order < 0;
}

/** Dotted version numbers (`v1.10.2`, `2.0`) compared part by part as numbers; undefined when either is not one. */
export function compareVersions(a: string, b: string): number | undefined {
  const parts = (version: string) => /^v?(\d+(?:\.\d+)*)$/i.exec(version.trim())?.[1]?.split('.').map(Number);
  const [left, right] = [parts(a), parts(b)];
  if (left === undefined || right === undefined) return undefined;
  for (let at = 0; at < Math.max(left.length, right.length); at++) {
    const difference = (left[at] ?? 0) - (right[at] ?? 0);
    if (difference !== 0) return Math.sign(difference);
  }
  return 0;
}

/** The deployments of a software with what they run and their drift (see the module's comment). */
export async function softwareDeployments(core: Core, id: string): Promise<JsonObject> {
  const software = await requireReadable(core, SOFTWARE, iriOf(core, 'software', id));
  const listed = await listAllRecords(
    core,
    {
      type: REG('Instance'),
      patterns: [iriPattern(REG('instanceOf'), software.iri, 'software')],
      conditions: [{ link: LINK.instanceOf, o: software.iri }],
      registry: 'local',
    },
    MAX_DEPLOYMENTS,
  );
  // The deployments, their releases and their last runs are read together: the view costs the same few
  // requests to the graph store however many deployments the software has.
  const rows = await presentingTogether(async () => {
    const records = await readStoredMany(core, INSTANCE, listed.items);
    await prefetchReferences(core, records.values(), ['release']);
    const lastRuns = await lastRunsOf(
      core,
      [...records.values()].map((record) => record.iri),
    );
    const out: JsonObject[] = [];
    for (const item of listed.items) {
      const stored = records.get(storedKey(item.iri, item.graph));
      const row =
        stored === undefined
          ? undefined
          : await deploymentRow(core, stored, lastRuns.get(stored.iri) ?? null);
      if (row !== undefined) out.push(row);
    }
    return out;
  });
  const latest = (await softwareCounts(core, software.iri)).latest_release;
  const latestRelease =
    isObject(latest) && typeof latest.iri === 'string'
      ? { iri: latest.iri, version: text(latest.version) }
      : null;
  const environments = environmentsOf(rows);
  const differing = new Set(
    environments.filter((group) => group.versions_differ).map((group) => group.environment),
  );
  const items = rows
    .map((row) => ({
      ...row,
      behind_latest: row.running === true && isBehind(row, latestRelease),
      versions_differ: row.running === true && differing.has(row.environment as string),
    }))
    .sort((a, b) => {
      const key = (row: JsonObject) => `${text(row.environment) ?? '\uffff'}\n${text(row.label) ?? ''}`;
      return key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0;
    });
  return {
    software: software.iri,
    latest_release: latestRelease,
    items,
    total: items.length,
    environments: environments.map((group) => ({ ...group })),
    drift: {
      behind_latest: items.filter((row) => row.behind_latest).length,
      environments_with_differing_versions: [...differing].sort(),
    },
  };
}
