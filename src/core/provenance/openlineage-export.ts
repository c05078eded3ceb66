/**
 * OpenLineage out: the registry's runs as OpenLineage RunEvents, so that Marquez, DataHub, OpenMetadata or
 * another registry can read them. A run recorded from OpenLineage events is given back as those events, exactly
 * as they were received; any other run (advertised through the native API) is written as a START event and, once
 * it ended, a COMPLETE, FAIL or ABORT event, its inputs and outputs named as datasets. Replaying the export into
 * an empty registry gives the same lineage.
 */
import { createHash } from 'node:crypto';
import { GRAPHS } from '../ns.js';
import { ARTIFACT, ARTIFACT_SERIES, RUN } from '../records/activity-specs.js';
import { idOf } from '../records/ids.js';
import { isObject } from '../records/json.js';
import type { Json, JsonObject } from '../records/mapper.js';
import { eventsOf } from '../store/openlineage-events.js';
import type { Core } from '../core.js';
import type { Principal } from '../access/principal.js';
import { requireAuthenticated } from '../access/policy.js';
import { iriOf, readStored, requireReadable, type StoredRecord } from '../stored/records.js';
import { generatedBy } from './runs.js';

/** The OpenLineage spec version the events written here follow. */
const SCHEMA_URL = 'https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunEvent';
const FACET_PRODUCER = 'https://w3id.org/reg';

const TERMINAL: Readonly<Record<string, string>> = { success: 'COMPLETE', failed: 'FAIL', aborted: 'ABORT' };

/** A UUID for a run id that is not one: the first 128 bits of its SHA-256, marked as a name-based UUID (v8). */
function uuidOf(text: string): string {
  if (/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(text)) return text.toLowerCase();
  const hex = createHash('sha256').update(text).digest('hex');
  const variant = ((Number.parseInt(hex[16] ?? '0', 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

const facet = (fields: JsonObject): JsonObject => ({ _producer: FACET_PRODUCER, ...fields });

/**
 * A dataset as OpenLineage names it: a version of a dataset reported through OpenLineage by the namespace and name
 * its series holds; any other artifact by the registry's base IRI and its path, with a `symlinks` facet naming
 * its IRI (so a replay into this registry finds it). Its description, version, statistics and the facets it was
 * reported with come along.
 */
async function datasetOf(core: Core, iri: string, role: 'input' | 'output'): Promise<JsonObject> {
  const base = core.config.baseIri;
  const stored = iri.startsWith(`${base}/`) ? await readStored(core, ARTIFACT, iri) : undefined;
  const json = stored?.json ?? {};
  const seriesIri = Array.isArray(json.is_version_of) ? json.is_version_of[0] : undefined;
  const series =
    typeof seriesIri === 'string' ? await readStored(core, ARTIFACT_SERIES, seriesIri) : undefined;
  const namespace = series?.json.dataset_namespace;
  const name = series?.json.dataset_name;
  const cut = iri.lastIndexOf('/');
  const identity =
    typeof namespace === 'string' && typeof name === 'string'
      ? { namespace, name }
      : { namespace: iri.slice(0, cut), name: iri.slice(cut + 1) };
  const kept = isObject(json.openlineage_facets) ? json.openlineage_facets : {};
  const facets: JsonObject = { ...(isObject(kept.facets) ? kept.facets : {}) };
  facets.symlinks = facet({
    identifiers: [{ namespace: iri.slice(0, cut), name: iri.slice(cut + 1), type: 'IRI' }],
  });
  // The registry's own facet: what OpenLineage has no facet for, so a replay keeps it.
  if (typeof json.title === 'string') facets.reg_artifact = facet({ title: json.title });
  if (typeof json.description === 'string' && facets.documentation === undefined)
    facets.documentation = facet({ description: json.description });
  if (typeof json.version === 'string' && facets.version === undefined)
    facets.version = facet({ datasetVersion: json.version });
  const dataset: JsonObject = { ...identity, facets };
  if (role === 'output') {
    const outputFacets: JsonObject = { ...(isObject(kept.outputFacets) ? kept.outputFacets : {}) };
    const statistics: JsonObject = {};
    if (typeof json.row_count === 'number') statistics.rowCount = json.row_count;
    if (typeof json.byte_size === 'number') statistics.size = json.byte_size;
    if (typeof json.file_count === 'number') statistics.fileCount = json.file_count;
    if (Object.keys(statistics).length > 0 && outputFacets.outputStatistics === undefined)
      outputFacets.outputStatistics = facet(statistics);
    if (Object.keys(outputFacets).length > 0) dataset.outputFacets = outputFacets;
  } else if (isObject(kept.inputFacets)) {
    dataset.inputFacets = kept.inputFacets;
  }
  return dataset;
}

/** The events of a run the native API recorded: a START, and the event that ended it, if it ended. */
async function synthesise(core: Core, stored: StoredRecord): Promise<JsonObject[]> {
  const run = stored.json;
  const used = Array.isArray(run.used)
    ? run.used.filter((iri): iri is string => typeof iri === 'string')
    : [];
  const inputs = await Promise.all(used.map((iri) => datasetOf(core, iri, 'input')));
  const outputs = await Promise.all(
    (await generatedBy(core, stored.iri)).map((iri) => datasetOf(core, iri, 'output')),
  );
  // The registry's own facet: the run's label, which a replay keeps as it was.
  const runFacets: JsonObject = typeof run.label === 'string' ? { reg_run: facet({ label: run.label }) } : {};
  if (typeof run.part_of === 'string') {
    const parent = await readStored(core, RUN, run.part_of);
    runFacets.parent = facet({
      run: {
        runId: uuidOf(
          typeof parent?.json.external_key === 'string' ? parent.json.external_key : idOf(run.part_of),
        ),
      },
      job: { namespace: jobNamespace(core, parent?.json), name: jobName(parent?.json, run.part_of) },
    });
  }
  const common: JsonObject = {
    producer: core.config.baseIri,
    schemaURL: SCHEMA_URL,
    run: {
      runId: uuidOf(typeof run.external_key === 'string' ? run.external_key : idOf(stored.iri)),
      ...(Object.keys(runFacets).length > 0 ? { facets: runFacets } : {}),
    },
    job: { namespace: jobNamespace(core, run), name: jobName(run, stored.iri) },
    inputs,
    outputs,
  };
  const events: JsonObject[] = [];
  if (typeof run.started_at === 'string')
    events.push({ eventType: 'START', eventTime: run.started_at, ...common });
  const ending = typeof run.status === 'string' ? TERMINAL[run.status] : undefined;
  if (ending !== undefined) {
    const at = typeof run.ended_at === 'string' ? run.ended_at : run.started_at;
    events.push({ eventType: ending, eventTime: at as Json, ...common });
  }
  return events;
}

function jobNamespace(core: Core, run: JsonObject | undefined): string {
  return typeof run?.instance === 'string' ? run.instance : core.config.baseIri;
}

function jobName(run: JsonObject | undefined, iri: string): string {
  return typeof run?.label === 'string' && run.label !== '' ? run.label : idOf(iri);
}

/** The events of one stored run: as received when it came from OpenLineage, else written from the record. */
async function eventsOfRun(core: Core, stored: StoredRecord): Promise<JsonObject[]> {
  const kept = eventsOf(core.db, stored.iri, 10_000);
  if (kept.length > 0) return kept.map((event) => event.body as JsonObject);
  return synthesise(core, stored);
}

/** `GET /api/v1/runs/{id}/openlineage`: the run as OpenLineage RunEvents, in time order. */
export async function runAsOpenLineage(core: Core, id: string): Promise<JsonObject> {
  const iri = iriOf(core, 'run', id);
  const stored = await requireReadable(core, RUN, iri);
  return { run: iri, events: await eventsOfRun(core, stored) };
}

/**
 * `GET /api/v1/openlineage/export`: every live run of this registry as OpenLineage RunEvents, one JSON event per
 * line (NDJSON), run by run in IRI order, read a page of runs at a time. Its cost grows with the registry, so it
 * is for callers with a credential (401 otherwise), like a dump; one run's events are public like the run.
 */
export function exportOpenLineage(core: Core, principal: Principal): AsyncGenerator<string> {
  // Refused before the answer starts, so the refusal is a 401 problem rather than a broken stream.
  requireAuthenticated(principal);
  return everyRunAsEvents(core);
}

/** Runs the export reads from the record table at a time. */
const EXPORT_PAGE = 500;

async function* everyRunAsEvents(core: Core): AsyncGenerator<string> {
  // The runs of this registry's graph from the table that lists its records, a page at a time in IRI order.
  const page = core.db
    .prepare(
      `SELECT subject FROM ${core.graph.recordTables.records}
       WHERE kind = 'run' AND graph = ? AND subject > ? ORDER BY subject LIMIT ${EXPORT_PAGE}`,
    )
    .pluck();
  for (let after = '', runs: string[] = []; ; after = runs.at(-1) ?? after) {
    runs = page.all(GRAPHS.local, after) as string[];
    for (const iri of runs) {
      const stored = await readStored(core, RUN, iri);
      if (stored === undefined || stored.tombstoned) continue;
      for (const event of await eventsOfRun(core, stored)) yield `${JSON.stringify(event)}\n`;
    }
    if (runs.length < EXPORT_PAGE) return;
  }
}
