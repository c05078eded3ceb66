import { isObject } from './json.js';
import { AGENT_FIELDS, type Json, type JsonObject } from './mapper.js';
import type { FieldSpec } from './schema.js';

/** What a record accepts from a caller's JSON, and what it left out. */
export interface AcceptedInput {
  readonly json: JsonObject;
  /** One sentence per member that was left out because no record of this kind defines it. */
  readonly warnings: string[];
}

/** How to read one record's input. */
export interface AcceptOptions {
  /** Members dropped without a word: those a read returns (`iri`, `id`, derived ones). */
  readonly quiet?: readonly string[];
  /** Where the record sits in the request (`artifacts[2].`), for naming members. */
  readonly path?: string;
  /** Members a client sends as a plain agent that the record keeps in another shape (producer claims). */
  readonly agents?: readonly string[];
}

interface Place {
  readonly path: string;
  readonly quiet: ReadonlySet<string>;
  readonly agents: ReadonlySet<string>;
}

/**
 * Makes caller input fit a record description, liberally: registry-only members are dropped (no payload may set
 * them), members no record of this kind defines are dropped and named in `warnings` (so a typo stays visible and
 * an older or newer client keeps working), and a single value where a list is expected becomes a one-element
 * list. Members in `quiet` (derived ones a client may send back from a read) are dropped silently. Values of the
 * wrong type are left for the mapper to refuse with their field name.
 */
export function acceptInput(
  fields: readonly FieldSpec[],
  input: JsonObject,
  options: AcceptOptions = {},
): AcceptedInput {
  const warnings: string[] = [];
  const place: Place = {
    path: options.path ?? '',
    quiet: new Set(options.quiet),
    agents: new Set(options.agents),
  };
  const json = acceptNode(fields, input, place, warnings);
  return { json, warnings };
}

const NONE: ReadonlySet<string> = new Set();

function acceptNode(
  fields: readonly FieldSpec[],
  input: JsonObject,
  place: Place,
  warnings: string[],
): JsonObject {
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(input)) {
    const field = fields.find((candidate) => candidate.json === key);
    const at = `${place.path}${key}`;
    if (field === undefined) {
      if (!place.quiet.has(key)) warnings.push(`${at} is not a field of this record and was ignored`);
      continue;
    }
    if (field.registry === true) continue;
    out[key] =
      place.agents.has(key) && isObject(value)
        ? acceptAgent(value, at, warnings)
        : acceptValue(field, value, at, warnings);
  }
  return out;
}

function acceptValue(field: FieldSpec, value: Json, at: string, warnings: string[]): Json {
  if (value === null) return null;
  if (field.many === true && !Array.isArray(value)) return [acceptItem(field, value, `${at}[0]`, warnings)];
  if (field.many === true && Array.isArray(value))
    return value.map((item, index) => acceptItem(field, item, `${at}[${index}]`, warnings));
  return acceptItem(field, value, at, warnings);
}

function acceptItem(field: FieldSpec, item: Json, at: string, warnings: string[]): Json {
  if (!isObject(item)) return item;
  if (field.type === 'node')
    return acceptNode(field.node.fields, item, { path: `${at}.`, quiet: NONE, agents: NONE }, warnings);
  if (field.type === 'agent') return acceptAgent(item, at, warnings);
  return item;
}

function acceptAgent(item: JsonObject, at: string, warnings: string[]): JsonObject {
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(item)) {
    if (AGENT_FIELDS.has(key)) out[key] = value;
    else warnings.push(`${at}.${key} is not a field of an agent and was ignored`);
  }
  return out;
}
