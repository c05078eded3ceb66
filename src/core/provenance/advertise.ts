import { createHash } from 'node:crypto';
import { readActingDeployment, requireActingDeployment } from '../access/acting-deployment.js';
import { isCurator, requireAuthenticated, requireDeploymentScope } from '../access/policy.js';
import { workloadAuditNote, workloadRunFields } from '../access/workload-source.js';
import { BadRequestError, ValidationError } from '../errors.js';
import { DCT, GRAPHS, SCHEMA } from '../ns.js';
import { ARTIFACT, ARTIFACT_SERIES, RUN } from '../records/activity-specs.js';
import { mintIri } from '../records/ids.js';
import { isObject } from '../records/json.js';
import { isAbsoluteIri, recordToQuads, type Json, type JsonObject } from '../records/mapper.js';
import { appendAudit } from '../store/audit.js';
import { quadToLine } from '../store/nquads.js';
import {
  claim,
  findArtifactByKey,
  findRunByKey,
  insertArtifactKey,
  insertRunKey,
  isClaimed,
  queueForResolution,
} from '../store/advertising.js';
import type { Core } from '../core.js';
import type { Act } from '../stored/write-path.js';
import { pacer } from '../pacer.js';
import {
  artifactCreateRequest,
  buildArtifactCandidate,
  seriesRequest,
  withVersionOf,
  type ArtifactCandidate,
} from './artifact-input.js';
import { getArtifact } from './artifact-view.js';
import { recordTurtle } from '../discovery/representations.js';
import { agentOfCredential } from './attribution.js';
import { readStored, requireObject } from '../stored/records.js';
import { prepareDeliveries, queueDeliveries } from '../subscriptions/subscription-queue.js';
import { coreMetrics } from '../ops/metrics.js';
import {
  checkRecords,
  commitRecords,
  refuseViolations,
  type CheckedRecord,
  type CheckOutcome,
  type RecordWriteRequest,
} from '../stored/write-path.js';

/** Whether a deployment produced or consumed the artifacts it advertises. */
export type AdvertiseRole = 'produced' | 'consumed';

/** The answer to an advertisement. */
export interface AdvertiseResult {
  readonly run: string;
  readonly artifacts: string[];
  readonly created: boolean;
  readonly queued_for_resolution?: string[];
  /** Under `dryRun`: what the call would write; nothing was. */
  readonly dry_run?: DryRunReport;
}

/** What an advertisement checked but did not write: each record as JSON, and all of them as Turtle. */
export interface DryRunReport {
  readonly records: { readonly kind: string; readonly iri: string; readonly record: JsonObject }[];
  readonly turtle: string;
}

/** Registry-side extras of an advertisement (the OpenLineage adapter keeps the whole event on the run). */
export interface AdvertiseOptions {
  readonly openLineagePayload?: Json;
  /** The audit action of the act (default `advertise.<role>`), e.g. `openlineage.ingest` for the adapter. */
  readonly auditAction?: string;
  /**
   * The run sent is its whole state (the OpenLineage adapter derives it from every event of the run), so it
   * replaces the stored start time too instead of keeping the first one.
   */
  readonly wholeRun?: boolean;
  /**
   * Artifacts found by their key take the fields sent for them (a later event of a run adds the statistics of
   * an output it reported earlier); registry fields are kept.
   */
  readonly refreshKnown?: boolean;
  /** What the artifact series an advertisement creates say of themselves (a dataset's identity), by IRI. */
  readonly seriesDetails?: ReadonlyMap<string, JsonObject>;
  /** The IRI a run new to the registry is given (default: a freshly minted one). */
  readonly runIri?: string;
  /**
   * Operational work committed with the advertisement (even when no record changes), given the run's IRI, e.g.
   * keeping the event the advertisement was made from.
   */
  readonly inCommit?: (run: string) => void;
  /** Validates and maps the whole advertisement, authorisation included, then returns before writing anything. */
  readonly dryRun?: boolean;
}

const ACTION_STATUS: Readonly<Record<string, string>> = {
  running: SCHEMA('ActiveActionStatus'),
  success: SCHEMA('CompletedActionStatus'),
  failed: SCHEMA('FailedActionStatus'),
  aborted: SCHEMA('FailedActionStatus'),
};
/** The members of a run a caller sets: every field of the run record but those only the registry writes. */
const RUN_FIELDS: readonly string[] = RUN.fields
  .filter((field) => field.registry !== true)
  .map((field) => field.json);

/**
 * `POST /api/v1/advertise/produced|consumed`. The deployment comes from the credential; the run is found by
 * `external_key` scoped to that deployment (or minted); artifacts are found by their own key or one derived from
 * the run's; `(run, artifact, role)` is claimed once. The whole payload is validated before anything is written.
 */
export async function advertise(
  core: Core,
  act: Act,
  role: AdvertiseRole,
  body: unknown,
  options: AdvertiseOptions = {},
): Promise<AdvertiseResult> {
  const { principal } = act;
  requireAuthenticated(principal);
  requireDeploymentScope(principal, role === 'produced' ? 'advertise:produce' : 'advertise:consume');
  const instance = await requireActingDeployment(core, principal);
  const input = requireObject(body);
  const run = input.run ?? {};
  if (!isObject(run)) throw new BadRequestError('run must be an object');
  // One artifact sent where a list is expected is a list of one.
  const artifacts = isObject(input.artifacts) ? [input.artifacts] : (input.artifacts ?? []);
  if (!Array.isArray(artifacts) || !artifacts.every(isObject))
    throw new BadRequestError('artifacts must be a list of objects');
  // `instance` is what older clients send to name the deployment: the credential decides, so it is ignored.
  core.warnings.note(
    Object.keys(input)
      .filter((key) => !['run', 'artifacts', 'instance'].includes(key))
      .map((key) => `${key} is not a member of an advertisement and was ignored; send run and artifacts`),
  );
  const done = await advertiseLockedOnce(core, act, instance, run, [{ role, artifacts }], options);
  return {
    run: done.run,
    artifacts: done.parts[0]?.artifacts ?? [],
    created: done.created,
    ...(done.queued_for_resolution === undefined
      ? {}
      : { queued_for_resolution: done.queued_for_resolution }),
    ...(done.dry_run === undefined ? {} : { dry_run: done.dry_run }),
  };
}

/** What one run did with one list of artifacts: produced them or consumed them. */
export interface AdvertisedPart {
  readonly role: AdvertiseRole;
  readonly artifacts: readonly JsonObject[];
}

/** The answer to an advertisement of several parts: the artifacts of each part, in the order sent. */
export interface RunAdvertisementResult {
  readonly run: string;
  readonly parts: { readonly role: AdvertiseRole; readonly artifacts: string[] }[];
  readonly created: boolean;
  readonly queued_for_resolution?: string[];
  readonly dry_run?: DryRunReport;
}

/**
 * One run's advertisement of what it consumed and what it produced together, in one commit: the OpenLineage
 * adapter's path for an event with inputs and outputs. The run and artifacts are given as the caller already
 * checked them (no warnings about unknown members); the scopes of every role are required. Artifact positions in
 * a refusal count across the parts (`artifacts[i]` of the second part follows those of the first).
 */
export async function advertiseRun(
  core: Core,
  act: Act,
  run: JsonObject,
  parts: readonly AdvertisedPart[],
  options: AdvertiseOptions = {},
): Promise<RunAdvertisementResult> {
  const { principal } = act;
  requireAuthenticated(principal);
  for (const { role } of parts)
    requireDeploymentScope(principal, role === 'produced' ? 'advertise:produce' : 'advertise:consume');
  const instance = await requireActingDeployment(core, principal);
  return advertiseLockedOnce(core, act, instance, run, parts, options);
}

/**
 * Calls for the same run of the same deployment are serialised; others proceed together (and their commits
 * share a transaction). Two runs claiming the same artifact key at once: the loser retries and finds it.
 */
async function advertiseLockedOnce(
  core: Core,
  act: Act,
  instance: string,
  run: JsonObject,
  parts: readonly AdvertisedPart[],
  options: AdvertiseOptions,
): Promise<RunAdvertisementResult> {
  const runKey =
    typeof run.external_key === 'string' && run.external_key !== '' ? run.external_key : undefined;
  const attempt = () => advertiseLocked(core, act, { instance, parts, run, options });
  const once = () => (runKey === undefined ? attempt() : core.locks.run(`${instance}\n${runKey}`, attempt));
  try {
    return await once();
  } catch (error) {
    if ((error as { code?: unknown }).code !== 'SQLITE_CONSTRAINT_PRIMARYKEY') throw error;
    return once();
  }
}

/**
 * One advertisement as it is carried out: who acts (the principal, the request id, the instant the act is stamped
 * with), for which deployment, and on which run.
 */
interface Advertisement {
  readonly act: Act;
  readonly instance: string;
  readonly runIri: string;
  readonly runKey: string | undefined;
  /** The run's IRI when this deployment advertised it before under the same key. */
  readonly existingRun: string | undefined;
  readonly options: AdvertiseOptions;
}

/** What the parts of an advertisement need written, gathered across them. */
interface Planned {
  /** The records to create, checked together with the run. */
  readonly writes: { request: RecordWriteRequest; prefix: string }[];
  readonly newKeys: [key: string, artifact: string][];
  readonly foreign: string[];
}

async function advertiseLocked(
  core: Core,
  act: Act,
  sent: {
    readonly instance: string;
    readonly parts: readonly AdvertisedPart[];
    readonly run: JsonObject;
    readonly options: AdvertiseOptions;
  },
): Promise<RunAdvertisementResult> {
  const { instance, run, options } = sent;
  const { principal, now } = act;
  const runKey =
    typeof run.external_key === 'string' && run.external_key !== '' ? run.external_key : undefined;
  const existingRun = runKey === undefined ? undefined : findRunByKey(core.db, instance, runKey);
  const runIri = existingRun ?? options.runIri ?? mintIri(core.config.baseIri, RUN.path);
  const ad: Advertisement = { act, instance, runIri, runKey, existingRun, options };
  const planned: Planned = { writes: [], newKeys: [], foreign: [] };
  const parts: { role: AdvertiseRole; artifacts: string[] }[] = [];
  let offset = 0;
  for (const part of sent.parts) {
    parts.push({ role: part.role, artifacts: await planArtifacts(core, ad, part, offset, planned) });
    offset += part.artifacts.length;
  }
  const used = parts.filter((part) => part.role === 'consumed').flatMap((part) => part.artifacts);
  // The deployment's release goes on a new run and its software decides which subscriptions match: read once.
  const deployment = (await readActingDeployment(core, principal, instance))?.json;
  const runRequest = await runWrite(core, ad, run, parts[0]?.role ?? 'produced', used, deployment);
  const [runChecked, ...artifactsChecked] = await coreMetrics(core).timeValidation('advertise', () =>
    checkRecords(core, [{ request: runRequest.request }, ...planned.writes]),
  );
  if (runChecked === undefined) throw new Error('the run was not checked');
  refuseViolations([runChecked, ...artifactsChecked].flatMap((outcome) => outcome.results));
  const fresh = parts.some(({ role, artifacts }) =>
    artifacts.some((artifact) => !isClaimed(core.db, runIri, artifact, role)),
  );
  const created = existingRun === undefined || fresh;
  const queued = [...new Set(planned.foreign)];
  const result: RunAdvertisementResult = {
    run: runIri,
    parts,
    created,
    ...(queued.length > 0 ? { queued_for_resolution: queued } : {}),
  };
  if (options.dryRun === true) {
    const checked = [
      ...(runRequest.changed ? [{ request: runRequest.request, quads: runChecked.quads }] : []),
      ...planned.writes.map(({ request }, at) => ({
        request,
        quads: (artifactsChecked[at] as CheckOutcome).quads,
      })),
    ];
    return { ...result, dry_run: dryRunReport(checked) };
  }
  if (!created && !runRequest.changed && planned.writes.length === 0 && options.inCommit === undefined)
    return result;
  const writes: CheckedRecord[] = [
    ...(runRequest.changed ? [{ request: runRequest.request, quads: runChecked.quads }] : []),
    ...planned.writes.map(({ request }, at) => ({
      request,
      quads: (artifactsChecked[at] as CheckOutcome).quads,
    })),
  ];
  const candidates = new Map(
    planned.writes
      .filter(({ request }) => request.spec === ARTIFACT)
      .map(({ request }) => [request.iri, request.candidate]),
  );
  const deliveries = await Promise.all(
    parts.map(({ role, artifacts }) =>
      prepareDeliveries(core, {
        role,
        run: runIri,
        instance,
        software: typeof deployment?.software === 'string' ? deployment.software : null,
        artifacts,
        candidates,
      }),
    ),
  );
  await commitRecords(
    core,
    writes,
    () => {
      if (existingRun === undefined && runKey !== undefined)
        insertRunKey(core.db, instance, runKey, runIri, now);
      for (const [key, artifact] of planned.newKeys) insertArtifactKey(core.db, instance, key, artifact, now);
      parts.forEach(({ role, artifacts }, at) => {
        // Only artifacts claimed by this commit notify subscribers: a retry that claims nothing queues nothing.
        const claimed = artifacts.filter((artifact) => claim(core.db, runIri, artifact, role, now));
        const advertised = deliveries[at];
        if (advertised !== undefined) queueDeliveries(core, advertised, claimed, now);
      });
      for (const iri of queued) queueForResolution(core.db, iri, now);
      options.inCommit?.(runIri);
      for (const { role, artifacts } of parts)
        appendAudit(core.db, {
          actor: principal.subject,
          actorKind: principal.actorKind,
          action: options.auditAction ?? `advertise.${role}`,
          target: runIri,
          detail: `${role}: ${artifacts.length} artifact(s)${workloadAuditNote(principal)}`,
          requestId: act.requestId ?? null,
        });
    },
    false,
  );
  return result;
}

/** The records a dry run would have written, as JSON and as Turtle. */
function dryRunReport(checked: readonly CheckedRecord[]): DryRunReport {
  return {
    records: checked.map(({ request }) => ({
      kind: request.spec.kind,
      iri: request.iri,
      record: request.candidate,
    })),
    turtle: recordTurtle(checked.flatMap(({ quads }) => quads)),
  };
}

/** The run record after this advertisement: created with defaults, or the stored one with its outcome replaced. */
async function runWrite(
  core: Core,
  ad: Advertisement,
  run: JsonObject,
  role: AdvertiseRole,
  used: readonly string[],
  deployment: JsonObject | undefined,
): Promise<{ request: RecordWriteRequest; changed: boolean }> {
  const { instance, runIri, options } = ad;
  const { now } = ad.act;
  const stored = ad.existingRun === undefined ? undefined : await readStored(core, RUN, ad.existingRun);
  const sent: JsonObject = {};
  for (const field of RUN_FIELDS)
    if (run[field] !== undefined && run[field] !== null) sent[field] = run[field];
  core.warnings.note(
    Object.keys(run)
      .filter((key) => !RUN_FIELDS.includes(key))
      .map((key) => `run.${key} is not a field of a run and was ignored`),
  );
  let candidate: JsonObject;
  if (stored === undefined) {
    candidate = {
      status: 'success',
      started_at: now,
      ...sent,
      instance,
      ...workloadRunFields(ad.act.principal),
      ...(typeof deployment?.release === 'string' ? { release: deployment.release } : {}),
      created: now,
    };
  } else {
    // A later advertisement replaces the outcome (status, end time, label); the start and the key stay, unless
    // the run sent is the run's whole state.
    const { started_at: startedAt, external_key: _k, ...outcome } = sent;
    candidate = {
      ...stored.json,
      ...outcome,
      ...(options.wholeRun === true && startedAt !== undefined ? { started_at: startedAt } : {}),
    };
  }
  if (used.length > 0) {
    const before = Array.isArray(candidate.used) ? candidate.used : [];
    candidate.used = [...new Set([...before, ...used])];
  }
  if (options.openLineagePayload !== undefined) candidate.openlineage_payload = options.openLineagePayload;
  const actionStatus = typeof candidate.status === 'string' ? ACTION_STATUS[candidate.status] : undefined;
  if (actionStatus !== undefined) candidate.action_status = actionStatus;
  const changed = stored === undefined || !sameRun(runIri, stored.json, candidate);
  if (changed) candidate.modified = now;
  return {
    request: {
      spec: RUN,
      iri: runIri,
      candidate,
      action: `advertise.${role}`,
      act: ad.act,
    },
    changed,
  };
}

/**
 * Whether two versions of a run say the same, compared as the quads they map to (a timestamp sent as `…:00Z`
 * reads back as `…:00.000Z`, and lists read back sorted), apart from when it was last modified.
 */
function sameRun(iri: string, stored: JsonObject, candidate: JsonObject): boolean {
  const lines = (json: JsonObject): string[] =>
    recordToQuads(RUN, iri, json, GRAPHS.local, true)
      .quads.filter((quad) => quad.predicate.value !== DCT('modified'))
      .map(quadToLine)
      .sort();
  const [before, after] = [lines(stored), lines(candidate)];
  return before.length === after.length && before.every((line, at) => line === after[at]);
}

/**
 * Finds or mints each artifact of one part of the payload, gathering the records to write into `planned`, and
 * returns their IRIs in the order sent; nothing is written here. `offset` is the position of the part's first
 * artifact among all those of the advertisement, so refusals name it as sent.
 */
async function planArtifacts(
  core: Core,
  ad: Advertisement,
  part: AdvertisedPart,
  offset: number,
  planned: Planned,
): Promise<string[]> {
  const { instance, runIri, runKey } = ad;
  const { role } = part;
  const { now } = ad.act;
  const iris: string[] = [];
  const pause = pacer();
  for (const [index, sent] of part.artifacts.entries()) {
    await pause();
    const prefix = `artifacts[${offset + index}].`;
    let artifact = sent;
    if (typeof artifact.iri === 'string' && Object.keys(artifact).length === 1) {
      iris.push(await referenced(core, artifact.iri, prefix, planned));
      continue;
    }
    artifact = await withVersionOf(core, artifact, prefix);
    const key = artifactKey(artifact, runKey);
    const existing = key === undefined ? undefined : findArtifactByKey(core.db, instance, key);
    if (existing !== undefined) {
      iris.push(existing);
      if (ad.options.refreshKnown === true) {
        const refreshed = await refreshedArtifact(core, ad, existing, artifact, prefix);
        if (refreshed !== undefined) planned.writes.push({ request: refreshed, prefix });
      }
      continue;
    }
    const iri = mintIri(core.config.baseIri, ARTIFACT.path);
    const built: ArtifactCandidate = buildArtifactCandidate(
      core,
      { ...artifact, ...(key === undefined ? {} : { external_key: key }) },
      iri,
      {
        attributedTo: instance,
        ...(role === 'produced' ? { generatedBy: runIri } : {}),
        now,
        prefix,
      },
    );
    planned.writes.push({ request: artifactCreateRequest(iri, built, ad.act), prefix });
    for (const series of await seriesToCreate(core, built, planned))
      planned.writes.push({
        request: seriesRequest(ad.act, series, ad.options.seriesDetails?.get(series)),
        prefix,
      });
    if (key !== undefined) planned.newKeys.push([key, iri]);
    iris.push(iri);
    planned.foreign.push(...built.foreign);
  }
  return iris;
}

/**
 * The artifact series a new artifact needs written: the one minted for it, and any series of this registry it
 * names as a version of that does not exist yet (a client naming its own series, or a dataset whose series IRI
 * is derived from its identity), each once per advertisement.
 */
async function seriesToCreate(core: Core, built: ArtifactCandidate, planned: Planned): Promise<string[]> {
  if (built.series !== undefined) return [built.series];
  const prefix = `${core.config.baseIri}/${ARTIFACT_SERIES.path}/`;
  const named = Array.isArray(built.candidate.is_version_of) ? built.candidate.is_version_of : [];
  const missing: string[] = [];
  for (const series of named) {
    if (typeof series !== 'string' || !series.startsWith(prefix)) continue;
    if (planned.writes.some(({ request }) => request.iri === series)) continue;
    if ((await readStored(core, ARTIFACT_SERIES, series)) === undefined) missing.push(series);
  }
  return missing;
}

/**
 * An artifact found by its key with the fields now sent for it (registry fields kept), or undefined when that
 * changes nothing.
 */
async function refreshedArtifact(
  core: Core,
  ad: Advertisement,
  iri: string,
  sent: JsonObject,
  prefix: string,
): Promise<RecordWriteRequest | undefined> {
  const stored = await readStored(core, ARTIFACT, iri);
  if (stored === undefined) return undefined;
  const built = buildArtifactCandidate(core, sent, iri, {
    attributedTo: ad.instance,
    now: ad.act.now,
    prefix,
  });
  const registryFields = new Set(
    ARTIFACT.fields.filter((field) => field.registry === true).map((f) => f.json),
  );
  const changes = Object.entries(built.candidate).filter(
    ([field, value]) =>
      !registryFields.has(field) &&
      !['issued', 'is_version_of', 'external_key', 'created', 'modified'].includes(field) &&
      JSON.stringify(stored.json[field]) !== JSON.stringify(value),
  );
  if (changes.length === 0) return undefined;
  return {
    spec: ARTIFACT,
    iri,
    candidate: { ...stored.json, ...Object.fromEntries(changes), modified: ad.act.now },
    extraQuads: built.extraQuads,
    action: 'artifact.update',
    act: ad.act,
  };
}

/** An artifact named only by IRI: a local one must exist; a foreign one is queued for resolution. */
async function referenced(core: Core, iri: string, prefix: string, planned: Planned): Promise<string> {
  if (!isAbsoluteIri(iri)) {
    throw new ValidationError(`${prefix}iri must be an absolute IRI`, {
      errors: [{ field: `${prefix}iri`, message: `${prefix}iri must be an absolute IRI` }],
    });
  }
  if (!iri.startsWith(`${core.config.baseIri}/`)) {
    planned.foreign.push(iri);
    return iri;
  }
  if ((await readStored(core, ARTIFACT, iri)) === undefined) {
    const message = `${prefix}iri: <${iri}> is not an artifact this registry holds`;
    throw new ValidationError(message, { errors: [{ field: `${prefix}iri`, message }] });
  }
  return iri;
}

/** The artifact's own key, or one derived from the run's key, its title, type and URLs; none without a run key. */
function artifactKey(artifact: JsonObject, runKey: string | undefined): string | undefined {
  if (typeof artifact.external_key === 'string' && artifact.external_key !== '') return artifact.external_key;
  if (runKey === undefined) return undefined;
  const urls = (Array.isArray(artifact.distributions) ? artifact.distributions : [])
    .filter(isObject)
    .map((item) =>
      [item.download_url, item.access_url].map((url) => (typeof url === 'string' ? url : '')).join(' '),
    );
  const material = JSON.stringify([runKey, artifact.title ?? null, artifact.conforms_to ?? null, urls]);
  return `derived:${createHash('sha256').update(material).digest('hex').slice(0, 32)}`;
}

/**
 * `POST /api/v1/artifacts`: registers one artifact with no run (curator, or a deployment with
 * `advertise:produce`); attributed to the caller. Returns the artifact as a later GET shows it.
 */
export async function registerArtifact(core: Core, act: Act, body: unknown): Promise<JsonObject> {
  const { principal, now } = act;
  requireAuthenticated(principal);
  if (!isCurator(principal)) requireDeploymentScope(principal, 'advertise:produce');
  const input = await withVersionOf(core, requireObject(body), '');
  const iri = mintIri(core.config.baseIri, ARTIFACT.path);
  const attribution = agentOfCredential(core.config.baseIri, principal);
  const built = buildArtifactCandidate(core, input, iri, {
    attributedTo: attribution.agent,
    now,
    prefix: '',
  });
  const request = artifactCreateRequest(
    iri,
    { ...built, extraQuads: [...built.extraQuads, ...attribution.quads] },
    act,
  );
  const requests = [request, ...(built.series === undefined ? [] : [seriesRequest(act, built.series)])];
  const checked = await checkRecords(
    core,
    requests.map((item) => ({ request: item })),
  );
  refuseViolations(checked.flatMap((outcome) => outcome.results));
  const writes: CheckedRecord[] = requests.map((item, at) => ({
    request: item,
    quads: (checked[at] as CheckOutcome).quads,
  }));
  const deliveries = await prepareDeliveries(core, {
    role: 'produced',
    run: null,
    instance: principal.instance,
    artifacts: [iri],
    candidates: new Map([[iri, built.candidate]]),
  });
  await commitRecords(core, writes, () => {
    for (const foreign of built.foreign) queueForResolution(core.db, foreign, now);
    queueDeliveries(core, deliveries, [iri], now);
  });
  return getArtifact(core, iri);
}
