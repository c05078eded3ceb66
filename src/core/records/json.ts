import { InvalidTextError, TooDeepError, type FieldError } from '../errors.js';
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

const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** The deepest nesting of objects and lists in JSON text, counted in one pass without parsing it. */
export function jsonDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let at = 0; at < text.length; at++) {
    const code = text.charCodeAt(at);
    if (inString) {
      if (code === BACKSLASH) at++;
      else if (code === QUOTE) inString = false;
    } else if (code === QUOTE) inString = true;
    else if (code === OPEN_BRACE || code === OPEN_BRACKET) deepest = Math.max(deepest, ++depth);
    else if (code === CLOSE_BRACE || code === CLOSE_BRACKET) depth--;
  }
  return deepest;
}

/** Most places named in one refusal; a body full of broken text is not echoed back whole. */
const MAX_NAMED = 20;
const SURROGATE = /\p{Cs}/u;

/** Where a parsed body holds a lone surrogate, in a member name or a string, as JSON paths. */
export function brokenText(value: unknown): FieldError[] {
  const found: FieldError[] = [];
  const visit = (item: unknown, path: string): void => {
    if (found.length >= MAX_NAMED) return;
    if (typeof item === 'string') {
      if (SURROGATE.test(item))
        found.push({
          field: path || '(body)',
          message: `${path || 'the body'} holds a lone surrogate, which is not text`,
        });
    } else if (Array.isArray(item)) {
      item.forEach((inner, index) => visit(inner, `${path}[${index}]`));
    } else if (item !== null && typeof item === 'object') {
      for (const [key, inner] of Object.entries(item)) {
        // JSON.stringify writes a lone surrogate as an escape, so the name can be quoted back safely.
        const at = `${path === '' ? '' : `${path}.`}${JSON.stringify(key).slice(1, -1)}`;
        if (SURROGATE.test(key))
          found.push({
            field: at,
            message: `the member name ${at} holds a lone surrogate, which is not text`,
          });
        visit(inner, at);
      }
    }
  };
  visit(value, '');
  return found;
}

/**
 * JSON text parsed under the limits every JSON the registry reads has: nesting past `maxDepth` is a 400
 * (`too-deep`) found before parsing, so no later step recurses that deep, and a lone surrogate in any member
 * name or string is a 422 (`invalid-text`) naming where it is. Text that is not JSON is `notJson`'s error.
 */
export function parseLimitedJson(
  text: string,
  maxDepth: number,
  notJson: (message: string) => Error,
): unknown {
  if (jsonDepth(text) > maxDepth) throw new TooDeepError(maxDepth);
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch (error) {
    throw notJson((error as Error).message);
  }
  const broken = brokenText(value);
  if (broken.length > 0) throw new InvalidTextError(broken);
  return value;
}
