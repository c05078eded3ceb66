import { TooManyItemsError, type FieldError } from '../errors.js';
import { isObject } from './json.js';
import type { Json, JsonObject } from './mapper.js';
import type { NodeSpec } from './schema.js';

/**
 * Refuses (422 `too-many-items`) a record any of whose list fields holds more than `limit` values, naming each
 * such field from `path` (where the record sits in the request, e.g. `artifacts[2].`). Checked before the record
 * is mapped or validated, so an oversized list costs one count, not a validation of every value.
 */
export function refuseLongLists(spec: NodeSpec, json: JsonObject, limit: number, path = ''): void {
  if (!Number.isFinite(limit)) return;
  const found: FieldError[] = [];
  collect(spec, json, limit, path, found);
  if (found.length > 0) throw new TooManyItemsError(found, limit);
}

function collect(spec: NodeSpec, json: JsonObject, limit: number, path: string, found: FieldError[]): void {
  for (const field of spec.fields) {
    const value: Json | undefined = json[field.json];
    if (value === undefined || value === null) continue;
    const name = `${path}${field.json}`;
    // A JSON-valued field (a whole OpenLineage event) is kept as one literal: its lists are not values.
    if (field.type !== 'json' && Array.isArray(value) && value.length > limit) {
      found.push({
        field: name,
        message: `${name} holds ${value.length} values; at most ${limit} are accepted (REG_MAX_LIST_ITEMS)`,
      });
      continue;
    }
    if (field.type !== 'node') continue;
    const items = Array.isArray(value) ? value : [value];
    items.forEach((item, index) => {
      if (!isObject(item)) return;
      const at = field.many === true ? `${name}[${index}].` : `${name}.`;
      collect(field.node, item, limit, at, found);
    });
  }
}
