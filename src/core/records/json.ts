import type { Json, JsonObject } from './mapper.js';

/** Whether a JSON value is an object (not null, not a list). */
export function isObject(value: unknown): value is JsonObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * Applies a JSON merge patch (RFC 7396): members absent from the patch are kept, `null` removes a member,
 * objects merge recursively, and anything else (lists included) replaces the stored value.
 */
export function mergePatch(target: JsonObject, patch: JsonObject): JsonObject {
  const result: JsonObject = { ...target };
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete result[key];
    else if (isObject(value) && isObject(result[key])) result[key] = mergePatch(result[key], value);
    else result[key] = removeNulls(value);
  }
  return result;
}

function removeNulls(value: Json): Json {
  if (!isObject(value)) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, inner]) => inner !== null)
      .map(([key, inner]) => [key, removeNulls(inner)]),
  );
}
