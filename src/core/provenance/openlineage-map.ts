import { createHash } from 'node:crypto';
import { BadRequestError, type FieldError } from '../errors.js';
import { REG } from '../ns.js';
import { ACCESS_PROTOCOLS } from '../records/activity-specs.js';
import { isObject } from '../records/json.js';
import { isAbsoluteIri, type Json, type JsonObject } from '../records/mapper.js';

/** The run status an OpenLineage event type maps to. */
export type OpenLineageStatus = 'running' | 'success' | 'failed' | 'aborted';

/**
 * A dataset's identity, registry-wide: its OpenLineage namespace and name (normalised as the naming spec writes
 * them), whichever deployment reports it. Its versions share one artifact series, whose IRI is derived from the
 * identity, so the same table written by one tool and read by another is one dataset.
 */
export interface DatasetIdentity {
  readonly namespace: string;
  readonly name: string;
  /** `namespace/name`, as the naming spec writes a dataset's URI. */
  readonly label: string;
  /** The artifact series all versions of the dataset belong to. */
  readonly series: string;
}

/** One dataset of an event, as the artifact a version of it would be. */
export interface MappedDataset {
  /** Where the dataset sits in the event, e.g. `outputs[1]`. */
  readonly path: string;
  readonly identity: DatasetIdentity;
  /** The fields of a version of the dataset (no key, no series: the caller adds them). */
  readonly artifact: JsonObject;
  /** The version a `version` facet names, if any. */
  readonly version: string | undefined;
  /** IRIs its `symlinks` facet names, any of which may be an artifact the registry already holds. */
  readonly links: readonly string[];
  /** Where each artifact field came from in the event, for naming refusals in the caller's terms. */
  readonly sources: Readonly<Record<string, string>>;
}

/** The run a `parent` facet names (an Airflow DAG run for a task, a Spark application for a job). */
export interface ParentRun {
  readonly runId: string;
  readonly label: string | undefined;
}

/** A RunEvent mapped onto the registry's run and artifacts. */
export interface MappedRunEvent {
  readonly kind: 'run';
  /** As sent; absent (or OTHER) is an event that changes no state. */
  readonly eventType: string | null;
  /** `run.runId`: the run's key, scoped to the deployment. */
  readonly runId: string;
  /** The status the event sets, if it sets one. */
  readonly status: OpenLineageStatus | undefined;
  /** `eventTime` (else the time it was received). */
  readonly time: string;
  /** `namespace/name` of the job. */
  readonly label: string;
  readonly parent: ParentRun | undefined;
  readonly inputs: readonly MappedDataset[];
  readonly outputs: readonly MappedDataset[];
  /** The whole event. */
  readonly payload: JsonObject;
}

/** A DatasetEvent: what is known of one dataset, outside any run. */
export interface MappedDatasetEvent {
  readonly kind: 'dataset';
  readonly eventType: string | null;
  readonly time: string;
  readonly dataset: MappedDataset;
  readonly payload: JsonObject;
}

/** A JobEvent: a job's declared inputs and outputs, outside any run. */
export interface MappedJobEvent {
  readonly kind: 'job';
  readonly eventType: string | null;
  readonly time: string;
  readonly label: string;
  readonly inputs: readonly MappedDataset[];
  readonly outputs: readonly MappedDataset[];
  readonly payload: JsonObject;
}

/** Any OpenLineage event. */
export type MappedEvent = MappedRunEvent | MappedDatasetEvent | MappedJobEvent;

const STATUS: Readonly<Record<string, OpenLineageStatus>> = {
  START: 'running',
  RUNNING: 'running',
  COMPLETE: 'success',
  FAIL: 'failed',
  // The registry has a status of its own for a run that was stopped rather than one that broke.
  ABORT: 'aborted',
};

/** Whether an event type ends a run. */
export function endsRun(eventType: string | null): boolean {
  const status = eventType === null ? undefined : STATUS[eventType.toUpperCase()];
  return status !== undefined && status !== 'running';
}

/** The status an event type sets, if any (absent and OTHER set none). */
export function statusOf(eventType: string | null): OpenLineageStatus | undefined {
  return eventType === null ? undefined : STATUS[eventType.toUpperCase()];
}

/**
 * Checks that a body is an OpenLineage event and maps it: a RunEvent (it has `run` and `job`), a DatasetEvent
 * (`dataset`) or a JobEvent (`job` alone). A 400 names every missing member, in the event's own terms. Unknown
 * facets are never a reason to refuse: they are kept as sent.
 */
export function mapEvent(body: unknown, receivedAt: string, baseIri: string): MappedEvent {
  if (!isObject(body)) throw new BadRequestError('an OpenLineage event must be a JSON object');
  const errors: FieldError[] = [];
  const missing = (field: string, what: string) => errors.push({ field, message: `${field} ${what}` });
  const refuseIfAny = (what: string): void => {
    if (errors.length === 0) return;
    throw new BadRequestError(
      `this is not an OpenLineage ${what}: ${errors.map((error) => error.message).join('; ')}`,
      { errors },
    );
  };
  const eventType = eventTypeOf(body.eventType, missing);
  const time = eventTimeOf(body.eventTime, receivedAt, missing);
  if (body.run === undefined && body.job === undefined && isObject(body.dataset)) {
    const dataset = datasetOf(body.dataset, 'dataset', baseIri, missing);
    refuseIfAny('DatasetEvent');
    if (dataset === undefined) throw new BadRequestError('dataset is required');
    return { kind: 'dataset', eventType, time, dataset, payload: body };
  }
  const job = isObject(body.job) ? body.job : {};
  if (!isObject(body.job)) missing('job', 'is required (a RunEvent has run and job, a JobEvent job)');
  const namespace = nonEmpty(job.namespace);
  if (namespace === undefined) missing('job.namespace', 'is required');
  const name = nonEmpty(job.name);
  if (name === undefined) missing('job.name', 'is required');
  const label = `${namespace ?? ''}/${name ?? ''}`;
  if (body.run === undefined) {
    const inputs = datasetsOf(body.inputs, 'inputs', baseIri, missing);
    const outputs = datasetsOf(body.outputs, 'outputs', baseIri, missing);
    refuseIfAny('JobEvent');
    return { kind: 'job', eventType, time, label, inputs, outputs, payload: body };
  }
  const run = isObject(body.run) ? body.run : {};
  if (!isObject(body.run)) missing('run', 'must be an object with a runId');
  const runId = nonEmpty(run.runId);
  if (runId === undefined) missing('run.runId', 'is required');
  const inputs = datasetsOf(body.inputs, 'inputs', baseIri, missing);
  const outputs = datasetsOf(body.outputs, 'outputs', baseIri, missing, engineOf(run));
  refuseIfAny('RunEvent');
  return {
    kind: 'run',
    eventType,
    runId: runId ?? '',
    status: statusOf(eventType),
    time,
    // A label the registry's own export wrote (`reg_run` facet), else the job's namespace and name.
    label: nonEmpty(facet(run.facets, 'reg_run')?.label) ?? label,
    parent: parentOf(run),
    inputs,
    outputs,
    payload: body,
  };
}

/** `eventType`, optional in the spec; when sent it must be text. */
function eventTypeOf(value: Json | undefined, missing: (field: string, what: string) => void): string | null {
  if (value === undefined || value === null) return null;
  const text = nonEmpty(value);
  if (text === undefined) missing('eventType', 'must be START, RUNNING, COMPLETE, FAIL, ABORT or OTHER');
  return text ?? null;
}

/** The parent run a `parent` run facet names. */
function parentOf(run: JsonObject): ParentRun | undefined {
  const parent = facet(run.facets, 'parent');
  const runId = nonEmpty(isObject(parent?.run) ? parent.run.runId : undefined);
  if (runId === undefined) return undefined;
  const job = isObject(parent?.job) ? parent.job : {};
  const namespace = nonEmpty(job.namespace);
  const name = nonEmpty(job.name);
  return { runId, label: namespace === undefined || name === undefined ? undefined : `${namespace}/${name}` };
}

function nonEmpty(value: Json | undefined): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

/** `eventTime` as an xsd:dateTime; an event without one is dated on receipt (`receivedAt`). */
function eventTimeOf(
  value: Json | undefined,
  receivedAt: string,
  missing: (field: string, what: string) => void,
): string {
  if (value === undefined || value === null) return receivedAt;
  const time = typeof value === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(value) ? Date.parse(value) : NaN;
  if (Number.isNaN(time)) {
    missing('eventTime', 'must be an ISO 8601 timestamp such as 2026-01-31T12:00:00.000Z');
    return '';
  }
  return new Date(time).toISOString();
}

/** The engine that ran the job (`processing_engine` run facet), claimed as the producer of the outputs. */
function engineOf(run: JsonObject): JsonObject | undefined {
  const engine = facet(run.facets, 'processing_engine');
  const name = nonEmpty(engine?.name);
  if (name === undefined) return undefined;
  const version = nonEmpty(engine?.version);
  return { name, ...(version === undefined ? {} : { version }) };
}

/** A facet by name; facets marked `_deleted` count as absent. */
function facet(facets: Json | undefined, name: string): JsonObject | undefined {
  if (!isObject(facets)) return undefined;
  const value = facets[name];
  return isObject(value) && value._deleted !== true ? value : undefined;
}

function datasetsOf(
  value: Json | undefined,
  role: 'inputs' | 'outputs',
  baseIri: string,
  missing: (field: string, what: string) => void,
  engine?: JsonObject,
): MappedDataset[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) {
    missing(role, 'must be a list of datasets');
    return [];
  }
  return value.flatMap((item, index) => datasetOf(item, `${role}[${index}]`, baseIri, missing, engine) ?? []);
}

function datasetOf(
  value: Json,
  path: string,
  baseIri: string,
  missing: (field: string, what: string) => void,
  engine?: JsonObject,
): MappedDataset | undefined {
  const dataset = isObject(value) ? value : {};
  const namespace = nonEmpty(dataset.namespace);
  const name = nonEmpty(dataset.name);
  if (namespace === undefined) missing(`${path}.namespace`, 'is required');
  if (name === undefined) missing(`${path}.name`, 'is required');
  if (namespace === undefined || name === undefined) return undefined;
  return mapDataset(dataset, path, datasetIdentity(baseIri, namespace, name), engine);
}

/**
 * A dataset's identity from its namespace and name as the naming spec writes them: surrounding space dropped,
 * the scheme and host of a namespace URI in lower case, no trailing `/`. The series IRI is derived from it.
 */
export function datasetIdentity(baseIri: string, namespace: string, name: string): DatasetIdentity {
  const ns = normaliseNamespace(namespace.trim());
  const nm = name.trim();
  const digest = createHash('sha256')
    .update(JSON.stringify([ns, nm]))
    .digest('hex')
    .slice(0, 40);
  return { namespace: ns, name: nm, label: `${ns}/${nm}`, series: `${baseIri}/artifact-series/ol-${digest}` };
}

function normaliseNamespace(namespace: string): string {
  const match = /^([A-Za-z][A-Za-z0-9+.-]*):\/\/([^/?#]*)(.*)$/.exec(namespace);
  if (match === null) return namespace.replace(/\/+$/, '');
  const [, scheme = '', authority = '', rest = ''] = match;
  const at = authority.lastIndexOf('@');
  const host =
    at < 0
      ? authority.toLowerCase()
      : `${authority.slice(0, at + 1)}${authority.slice(at + 1).toLowerCase()}`;
  return `${scheme.toLowerCase()}://${host}${rest}`.replace(/\/+$/, '');
}

function mapDataset(
  dataset: JsonObject,
  path: string,
  identity: DatasetIdentity,
  engine: JsonObject | undefined,
): MappedDataset {
  const facets = dataset.facets;
  // A title the registry's own export wrote (`reg_artifact` facet), else the dataset's name.
  const artifact: JsonObject = { title: nonEmpty(facet(facets, 'reg_artifact')?.title) ?? identity.name };
  const sources: Record<string, string> = {
    title: `${path}.name`,
    external_key: `${path}.name`,
    is_version_of: `${path}.name`,
    iri: `${path}.facets.symlinks`,
  };
  const description = describe(facets);
  if (description !== undefined) {
    artifact.description = description;
    sources.description = `${path}.facets.documentation`;
  }
  if (facet(facets, 'schema') !== undefined) {
    artifact.conforms_to = REG('TabularDataset');
    sources.conforms_to = `${path}.facets.schema`;
  }
  const version = nonEmpty(facet(facets, 'version')?.datasetVersion);
  if (version !== undefined) {
    artifact.version = version;
    sources.version = `${path}.facets.version`;
  }
  const fair = facet(facets, 'fairAccess');
  const distribution = distributionOf(dataset, fair);
  if (distribution !== undefined) {
    artifact.distributions = [distribution];
    sources['distributions[0]'] = `${path}.facets.${fair === undefined ? 'dataSource' : 'fairAccess'}`;
  }
  const statistics =
    facet(dataset.outputFacets, 'outputStatistics') ?? facet(dataset.inputFacets, 'inputStatistics');
  const statisticsAt = `${path}.${dataset.outputFacets === undefined ? 'inputFacets.inputStatistics' : 'outputFacets.outputStatistics'}`;
  for (const [field, member] of [
    ['row_count', 'rowCount'],
    ['byte_size', 'size'],
    ['file_count', 'fileCount'],
  ] as const) {
    const count = statistics?.[member];
    if (typeof count === 'number' && Number.isSafeInteger(count) && count >= 0) {
      artifact[field] = count;
      sources[field] = `${statisticsAt}.${member}`;
    }
  }
  if (engine !== undefined) {
    artifact.produced_by = engine;
    sources.produced_by = 'run.facets.processing_engine';
  }
  // Every facet is kept as sent, known or not: the dataset's own and those of its role in the run.
  const kept: JsonObject = {};
  for (const member of ['facets', 'inputFacets', 'outputFacets'] as const) {
    if (isObject(dataset[member]) && Object.keys(dataset[member]).length > 0) kept[member] = dataset[member];
  }
  if (Object.keys(kept).length > 0) {
    artifact.openlineage_facets = kept;
    sources.openlineage_facets = `${path}.facets`;
  }
  return { path, identity, artifact, version, links: symlinksOf(facets), sources };
}

/** The documentation facet's description, else a sentence naming the data source. */
function describe(facets: Json | undefined): string | undefined {
  const documented = nonEmpty(facet(facets, 'documentation')?.description);
  if (documented !== undefined) return documented;
  const source = facet(facets, 'dataSource');
  const name = nonEmpty(source?.name);
  const uri = nonEmpty(source?.uri);
  if (name === undefined && uri === undefined) return undefined;
  const at = uri !== undefined && uri !== name ? ` at ${uri}` : '';
  return `From the data source ${name ?? uri}${at}.`;
}

/**
 * How to reach the dataset: the data source's URI, overridden member by member by a `fairAccess` facet, which
 * states a whole distribution in the registry's own terms. (Sizes and row counts a run reports describe the
 * version, not a way to obtain it.)
 */
function distributionOf(dataset: JsonObject, fair: JsonObject | undefined): JsonObject | undefined {
  const out: JsonObject = {};
  const uri = nonEmpty(facet(dataset.facets, 'dataSource')?.uri);
  if (uri !== undefined && isAbsoluteIri(uri)) {
    out.access_url = uri;
    const scheme = uri.slice(0, uri.indexOf(':')).toLowerCase();
    if ((ACCESS_PROTOCOLS as readonly string[]).includes(scheme)) out.access_protocol = scheme;
  }
  // Every member but the facet's own (`_producer`, `_schemaURL`) is passed on, so an unknown one is refused.
  for (const [field, value] of Object.entries(fair ?? {})) {
    if (field.startsWith('_') || value === null) continue;
    out[field] = field === 'checksum' && typeof value === 'string' ? checksumOf(value) : value;
  }
  return Object.keys(out).length === 0 ? undefined : out;
}

/** A checksum written as one string, `sha-256:<hex>`, split into algorithm and value. */
function checksumOf(value: string): JsonObject {
  const colon = value.indexOf(':');
  return colon < 0
    ? { algorithm: '', value }
    : { algorithm: value.slice(0, colon), value: value.slice(colon + 1) };
}

/** Absolute IRIs named by the `symlinks` facet: an identifier's name, or its namespace and name joined by `/`. */
function symlinksOf(facets: Json | undefined): string[] {
  const identifiers = facet(facets, 'symlinks')?.identifiers;
  if (!Array.isArray(identifiers)) return [];
  const links: string[] = [];
  for (const identifier of identifiers) {
    if (!isObject(identifier)) continue;
    const name = nonEmpty(identifier.name);
    const namespace = nonEmpty(identifier.namespace);
    if (name === undefined) continue;
    if (/^https?:\/\//i.test(name) && isAbsoluteIri(name)) links.push(name);
    else if (namespace !== undefined) {
      const joined = `${namespace.replace(/\/+$/, '')}/${name.replace(/^\/+/, '')}`;
      if (/^https?:\/\//i.test(joined) && isAbsoluteIri(joined)) links.push(joined);
    }
  }
  return [...new Set(links)];
}
