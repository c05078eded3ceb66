import { ForgeError } from './types.js';

/** A forge answer as loosely typed JSON: every member is checked before use. */
export type Loose = Readonly<Record<string, unknown>>;

/** Parses a forge answer as a JSON object (or list, with `list`); anything else is a failed request. */
export function parseObject(text: string, url: string, forgeName: string): Loose {
  const value = parse(text, url, forgeName);
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw new ForgeError('failed', `${forgeName} answered ${url} with JSON that is not an object`);
  return value as Loose;
}

/** Parses a forge answer as a JSON list of objects (members that are not objects are dropped). */
export function parseList(text: string, url: string, forgeName: string): Loose[] {
  const value = parse(text, url, forgeName);
  if (!Array.isArray(value))
    throw new ForgeError('failed', `${forgeName} answered ${url} with JSON that is not a list`);
  return value.filter(
    (item): item is Loose => item !== null && typeof item === 'object' && !Array.isArray(item),
  );
}

function parse(text: string, url: string, forgeName: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new ForgeError('failed', `${forgeName} answered ${url} with something that is not JSON`);
  }
}

/** A member that is a string with something other than white space in it, trimmed. */
export function textOf(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

/** A member that is an object. */
export function objectOf(value: unknown): Loose | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Loose) : undefined;
}

/** A member that is a list of strings (other members dropped). */
export function stringsOf(value: unknown): string[] {
  return Array.isArray(value)
    ? value.filter((item): item is string => typeof item === 'string' && item.trim() !== '')
    : [];
}

/** The date part (`YYYY-MM-DD`) of a timestamp member. */
export function dateOf(value: unknown): string | undefined {
  const text = textOf(value);
  return text !== undefined && /^\d{4}-\d{2}-\d{2}/.test(text) ? text.slice(0, 10) : undefined;
}

/** The URL of the directory a file URL lies in (ends with `/`). */
export function directoryOf(url: string): string | undefined {
  try {
    return new URL('./', url).href;
  } catch {
    return undefined;
  }
}
