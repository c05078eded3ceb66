import type { Hono } from 'hono';
import { ERROR_CODES } from '../core/error-codes.js';
import { DEREFERENCEABLE, KINDS, type RecordKind } from '../core/records/kind-registry.js';
import type { FieldSpec, NodeSpec } from '../core/records/schema.js';
import { routePath } from './allowed-methods.js';
import type { AppEnv } from './env.js';

/** A JSON Schema (2020-12, as OpenAPI 3.1 uses it). */
type Schema = Record<string, unknown>;

const SCALAR: Readonly<Record<string, Schema>> = {
  string: { type: 'string' },
  iri: { type: 'string', format: 'iri' },
  boolean: { type: 'boolean' },
  integer: { type: 'integer' },
  date: { type: 'string', format: 'date' },
  dateTime: { type: 'string', format: 'date-time' },
  json: {},
};

/** The JSON Schema of one field, from the record description the mapper reads. */
function fieldSchema(field: FieldSpec): Schema {
  let one: Schema;
  if (field.type === 'node') one = nodeSchema(field.node);
  else if (field.type === 'agent') one = { type: 'string', format: 'iri', description: 'an agent' };
  else one = { ...SCALAR[field.type], ...(field.values === undefined ? {} : { enum: [...field.values] }) };
  const schema: Schema = field.many === true ? { type: 'array', items: one } : one;
  return field.registry === true ? { ...schema, readOnly: true } : schema;
}

/** The JSON Schema of a node: its fields, none required (the shapes decide what a record needs). */
function nodeSchema(node: NodeSpec): Schema {
  return {
    type: 'object',
    properties: Object.fromEntries(node.fields.map((field) => [field.json, fieldSchema(field)])),
  };
}

/** The schema name of a record kind in `components`. */
const schemaName = (kind: string): string =>
  kind
    .split('-')
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('');

/** Which record kind a path reads or writes, when it is a record path of the API. */
const RECORD_PATHS: readonly (readonly [pattern: RegExp, kind: RecordKind])[] = [
  [/^\/api\/v1\/software\/\{id\}\/releases(\/\{release_id\})?$/, 'release'],
  [/^\/api\/v1\/software(\/\{id\})?$/, 'software'],
  [/^\/api\/v1\/instances(\/\{id\})?$/, 'instance'],
  [/^\/api\/v1\/runs(\/\{id\})?$/, 'run'],
  [/^\/api\/v1\/artifacts(\/\{id\})?$/, 'artifact'],
  [/^\/api\/v1\/types(\/\{id\})?$/, 'type'],
];

const problemResponse = (description: string) => ({
  description,
  content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
});

/**
 * The OpenAPI 3.1 description of the registry's HTTP interface, generated from what the server itself runs: every
 * route the application answers (its paths and methods), the record kinds' JSON shapes from the same descriptions
 * the mapper reads, and the problem codes from the error catalogue. It never drifts from the code.
 */
export function openApiDocument(app: Hono<AppEnv>, baseIri: string, version: string): Schema {
  const paths: Record<string, Record<string, Schema>> = {};
  for (const route of app.routes) {
    if (route.method === 'ALL') continue;
    const method = route.method.toLowerCase();
    const { template: path, params } = routePath(route.path);
    const operations = (paths[path] ??= {});
    if (operations[method] !== undefined) continue;
    const kind = RECORD_PATHS.find(([pattern]) => pattern.test(path))?.[1];
    const record = kind === undefined ? undefined : { $ref: `#/components/schemas/${schemaName(kind)}` };
    const listing = kind !== undefined && !path.endsWith('}');
    const ok =
      record === undefined
        ? { description: 'success' }
        : {
            description: 'success',
            content: {
              'application/json': {
                schema:
                  listing && method === 'get'
                    ? {
                        type: 'object',
                        properties: { items: { type: 'array', items: record }, total: { type: 'integer' } },
                      }
                    : record,
              },
            },
          };
    operations[method] = {
      operationId: `${method} ${path}`,
      ...(params.length === 0
        ? {}
        : {
            parameters: params.map((name) => ({
              name,
              in: 'path',
              required: true,
              schema: { type: 'string' },
            })),
          }),
      ...(['post', 'put', 'patch'].includes(method)
        ? {
            requestBody: {
              content: { 'application/json': { schema: record ?? { type: 'object' } } },
            },
          }
        : {}),
      responses: {
        [method === 'post' && listing ? '201' : method === 'delete' ? '204' : '200']:
          method === 'delete' ? { description: 'done' } : ok,
        '4XX': problemResponse('the request was refused; `code` says why'),
        '5XX': problemResponse('the registry could not answer'),
      },
    };
  }
  const schemas: Record<string, Schema> = {
    Problem: {
      type: 'object',
      description: 'RFC 9457 problem details',
      properties: {
        type: { type: 'string', format: 'uri' },
        title: { type: 'string' },
        status: { type: 'integer' },
        detail: { type: 'string' },
        code: { type: 'string', enum: Object.keys(ERROR_CODES) },
        errors: {
          type: 'array',
          items: { type: 'object', properties: { field: { type: 'string' }, message: { type: 'string' } } },
        },
      },
      required: ['type', 'title', 'status'],
    },
  };
  for (const entry of KINDS) {
    if (entry.spec === undefined || !DEREFERENCEABLE.has(entry.kind as RecordKind)) continue;
    schemas[schemaName(entry.kind)] = {
      ...nodeSchema(entry.spec),
      properties: {
        iri: { type: 'string', format: 'iri', readOnly: true },
        id: { type: 'string', readOnly: true },
        ...(nodeSchema(entry.spec).properties as Schema),
      },
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'reg',
      version,
      description:
        'A registry of software, its releases and deployments, the runs they performed and the artifacts those produced or consumed.',
    },
    servers: [{ url: baseIri }],
    paths: Object.fromEntries(Object.entries(paths).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))),
    components: {
      schemas,
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
    },
    security: [{}, { bearer: [] }],
  };
}
