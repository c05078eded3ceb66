import { requireUnclaimedClient } from '../access/client-claims.js';
import { refuseEditOf, withBoundSoftware } from '../access/deployment-edits.js';
import type { Principal } from '../access/principal.js';
import {
  actsAs,
  isCurator,
  requireCurator,
  requireCuratorOrRecordKeeper,
  requireCuratorOrScope,
} from '../access/policy.js';
import { RegError } from '../errors.js';
import { GRAPHS, REG, SH } from '../ns.js';
import { expandId, idOf, mintIri } from '../records/ids.js';
import { isObject } from '../records/json.js';
import { isAbsoluteIri, type JsonObject } from '../records/mapper.js';
import { INSTANCE, RELEASE, SOFTWARE } from '../records/specs.js';
import type { ValidationResult } from '../validate/index.js';
import type { Quad } from '../store/nquads.js';
import type { Core } from '../core.js';
import { listArtifacts, type ArtifactListParams } from '../provenance/artifact-list.js';
import { memoised } from '../stored/memoised.js';
import type { Act } from '../stored/write-path.js';
import { activitiesOf, activityOf } from './instance-activity.js';
import {
  createRecord,
  declareCapability,
  iriOf,
  originOf,
  patchRecord,
  readStored,
  requireObject,
  requireReadable,
  requireStored,
  type StoredRecord,
  tombstoneRecord,
  prefetchReferences,
} from '../stored/records.js';
import { readRelated, softwareName } from './releases.js';
import { listRuns, type RunListParams } from '../provenance/runs.js';
import { withEmptyLists } from './software.js';
import { softwareCounts, softwareCountsOf } from './software-counts.js';
import { presentCapability } from '../discovery/terms.js';
import { liveTokenCount } from '../access/tokens.js';

/** Expands bare ids in `software` and `release`; a value that is neither an id nor an IRI is left for validation to name. */
function expandReferences(core: Core, input: JsonObject): JsonObject {
  const out = { ...input };
  for (const [field, path] of [
    ['software', SOFTWARE.path],
    ['release', RELEASE.path],
  ] as const) {
    const value = out[field];
    if (typeof value !== 'string') continue;
    try {
      out[field] = expandId(core.config.baseIri, path, value, field);
    } catch {
      // Kept verbatim: the mapper refuses it as "must be an absolute IRI", naming the field.
    }
  }
  return out;
}

/** The 422 of an endpoint on a software that cannot be hosted; it has its own problem type. */
function notDeployable(software: string): RegError {
  const message = `endpoint_url: <${software}> is not deployable (deployable: false), so a deployment of it cannot carry an endpoint; leave endpoint_url out`;
  return new RegError('not-deployable', message, {
    errors: [{ field: 'endpoint_url', message }],
    extra: { field: 'endpoint_url' },
  });
}

type Refuse = (field: 'software' | 'release', value: string, message: string, component?: string) => void;

/** The named software must be held, and not withdrawn unless the record already named it. */
async function checkSoftware(
  core: Core,
  ref: unknown,
  before: unknown,
  refuse: Refuse,
): Promise<StoredRecord | undefined> {
  if (typeof ref !== 'string' || !isAbsoluteIri(ref)) return undefined;
  const software = await readStored(core, SOFTWARE, ref);
  if (software === undefined)
    refuse('software', ref, `software: <${ref}> is not a software this registry holds; register it first.`);
  else if (software.tombstoned && ref !== before)
    refuse('software', ref, `software: <${ref}> is withdrawn, so no deployment of it can be added.`);
  return software;
}

/** The named release must be held, be a release of the deployment's software, and not be newly withdrawn. */
async function checkRelease(
  core: Core,
  ref: unknown,
  software: unknown,
  before: unknown,
  refuse: Refuse,
): Promise<void> {
  if (typeof ref !== 'string' || !isAbsoluteIri(ref)) return;
  const release = await readStored(core, RELEASE, ref);
  const owner = release?.json.software;
  if (release === undefined)
    refuse('release', ref, `release: <${ref}> is not a release this registry holds.`);
  else if (typeof software === 'string' && owner !== software)
    refuse(
      'release',
      ref,
      `release: <${ref}> is a release of <${typeof owner === 'string' ? owner : 'another software'}>, not of <${software}>.`,
      SH('SPARQLConstraintComponent'),
    );
  else if (release.tombstoned && ref !== before)
    refuse('release', ref, `release: <${ref}> is withdrawn, so a deployment cannot be set to run it.`);
}

/**
 * Code rules of a deployment, reported with the shape results: its software and release references hold, a
 * `deployable: false` software refuses an endpoint (thrown as its own `not-deployable` problem), and an
 * identity-provider client is claimed by one live deployment only (409). `before` is the stored record on an
 * edit, so a withdrawal after the fact does not block edits of other fields.
 */
export function instanceRules(core: Core, iri: string, before?: JsonObject) {
  return async (_quads: readonly Quad[], candidate: JsonObject): Promise<ValidationResult[]> => {
    const results: ValidationResult[] = [];
    const refuse: Refuse = (field, value, message, component = SH('ClassConstraintComponent')) => {
      const path = field === 'software' ? REG('instanceOf') : REG('runsRelease');
      results.push({
        severity: 'violation',
        field,
        message,
        focusNode: iri,
        path,
        value,
        valueType: 'iri',
        component,
      });
    };
    const software = await checkSoftware(core, candidate.software, before?.software, refuse);
    await checkRelease(core, candidate.release, candidate.software, before?.release, refuse);
    if (software?.json.deployable === false && candidate.endpoint_url !== undefined)
      throw notDeployable(software.iri);
    // Only a new claim is judged, so an edit of other fields never trips over a clash recorded before this rule.
    if (before?.oidc_client_id !== candidate.oidc_client_id || before?.oidc_issuer !== candidate.oidc_issuer)
      await requireUnclaimedClient(core, iri, candidate);
    return results;
  };
}

/** Versions a deployment is compared by: its release's, and the newest release of its software. */
async function versionsOf(core: Core, json: JsonObject, graph: string): Promise<JsonObject> {
  const out: JsonObject = {};
  if (typeof json.release === 'string') {
    const version = (await readRelated(core, RELEASE, json.release, graph))?.json.version;
    if (typeof version === 'string') out.release_version = version;
  }
  if (typeof json.software === 'string' && graph === GRAPHS.local) {
    const latest = (await softwareCounts(core, json.software)).latest_release;
    if (isObject(latest) && typeof latest.version === 'string') out.latest_version = latest.version;
  }
  // Versions may repeat across releases, so "outdated" compares versions, not release IRIs.
  if (
    out.release_version !== undefined &&
    out.latest_version !== undefined &&
    out.release_version !== out.latest_version
  )
    out.outdated = true;
  return out;
}

/**
 * Reads together what presenting these deployments needs (their software and release records, the software's counts,
 * their activity), so a list page costs the same few requests whatever its size.
 */
export async function prepareInstances(core: Core, records: readonly StoredRecord[]): Promise<void> {
  await prefetchReferences(core, records, ['software', 'release']);
  const software = records.flatMap((record) =>
    record.graph === GRAPHS.local && typeof record.json.software === 'string' ? [record.json.software] : [],
  );
  await softwareCountsOf(core, software);
  await activitiesOf(
    core,
    records.map((record) => record.iri),
  );
}

/** The deployment record as the API returns it: stored fields, names and versions, health and activity signals. */
export async function presentInstance(core: Core, stored: StoredRecord): Promise<JsonObject> {
  const { tombstoned: _t, tombstoned_at: _at, ...json } = withEmptyLists(INSTANCE, stored.json);
  const name = await softwareName(core, json.software, stored.graph);
  const capability = await presentCapability(core, json.capability, stored.iri, 'instance');
  const out: JsonObject = {
    iri: stored.iri,
    id: idOf(stored.iri),
    ...json,
    ...(name === undefined ? {} : { software_name: name }),
    ...(await versionsOf(core, json, stored.graph)),
    health: json.health ?? 'unknown',
    ...(capability === undefined ? {} : { capability }),
    ...(await activityOf(core, stored.iri)),
    origin: originOf(stored.graph, core, stored.iri),
  };
  if (stored.tombstoned) out.tombstoned = true;
  return out;
}

/** Reads one deployment by id or IRI; a withdrawn one still resolves, marked `tombstoned`. */
export async function getInstance(core: Core, id: string): Promise<JsonObject> {
  const iri = iriOf(core, 'instance', id);
  return memoised(core, `instance ${iri}`, async () =>
    presentInstance(core, await requireReadable(core, INSTANCE, iri)),
  );
}

/**
 * Reads one deployment for a caller: curators and the deployment itself also see how many live API tokens it
 * has (`token_count`), which is nobody else's business.
 */
export async function getInstanceFor(core: Core, principal: Principal, id: string): Promise<JsonObject> {
  const record = await getInstance(core, id);
  const iri = typeof record.iri === 'string' ? record.iri : iriOf(core, 'instance', id);
  if (!isCurator(principal) && !actsAs(principal, iri)) return record;
  return { ...record, token_count: liveTokenCount(core, iri) };
}

/** Serialises writes that claim one identity-provider client, so two cannot both pass the one-deployment rule. */
function underClientClaim<T>(core: Core, clientId: unknown, write: () => Promise<T>): Promise<T> {
  return typeof clientId === 'string' ? core.locks.run(`oidc-client\n${clientId}`, write) : write();
}

/** Registers a deployment (curator role or `register:instance`); registry-kept fields in the body are ignored. */
export async function createInstance(core: Core, act: Act, body: unknown): Promise<JsonObject> {
  requireCuratorOrScope(act.principal, 'register:instance');
  const input = withBoundSoftware(act.principal, expandReferences(core, requireObject(body)));
  const iri = mintIri(core.config.baseIri, INSTANCE.path);
  await underClientClaim(core, input.oidc_client_id, () =>
    createRecord(
      core,
      INSTANCE,
      iri,
      input,
      {},
      {
        act,
        action: 'instance.create',
        codeRules: instanceRules(core, iri),
      },
    ),
  );
  return getInstanceFor(core, act.principal, iri);
}

/** Edits a deployment with a JSON merge patch (curator); the merged record is validated again in full. */
export async function updateInstance(core: Core, act: Act, id: string, body: unknown): Promise<JsonObject> {
  const iri = iriOf(core, 'instance', id);
  requireCuratorOrRecordKeeper(act.principal, iri);
  const patch = expandReferences(core, requireObject(body));
  const stored = await requireStored(core, INSTANCE, iri);
  refuseEditOf(act.principal, stored.iri, stored.json, patch);
  const client = 'oidc_client_id' in patch ? patch.oidc_client_id : stored.json.oidc_client_id;
  await underClientClaim(core, client, () =>
    patchRecord(
      core,
      INSTANCE,
      stored,
      patch,
      {},
      {
        act,
        action: 'instance.update',
        codeRules: instanceRules(core, stored.iri, stored.json),
      },
    ),
  );
  return getInstanceFor(core, act.principal, stored.iri);
}

/** Withdraws a deployment (curator). */
export async function withdrawInstance(core: Core, act: Act, id: string): Promise<void> {
  requireCurator(act.principal);
  const stored = await requireStored(core, INSTANCE, iriOf(core, 'instance', id));
  await tombstoneRecord(core, INSTANCE, stored, act);
}

/** Replaces the declared capability of a deployment (curator); the IRIs are held to the vocabulary rule. */
export async function declareInstanceCapability(
  core: Core,
  act: Act,
  id: string,
  body: unknown,
): Promise<JsonObject> {
  const iri = iriOf(core, 'instance', id);
  requireCuratorOrRecordKeeper(act.principal, iri);
  const stored = await requireStored(core, INSTANCE, iri);
  refuseEditOf(act.principal, stored.iri, stored.json, {});
  const capability = await declareCapability(core, INSTANCE, stored, body, {
    act,
    action: 'capability.declare',
    codeRules: instanceRules(core, stored.iri, stored.json),
  });
  return (await presentCapability(core, capability, stored.iri, 'instance')) ?? {};
}

/** The runs a deployment performed, newest first (paging and the run list's other filters apply). */
export async function listInstanceRuns(
  core: Core,
  id: string,
  params: Omit<RunListParams, 'instance'> = {},
): Promise<JsonObject> {
  const iri = (await requireStored(core, INSTANCE, iriOf(core, 'instance', id))).iri;
  return listRuns(core, { ...params, instance: iri });
}

/**
 * The artifacts a deployment's runs produced or consumed (and those it registered itself), newest first (paging
 * and the artifact list's other filters apply).
 */
export async function listInstanceArtifacts(
  core: Core,
  id: string,
  params: Omit<ArtifactListParams, 'instance'> = {},
): Promise<JsonObject> {
  const iri = (await requireStored(core, INSTANCE, iriOf(core, 'instance', id))).iri;
  return listArtifacts(core, { ...params, instance: iri });
}
