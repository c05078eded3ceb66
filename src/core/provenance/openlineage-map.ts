import { BadRequestError, type FieldError } from '../errors.js';
import { REG } from '../ns.js';
import { ACCESS_PROTOCOLS } from '../records/activity-specs.js';
import { isObject } from '../records/json.js';
import { isAbsoluteIri, type Json, type JsonObject } from '../records/mapper.js';

/** The run status an OpenLineage event type maps to. */
export type OpenLineageStatus = 'running' | 'success' | 'failed' | 'aborted';

/** One input or output dataset of a RunEvent, as the artifact `advertise` is sent. */
export interface MappedDataset {
  /** Where the dataset sits in the event, e.g. `outputs[1]`. */
  readonly path: string;
  /** `namespace#name`: the same dataset in any event of the deployment is one artifact. */
  readonly key: string;
  readonly artifact: JsonObject;
  /** IRIs its `symlinks` facet names, any of which may be an artifact the registry already holds. */
  readonly links: readonly string[];
  /** Where each artifact field came from in the event, for naming refusals in the caller's terms. */
  readonly sources: Readonly<Record<string, string>>;
}

/** A RunEvent mapped onto the registry's run and artifacts. */
export interface MappedEvent {
  readonly eventType: string;
  /** `run.runId`: the run's key, scoped to the deployment. */
  readonly runId: string;
  readonly status: OpenLineageStatus;
  /** COMPLETE, FAIL or ABORT: the event ends the run. */
  readonly terminal: boolean;
  /** The `run` object of an advertisement. */
  readonly run: JsonObject;
  readonly inputs: readonly MappedDataset[];
  readonly outputs: readonly MappedDataset[];
  /** The whole event, kept on the run. */
  readonly payload: JsonObject;
}

const STATUS: Readonly<Record<string, OpenLineageStatus>> = {
  START: 'running',
  RUNNING: 'running',
  COMPLETE: 'success',
  FAIL: 'failed',
  // The registry has a status of its own for a run that was stopped rather than one that broke.
  ABORT: 'aborted',
};

/**
 * Checks that a body is an OpenLineage RunEvent (400 naming every missing member otherwise) and maps it:
 * the event type to a run status, `run.runId` to the run's key, `eventTime` (else `receivedAt`) to its start
 * (and, for an event that ends the run, its end), the job to the run's label and each dataset to an artifact.
 */
export function mapRunEvent(body: unknown, receivedAt: string): MappedEvent {
  if (!isObject(body)) throw new BadRequestError('an OpenLineage RunEvent must be a JSON object');
  const errors: FieldError[] = [];
  const missing = (field: string, what: string) => errors.push({ field, message: `${field} ${what}` });
  const run = isObject(body.run) ? body.run : {};
  const job = isObject(body.job) ? body.job : {};
  const eventType = nonEmpty(body.eventType);
  if (eventType === undefined)
    missing('eventType', 'is required (START, RUNNING, COMPLETE, FAIL, ABORT or OTHER)');
  const runId = nonEmpty(run.runId);
  if (runId === undefined) missing('run.runId', 'is required');
  const namespace = nonEmpty(job.namespace);
  if (namespace === undefined) missing('job.namespace', 'is required');
  const name = nonEmpty(job.name);
  if (name === undefined) missing('job.name', 'is required');
  const time = eventTimeOf(body.eventTime, receivedAt, missing);
  const inputs = datasetsOf(body.inputs, 'inputs', missing);
  const outputs = datasetsOf(body.outputs, 'outputs', missing, engineOf(run));
  if (errors.length > 0 || eventType === undefined || runId === undefined) {
    throw new BadRequestError(
      `this is not an OpenLineage RunEvent: ${errors.map((error) => error.message).join('; ')}`,
      { errors },
    );
  }
  const status = STATUS[eventType.toUpperCase()] ?? 'running';
  const terminal = status !== 'running';
  return {
    eventType,
    runId,
    status,
    terminal,
    run: {
      external_key: runId,
      status,
      started_at: time,
      ...(terminal ? { ended_at: time } : {}),
      label: `${namespace}/${name}`,
    },
    inputs,
    outputs,
    payload: body,
  };
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
  missing: (field: string, what: string) => void,
  engine?: JsonObject,
): MappedDataset[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) {
    missing(role, 'must be a list of datasets');
    return [];
  }
  const datasets: MappedDataset[] = [];
  for (const [index, item] of value.entries()) {
    const path = `${role}[${index}]`;
    const dataset = isObject(item) ? item : {};
    const namespace = nonEmpty(dataset.namespace);
    const name = nonEmpty(dataset.name);
    if (namespace === undefined) missing(`${path}.namespace`, 'is required');
    if (name === undefined) missing(`${path}.name`, 'is required');
    if (namespace === undefined || name === undefined) continue;
    datasets.push(mapDataset(dataset, path, namespace, name, engine));
  }
  return datasets;
}

function mapDataset(
  dataset: JsonObject,
  path: string,
  namespace: string,
  name: string,
  engine: JsonObject | undefined,
): MappedDataset {
  const facets = dataset.facets;
  const key = `${namespace}#${name}`;
  const artifact: JsonObject = { external_key: key, title: name };
  const sources: Record<string, string> = {
    title: `${path}.name`,
    external_key: `${path}.name`,
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
  if (engine !== undefined) {
    artifact.produced_by = engine;
    sources.produced_by = 'run.facets.processing_engine';
  }
  return { path, key, artifact, links: symlinksOf(facets), sources };
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
 * How to reach the dataset: the data source's URI and the size the run reported, overridden member by member by
 * a `fairAccess` facet, which states a whole distribution in the registry's own terms.
 */
function distributionOf(dataset: JsonObject, fair: JsonObject | undefined): JsonObject | undefined {
  const out: JsonObject = {};
  const uri = nonEmpty(facet(dataset.facets, 'dataSource')?.uri);
  if (uri !== undefined && isAbsoluteIri(uri)) {
    out.access_url = uri;
    const scheme = uri.slice(0, uri.indexOf(':')).toLowerCase();
    if ((ACCESS_PROTOCOLS as readonly string[]).includes(scheme)) out.access_protocol = scheme;
  }
  const statistics =
    facet(dataset.outputFacets, 'outputStatistics') ?? facet(dataset.inputFacets, 'inputStatistics');
  const size = statistics?.size;
  if (typeof size === 'number' && Number.isSafeInteger(size) && size >= 0) out.byte_size = size;
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
