/**
 * Field-level lineage of a dataset version, read from the OpenLineage facets it was reported with: the
 * `columnLineage` facet (each output field and the input fields it comes from, with their transformations) and
 * the explicit `lineage` facet (dataset-level inputs and field-level inputs). Each input dataset is named by the
 * series that is its identity here and, when the run that wrote this version read a version of it, by that
 * version.
 */
import { ARTIFACT, RUN } from '../records/activity-specs.js';
import { isObject } from '../records/json.js';
import type { Json, JsonObject } from '../records/mapper.js';
import type { Core } from '../core.js';
import { iriOf, readStored, requireReadable } from '../stored/records.js';
import { datasetIdentity } from './openlineage-map.js';

/** One input of a field (or of the whole dataset). */
interface FieldInput extends JsonObject {
  namespace: string;
  name: string;
  /** The input dataset's series here. */
  dataset: string;
}

/** The version of each input series the generating run read. */
async function versionsRead(core: Core, artifact: JsonObject): Promise<Map<string, string>> {
  const read = new Map<string, string>();
  const run =
    typeof artifact.was_generated_by === 'string'
      ? await readStored(core, RUN, artifact.was_generated_by)
      : undefined;
  const used = Array.isArray(run?.json.used) ? run.json.used : [];
  for (const iri of used) {
    if (typeof iri !== 'string') continue;
    const version = await readStored(core, ARTIFACT, iri);
    const series = Array.isArray(version?.json.is_version_of) ? version.json.is_version_of : [];
    for (const of of series) if (typeof of === 'string' && !read.has(of)) read.set(of, iri);
  }
  return read;
}

function inputOf(core: Core, item: Json, read: ReadonlyMap<string, string>): FieldInput | undefined {
  if (!isObject(item)) return undefined;
  const { namespace, name } = item;
  if (typeof namespace !== 'string' || typeof name !== 'string') return undefined;
  if (item.type !== undefined && item.type !== 'DATASET') return undefined;
  const identity = datasetIdentity(core.config.baseIri, namespace, name);
  const version = read.get(identity.series);
  return {
    ...item,
    namespace: identity.namespace,
    name: identity.name,
    dataset: identity.series,
    ...(version === undefined ? {} : { version }),
  };
}

/**
 * `GET /api/v1/artifacts/{id}/column-lineage`: for each field of the version, the input fields it comes from
 * (`fields`), and the datasets the whole version depends on (`inputs`), merged from the `columnLineage` and
 * `lineage` facets; empty when it was reported with neither.
 */
export async function columnLineage(core: Core, id: string): Promise<JsonObject> {
  const iri = iriOf(core, 'artifact', id);
  const stored = await requireReadable(core, ARTIFACT, iri);
  const kept = isObject(stored.json.openlineage_facets) ? stored.json.openlineage_facets : {};
  const facets = isObject(kept.facets) ? kept.facets : {};
  const read = await versionsRead(core, stored.json);
  const fields = new Map<string, JsonObject[]>();
  const add = (field: string, items: Json | undefined): void => {
    if (!Array.isArray(items)) return;
    const inputs = items.flatMap((item) => inputOf(core, item, read) ?? []);
    fields.set(field, [...(fields.get(field) ?? []), ...inputs]);
  };
  const column = isObject(facets.columnLineage) ? facets.columnLineage : {};
  for (const [field, entry] of Object.entries(isObject(column.fields) ? column.fields : {}))
    if (isObject(entry)) add(field, entry.inputFields);
  const explicit = isObject(facets.lineage) ? facets.lineage : {};
  for (const [field, entry] of Object.entries(isObject(explicit.fields) ? explicit.fields : {}))
    if (isObject(entry)) add(field, entry.inputs);
  const inputs = [
    ...(Array.isArray(column.dataset) ? column.dataset : []),
    ...(Array.isArray(explicit.inputs) ? explicit.inputs : []),
  ].flatMap((item) => inputOf(core, item, read) ?? []);
  return {
    artifact: iri,
    ...(Array.isArray(stored.json.is_version_of) && typeof stored.json.is_version_of[0] === 'string'
      ? { dataset: stored.json.is_version_of[0] }
      : {}),
    fields: [...fields].map(([field, from]) => ({ field, inputs: from })),
    inputs,
  };
}
