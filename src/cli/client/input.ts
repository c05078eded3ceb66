import fs from 'node:fs';
import { MalformedInputError } from '../../core/errors.js';
import { UsageError } from './errors.js';
import type { JsonObject } from './http.js';

/** Field values from flags; undefined ones were not given and are left out. */
export type FieldValues = Readonly<Record<string, unknown>>;

/** Reads a JSON object from a file, or from standard input when the name is `-`. */
export async function readJsonFile(file: string): Promise<JsonObject> {
  const where = file === '-' ? 'standard input' : file;
  let text: string;
  try {
    text = file === '-' ? await readStdin('the JSON') : fs.readFileSync(file, 'utf8');
  } catch (error) {
    throw new MalformedInputError(`${where} cannot be read: ${(error as Error).message}`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new MalformedInputError(`${where} is not valid JSON: ${(error as Error).message}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new MalformedInputError(`${where} must hold one JSON object`);
  }
  return value as JsonObject;
}

/**
 * Everything on standard input as text; a terminal is refused, since nothing would ever be piped in (`what` names
 * what to pipe in, for that message).
 */
export async function readStdin(what = 'the input'): Promise<string> {
  if (process.stdin.isTTY === true) throw new Error(`it is a terminal; pipe ${what} in`);
  let text = '';
  process.stdin.setEncoding('utf8');
  for await (const chunk of process.stdin) text += chunk as string;
  return text;
}

/**
 * The body of a create or update: the JSON of `--file` (if any), with the field flags laid over it and each
 * `--unset` field set to null (a JSON merge patch clears it). Refuses an empty body.
 */
export async function buildBody(
  file: string | undefined,
  fields: FieldValues,
  unset: readonly string[] = [],
): Promise<JsonObject> {
  const body: JsonObject = file === undefined ? {} : await readJsonFile(file);
  for (const [name, value] of Object.entries(fields)) {
    if (value !== undefined && !(Array.isArray(value) && value.length === 0)) body[name] = value;
  }
  for (const name of unset) body[name] = null;
  if (Object.keys(body).length === 0) {
    throw new UsageError('nothing to send: give --file <json> (or - for standard input) or field flags');
  }
  return body;
}

/** Expands an SPDX licence id such as `Apache-2.0` to its IRI; full IRIs are kept. */
export function licenceIri(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  return /^[a-z][a-z0-9+.-]*:/i.test(value) ? value : `https://spdx.org/licenses/${value}`;
}
