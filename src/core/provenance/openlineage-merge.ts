/**
 * The events of one run merged into one, as the OpenLineage spec merges them: each later event (in `eventTime`
 * order) adds facets and datasets and never erases what an earlier one said; a facet sent again replaces the
 * earlier one of that name, and a facet marked `_deleted` removes it. Top-level members (the event type and
 * time, the producer) are the latest event's.
 */
import { isObject } from '../records/json.js';
import type { Json, JsonObject } from '../records/mapper.js';

/** Facets of one holder merged: later ones replace earlier ones of the same name; `_deleted` removes one. */
function mergeFacets(before: Json | undefined, after: Json | undefined): JsonObject | undefined {
  if (!isObject(after)) return isObject(before) ? before : undefined;
  const merged: JsonObject = { ...(isObject(before) ? before : {}) };
  for (const [name, facet] of Object.entries(after)) {
    if (isObject(facet) && facet._deleted === true) delete merged[name];
    else merged[name] = facet;
  }
  return merged;
}

const FACET_MEMBERS = ['facets', 'inputFacets', 'outputFacets'] as const;

/** An object with its facet members merged with a later one's, other members the later one's. */
function mergeHolder(before: JsonObject, after: JsonObject): JsonObject {
  const merged: JsonObject = { ...before, ...after };
  for (const member of FACET_MEMBERS) {
    const facets = mergeFacets(before[member], after[member]);
    if (facets !== undefined) merged[member] = facets;
  }
  return merged;
}

/** Datasets of one side merged by namespace and name, in the order first seen. */
function mergeDatasets(before: Json | undefined, after: Json | undefined): Json[] | undefined {
  if (!Array.isArray(after)) return Array.isArray(before) ? before : undefined;
  const merged: Json[] = Array.isArray(before) ? [...before] : [];
  for (const dataset of after) {
    if (!isObject(dataset)) continue;
    const at = merged.findIndex(
      (item) => isObject(item) && item.namespace === dataset.namespace && item.name === dataset.name,
    );
    const earlier = merged[at];
    if (at >= 0 && isObject(earlier)) merged[at] = mergeHolder(earlier, dataset);
    else merged.push(dataset);
  }
  return merged;
}

/** Events of one run, in `eventTime` order, merged into one event. */
export function mergeEvents(events: readonly unknown[]): JsonObject {
  let merged: JsonObject = {};
  for (const event of events) {
    if (!isObject(event)) continue;
    const next: JsonObject = { ...merged, ...event };
    for (const member of ['run', 'job'] as const) {
      const before = merged[member];
      const after = event[member];
      if (isObject(before) && isObject(after)) next[member] = mergeHolder(before, after);
    }
    for (const side of ['inputs', 'outputs'] as const) {
      const datasets = mergeDatasets(merged[side], event[side]);
      if (datasets !== undefined) next[side] = datasets;
    }
    merged = next;
  }
  return merged;
}
