/**
 * `GET /api/v1/software/{id}/deployments`: what runs where. Every deployment of a software that is not withdrawn,
 * with the version it runs, since when (by its history, else its record's last change), its health and last run,
 * and two drift flags: `behind_latest` (it runs another version than the software's latest release) and
 * `versions_differ` (the running deployments of its environment do not all run one version).
 */
import { GRAPHS, PROV, REG } from '../ns.js';
import { idOf } from '../records/ids.js';
import { isObject } from '../records/json.js';
import type { JsonObject } from '../records/mapper.js';
import { INSTANCE, RELEASE, SOFTWARE } from '../records/specs.js';
import type { Core } from '../core.js';
import { softwareCounts } from '../catalogue/software.js';
import { iriPattern, listAllRecords } from '../stored/listing.js';
import { iriOf, readStored, requireReadable } from '../stored/records.js';
import { changedAt } from './history-store.js';
import { stateOf } from './history.js';

/** Deployments of one software the view lists at most; `total` says how many there are. */
const MAX_DEPLOYMENTS = 2000;

const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/** The newest run of a deployment: its IRI, start and status. */
async function lastRunOf(core: Core, instance: string): Promise<JsonObject | null> {
  if (!core.graph.ready) return null;
  const [row] = await core.graph.select(
    `SELECT ?r ?start ?status WHERE { GRAPH <${GRAPHS.local}> { ?r <${PROV('wasAssociatedWith')}> <${instance}> ;
       <${PROV('startedAtTime')}> ?start . OPTIONAL { ?r <${REG('status')}> ?status } } } ORDER BY DESC(?start) LIMIT 1`,
  );
  if (row?.r === undefined) return null;
  return {
    iri: row.r.value,
    id: idOf(row.r.value),
    started_at: row.start?.value ?? null,
    status: row.status?.value ?? null,
  };
}

/** One deployment as the view shows it, before its drift flags are known. */
async function deploymentRow(core: Core, iri: string): Promise<JsonObject | undefined> {
  const stored = await readStored(core, INSTANCE, iri);
  if (stored === undefined || stored.tombstoned) return undefined;
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
    last_run: await lastRunOf(core, iri),
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

/** The deployments of a software with what they run and their drift (see the module's comment). */
export async function softwareDeployments(core: Core, id: string): Promise<JsonObject> {
  const software = await requireReadable(core, SOFTWARE, iriOf(core, 'software', id));
  const listed = await listAllRecords(
    core,
    {
      type: REG('Instance'),
      patterns: [iriPattern(REG('instanceOf'), software.iri, 'software')],
      registry: 'local',
    },
    MAX_DEPLOYMENTS,
  );
  const rows: JsonObject[] = [];
  for (const item of listed.items) {
    const row = await deploymentRow(core, item.iri);
    if (row !== undefined) rows.push(row);
  }
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
      behind_latest:
        row.running === true &&
        latestRelease?.version !== null &&
        latestRelease?.version !== undefined &&
        typeof row.version === 'string' &&
        row.version !== latestRelease.version,
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
