/**
 * The JSON Schema of a record kind, built from its spec (the fields the mapper reads and writes) and its read shape
 * (what a read adds or presents differently). The OpenAPI description publishes it; the tests hold the API's
 * answers to it.
 */
import type { FieldSpec, NodeSpec } from '../core/records/schema.js';
import type { JsonSchema } from './json-schema.js';
import { AGENT, type ReadShape } from './records.js';

const SCALAR: Readonly<Record<string, JsonSchema>> = {
  string: { type: 'string' },
  iri: { type: 'string', format: 'iri' },
  boolean: { type: 'boolean' },
  integer: { type: 'integer' },
  date: { type: 'string', format: 'date' },
  dateTime: { type: 'string', format: 'date-time' },
  json: {},
};

/** The JSON Schema of one field. */
export function fieldSchema(field: FieldSpec): JsonSchema {
  let one: JsonSchema;
  if (field.type === 'node') one = nodeSchema(field.node);
  else if (field.type === 'agent') one = AGENT;
  else one = { ...SCALAR[field.type], ...(field.values === undefined ? {} : { enum: [...field.values] }) };
  const schema: JsonSchema = field.many === true ? { type: 'array', items: one } : one;
  return field.registry === true ? { ...schema, readOnly: true } : schema;
}

/** The JSON Schema of a node: its fields, none required (the shapes decide what a record needs). */
export function nodeSchema(node: NodeSpec): JsonSchema {
  return {
    type: 'object',
    properties: Object.fromEntries(node.fields.map((field) => [field.json, fieldSchema(field)])),
  };
}

/**
 * The JSON Schema of a record kind, as sent and as read: the spec's fields, `iri` and `id`, and what a read adds
 * (read-only). A member a read presents differently (a term IRI read back described) takes either form.
 */
export function recordSchema(spec: NodeSpec, read: ReadShape): JsonSchema {
  const written = nodeSchema(spec).properties ?? {};
  const properties: Record<string, JsonSchema> = {
    iri: { type: 'string', format: 'iri', readOnly: true },
    id: { type: 'string', readOnly: true },
    ...written,
  };
  for (const [name, shown] of Object.entries(read.properties)) {
    const sent = written[name];
    properties[name] =
      sent === undefined
        ? { ...shown, readOnly: true }
        : {
            anyOf: [sent, { ...shown, readOnly: true }],
            description: 'sent as the first, read as the second',
          };
  }
  return { type: 'object', properties };
}

/** The JSON Schema of a record kind as a read returns it: only what a read carries, and what it always carries. */
export function readSchema(spec: NodeSpec, read: ReadShape): JsonSchema {
  const properties = { ...(nodeSchema(spec).properties ?? {}) };
  for (const hidden of read.hidden) delete properties[hidden];
  return {
    type: 'object',
    properties: {
      iri: { type: 'string', format: 'iri' },
      id: { type: 'string' },
      ...properties,
      ...read.properties,
    },
    required: read.required,
  };
}
