/**
 * Sync of software records from code forges: read the connected repository, overwrite the fields named in
 * `sync.fields` through the validated write path (all of them or none), register releases the registry does not
 * hold, and report the run on the record (`last_synced_at`, `last_status`, `last_error`, `last_changed`).
 */
import { principal as makePrincipal, type Principal } from '../access/principal.js';
import { requireCurator } from '../access/policy.js';
import { BadRequestError, ConflictError, TombstonedError, UnavailableError } from '../errors.js';
import { openForge } from './forges.js';
import type { ForgeCredential } from './http.js';
import { ForgeError, FORGE_SOURCES, type ForgeSource } from './types.js';
import { DCT, GRAPHS, REG, SCHEMA } from '../ns.js';
import { isObject } from '../records/json.js';
import type { JsonObject } from '../records/mapper.js';
import { SOFTWARE } from '../records/specs.js';
import type { Core } from '../core.js';
import { planSync, SyncRefusal } from './forge-map.js';
import { selectByKey } from '../stored/keyset.js';
import { lineageIndexReady } from '../store/lineage/lineage-index.js';
import { connectedFromIndex, heldVersionsFromIndex } from './forge-sync-index.js';
import {
  commitPlan,
  recordSyncFailure,
  type SyncOutcome,
  type SyncRunOptions,
} from './forge-sync-outcome.js';
import { iriOf, readStored, requireStored, type StoredRecord } from '../stored/records.js';
import type { Act } from '../stored/write-path.js';
import { presentSoftware } from '../catalogue/software.js';
import { readSyncSettings, type SyncSettings } from './sync-settings.js';

export type { SyncOutcome, SyncRunOptions } from './forge-sync-outcome.js';

/** Who scheduled runs are attributed to in the audit log. */
export const FORGE_SYNC_PRINCIPAL: Principal = makePrincipal({
  credential: 'root-token',
  actorKind: 'system',
  subject: 'urn:reg:forge-sync',
  displayName: 'forge sync',
  roles: ['curator'],
});

/**
 * Runs a sync of one software record now (`POST /api/v1/software/{id}/sync`, curator) and returns the record
 * with the run's outcome in `sync`. A record without `sync.source` and `sync.repo` is a 400; one whose
 * `sync.enabled` is false is a 409 (a sync runs, by hand or on schedule, only while it is enabled).
 */
export async function syncSoftware(core: Core, act: Act, id: string): Promise<JsonObject> {
  requireCurator(act.principal);
  const stored = await requireStored(core, SOFTWARE, iriOf(core, 'software', id));
  if (stored.tombstoned) throw new TombstonedError(`${stored.iri} is withdrawn and is not synced`);
  if (
    !isObject(stored.json.sync) ||
    stored.json.sync.source === undefined ||
    stored.json.sync.repo === undefined
  )
    throw notConnected(stored.iri);
  if (stored.json.sync.enabled === false)
    throw new ConflictError(
      `sync of ${stored.iri} is disabled: set sync.enabled to true to sync it from its repository`,
    );
  await runForgeSync(core, stored.iri, {
    principal: act.principal,
    requestId: act.requestId,
    now: () => new Date(act.now),
  });
  return presentSoftware(core, await requireStored(core, SOFTWARE, stored.iri));
}

function notConnected(iri: string): BadRequestError {
  return new BadRequestError(
    `software ${iri} is not connected to a repository: set sync.source and sync.repo first`,
  );
}

/**
 * One sync run of a connected software record, shared by `POST …/sync` and the scheduler. Runs of one record
 * never overlap. A forge failure, a value the registry cannot take, or a refusal of the write path is reported
 * on the record as `last_status: error` with nothing else changed.
 */
export async function runForgeSync(core: Core, iri: string, options: SyncRunOptions): Promise<SyncOutcome> {
  const outcome = await core.locks.run(`forge-sync ${iri}`, () => runLocked(core, iri, options));
  core.log.debug('forge sync run', {
    software: iri,
    status: outcome.status,
    changed: outcome.changed,
    ...(outcome.error === undefined ? {} : { error: outcome.error }),
  });
  return outcome;
}

/**
 * The credential sent to a forge: that forge's registry-wide token (`REG_FORGE_TOKEN` for GitHub,
 * `REG_FORGE_GITLAB_TOKEN` for GitLab), or none. A signed-in curator's own forge token would come first, but an
 * identity-provider token reaching the registry carries none, so there is none to prefer.
 */
export function forgeCredential(core: Core, source: ForgeSource): ForgeCredential {
  const token = source === 'github' ? core.config.secrets.forgeToken : core.config.secrets.forgeGitlabToken;
  return token === undefined ? { kind: 'anonymous' } : { kind: 'token', token };
}

async function runLocked(core: Core, iri: string, options: SyncRunOptions): Promise<SyncOutcome> {
  const now = options.now ?? (() => new Date());
  const started = now();
  const stored = await requireStored(core, SOFTWARE, iri);
  let settings: SyncSettings | undefined;
  try {
    settings = readSyncSettings(stored.json.sync);
  } catch (error) {
    if (!(error instanceof BadRequestError)) throw error;
    return recordSyncFailure(core, stored, undefined, error.detail, options, started);
  }
  if (settings === undefined) throw notConnected(iri);
  const apiBase = core.config.forgeApis[settings.source];
  const credential = forgeCredential(core, settings.source);
  const { pace, signal } = options;
  const forge = openForge({
    db: core.db,
    source: settings.source,
    apiBase,
    credential,
    userAgent: `reg/${core.version} (forge sync)`,
    now,
    ...(pace === undefined ? {} : { pace: () => pace(apiBase, credential.token !== undefined) }),
    ...(signal === undefined ? {} : { signal }),
  });
  try {
    const snapshot = await forge.snapshot(settings.repo, {
      readme: settings.fields.includes('readme'),
      releases: settings.fields.includes('releases'),
    });
    const latest = await requireStored(core, SOFTWARE, iri);
    if (!sameConnection(latest, settings))
      return {
        status: 'error',
        changed: [],
        error: 'the sync settings changed during the run; nothing was recorded',
      };
    const held = settings.fields.includes('releases') ? await heldVersions(core, iri) : new Set<string>();
    const plan = planSync(core.reference.index, latest.json, settings.fields, snapshot, held);
    return await commitPlan(core, latest, settings, plan, options, started);
  } catch (error) {
    if (signal?.aborted === true) throw error;
    if (!(error instanceof ForgeError) && !(error instanceof SyncRefusal)) throw error;
    const latest = await readStored(core, SOFTWARE, iri);
    if (latest === undefined || !sameConnection(latest, settings))
      return { status: 'error', changed: [], error: error.message };
    const until = error instanceof ForgeError ? error.until : undefined;
    return recordSyncFailure(core, latest, settings, error.message, options, started, until);
  }
}

/** A software record whose scheduled sync is enabled. */
export interface ConnectedSoftware {
  readonly iri: string;
  readonly source: ForgeSource;
}

/**
 * Live software records connected to a repository of a known forge with `sync.enabled` not false: from the lineage
 * index when it is complete, else by a query.
 */
export async function connectedSoftware(core: Core): Promise<ConnectedSoftware[]> {
  if (lineageIndexReady(core.db))
    return (await connectedFromIndex(core)).flatMap((row) =>
      (FORGE_SOURCES as readonly string[]).includes(row.source)
        ? [{ iri: row.iri, source: row.source as ForgeSource }]
        : [],
    );
  const rows = await selectByKey(
    core,
    's',
    ({ after, order }) =>
      `SELECT ?s ?source WHERE { GRAPH <${GRAPHS.local}> { ?s a <${REG('Software')}> ; <${REG('sync')}> ?sync .
       ?sync <${REG('syncSource')}> ?source ; <${REG('syncRepo')}> ?repo .
       FILTER NOT EXISTS { ?sync <${REG('syncEnabled')}> false }
       FILTER NOT EXISTS { ?s <${REG('tombstoned')}> true } } ${after} } ${order}`,
  );
  return rows.flatMap((row) => {
    const source = row.source?.value;
    return row.s === undefined || !(FORGE_SOURCES as readonly string[]).includes(source ?? '')
      ? []
      : [{ iri: row.s.value, source: source as ForgeSource }];
  });
}

/** Whether a record is still connected to the repository a run read (a curator may have changed it meanwhile). */
function sameConnection(stored: StoredRecord, settings: SyncSettings): boolean {
  const sync = stored.json.sync;
  return (
    !stored.tombstoned && isObject(sync) && sync.source === settings.source && sync.repo === settings.repo
  );
}

/** Versions (and tags) of every release of a software the registry holds, withdrawn ones included. */
export async function heldVersions(core: Core, iri: string): Promise<Set<string>> {
  if (lineageIndexReady(core.db)) return heldVersionsFromIndex(core, iri);
  if (!core.graph.ready)
    throw new UnavailableError('the query index is still loading; try the sync again shortly');
  const rows = await selectByKey(
    core,
    'version',
    ({ after, order }) =>
      `SELECT DISTINCT ?version WHERE { GRAPH <${GRAPHS.local}> { ?r <${DCT('isVersionOf')}> <${iri}> ; a <${REG('Release')}> ;
       <${SCHEMA('softwareVersion')}> ?version } ${after} } ${order}`,
  );
  return new Set(rows.flatMap((row) => (row.version === undefined ? [] : [row.version.value])));
}
