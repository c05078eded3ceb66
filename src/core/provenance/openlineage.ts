import { requireActingDeployment } from '../access/acting-deployment.js';
import { requireDeploymentScope } from '../access/policy.js';
import { RegError, UnauthorizedError } from '../errors.js';
import { DCAT } from '../ns.js';
import { ARTIFACT, RUN } from '../records/activity-specs.js';
import { mintIri } from '../records/ids.js';
import type { JsonObject } from '../records/mapper.js';
import { findArtifactByKey, findRunByKey } from '../store/advertising.js';
import type { Core } from '../core.js';
import { advertise, type AdvertiseResult, type AdvertiseRole } from './advertise.js';
import { artifactCreateRequest, buildArtifactCandidate } from './artifact-input.js';
import {
  mapRunEvent,
  type MappedDataset,
  type MappedEvent,
  type OpenLineageStatus,
} from './openlineage-map.js';
import { readStored } from '../stored/records.js';
import { checkRecords, refuseViolations, type Act, type RecordWriteRequest } from '../stored/write-path.js';

/** The answer to an OpenLineage event: the run, the artifacts it produced and consumed, and its new status. */
export interface OpenLineageResult {
  readonly run: string;
  readonly produced: string[];
  readonly consumed: string[];
  readonly mapped_status: OpenLineageStatus;
}

/** One dataset as it is advertised: a new or keyed artifact, or a reference to one the registry knows. */
interface Item {
  readonly artifact: JsonObject;
  readonly dataset: MappedDataset;
}

/**
 * `POST /api/v1/openlineage`: maps one RunEvent onto advertisements by the calling deployment (its inputs
 * consumed, its outputs produced, one run found by `runId`) and keeps the whole event on the run. Needs
 * `advertise:produce`, and `advertise:consume` when the event has inputs. Either everything is written or,
 * on a refusal, nothing.
 */
export async function ingestOpenLineage(core: Core, act: Act, body: unknown): Promise<OpenLineageResult> {
  const { principal } = act;
  if (!principal.authenticated) throw new UnauthorizedError();
  requireDeploymentScope(principal, 'advertise:produce');
  const instance = await requireActingDeployment(core, principal);
  const event = mapRunEvent(body, act.now);
  if (event.inputs.length > 0) requireDeploymentScope(principal, 'advertise:consume');
  // Held across both advertisements, so two events of one run never interleave between them.
  return core.locks.run(`openlineage\n${instance}\n${event.runId}`, () =>
    ingestLocked(core, act, instance, event),
  );
}

async function ingestLocked(
  core: Core,
  act: Act,
  instance: string,
  event: MappedEvent,
): Promise<OpenLineageResult> {
  const inputs = await itemsOf(core, event.inputs);
  const outputs = await itemsOf(core, event.outputs);
  const { run, payload } = await runOutcome(core, instance, event);
  const send = (role: AdvertiseRole, items: readonly Item[]): Promise<AdvertiseResult> =>
    inEventTerms(items, () =>
      advertise(
        core,
        act,
        role,
        { run, artifacts: items.map((item) => item.artifact) },
        {
          ...(payload === undefined ? {} : { openLineagePayload: payload }),
          auditAction: 'openlineage.ingest',
        },
      ),
    );
  const both = inputs.length > 0 && outputs.length > 0;
  // The first advertisement commits before the second runs: check the second's new artifacts beforehand.
  if (both) await inEventTerms(outputs, () => precheck(core, act, instance, outputs));
  const first = await send(inputs.length > 0 ? 'consumed' : 'produced', inputs.length > 0 ? inputs : outputs);
  const second = both ? await send('produced', outputs) : undefined;
  const consumed = inputs.length > 0 ? first.artifacts : [];
  const produced = second?.artifacts ?? (inputs.length > 0 ? [] : first.artifacts);
  return { run: first.run, produced, consumed, mapped_status: event.status };
}

/**
 * The run fields and payload this event writes. Events may arrive out of order: a late START or RUNNING
 * must not reopen a run that already ended, so it then adds its datasets but leaves status and payload alone.
 */
async function runOutcome(
  core: Core,
  instance: string,
  event: MappedEvent,
): Promise<{ run: JsonObject; payload: JsonObject | undefined }> {
  const fresh = { run: event.run, payload: event.payload };
  const existing = findRunByKey(core.db, instance, event.runId);
  if (event.terminal || existing === undefined) return fresh;
  const status = (await readStored(core, RUN, existing))?.json.status;
  if (status === undefined || status === 'running') return fresh;
  const { status: _status, ...rest } = event.run;
  return { run: rest, payload: undefined };
}

/** The datasets of one side, each once: those whose symlinks name a known artifact become references to it. */
async function itemsOf(core: Core, datasets: readonly MappedDataset[]): Promise<Item[]> {
  const items: Item[] = [];
  const seen = new Set<string>();
  for (const dataset of datasets) {
    const linked = await linkedArtifact(core, dataset.links);
    const identity = linked === undefined ? `key ${dataset.key}` : `iri ${linked}`;
    if (seen.has(identity)) continue;
    seen.add(identity);
    items.push({ artifact: linked === undefined ? dataset.artifact : { iri: linked }, dataset });
  }
  return items;
}

/** The first linked IRI that is an artifact here, or one a peer's cached stub describes. */
async function linkedArtifact(core: Core, links: readonly string[]): Promise<string | undefined> {
  for (const iri of links) {
    if (iri.startsWith(`${core.config.baseIri}/`)) {
      if ((await readStored(core, ARTIFACT, iri)) !== undefined) return iri;
    } else if (await knownElsewhere(core, iri)) {
      return iri;
    }
  }
  return undefined;
}

async function knownElsewhere(core: Core, iri: string): Promise<boolean> {
  try {
    return await core.graph.ask(`ASK { GRAPH ?g { <${iri}> a <${DCAT('Dataset')}> } }`);
  } catch {
    // An index that cannot answer is not evidence: the dataset then gets an artifact of its own.
    return false;
  }
}

/** Validates the artifacts an advertisement would create, exactly as it would, without writing anything. */
async function precheck(core: Core, act: Act, instance: string, items: readonly Item[]): Promise<void> {
  const { now } = act;
  const run = mintIri(core.config.baseIri, RUN.path);
  const checks: { request: RecordWriteRequest; prefix: string }[] = [];
  for (const [index, item] of items.entries()) {
    const key = item.artifact.external_key;
    if (typeof key !== 'string' || findArtifactByKey(core.db, instance, key) !== undefined) continue;
    const prefix = `artifacts[${index}].`;
    const iri = mintIri(core.config.baseIri, ARTIFACT.path);
    const built = buildArtifactCandidate(core, item.artifact, iri, {
      attributedTo: instance,
      generatedBy: run,
      now,
      prefix,
    });
    checks.push({ request: artifactCreateRequest(iri, built, act), prefix });
  }
  refuseViolations((await checkRecords(core, checks)).flatMap((outcome) => outcome.results));
}

/** Runs `work`, renaming the `artifacts[i].field` a refusal names to the place in the event it came from. */
async function inEventTerms<T>(items: readonly Item[], work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (!(error instanceof RegError)) throw error;
    const rename = (text: string): string =>
      text.replace(/artifacts\[(\d+)\]\.([A-Za-z_]+(?:\[\d+\])?)/g, (whole, index: string, field: string) => {
        const dataset = items[Number(index)]?.dataset;
        return dataset === undefined ? whole : (dataset.sources[field] ?? `${dataset.path}.${field}`);
      });
    throw new RegError(error.code, rename(error.detail), {
      errors: error.errors.map((item) => ({ field: rename(item.field), message: rename(item.message) })),
      hints: error.hints,
      extra: error.extra,
      cause: error,
    });
  }
}
