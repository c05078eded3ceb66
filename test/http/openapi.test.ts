import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/core/core.js';
import { ADVERTISE_ANSWER, LINEAGE_ANSWER, LIST_PAGE, PROBLEM, SEARCH_ANSWER } from '../../src/api/index.js';
import { ERROR_CODES } from '../../src/core/error-codes.js';
import { routePath } from '../../src/http/allowed-methods.js';
import { createApp } from '../../src/http/app.js';
import { openTestCore } from '../helpers.js';

let core: Core;
let app: ReturnType<typeof createApp>;
let document: Record<string, any>;

beforeAll(async () => {
  core = await openTestCore({}, true);
  app = createApp(core);
  const response = await app.request('/api/v1/openapi.json');
  expect(response.status).toBe(200);
  document = (await response.json()) as Record<string, any>;
});
afterAll(async () => core.close());

describe('the OpenAPI description', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(document));
    expect(result.valid, JSON.stringify(result.errors ?? []).slice(0, 2000)).toBe(true);
    expect(validator.version).toBe('3.1');
    // The validator does refuse a broken description.
    const { info: _info, ...broken } = document;
    expect((await new Validator().validate(broken)).valid).toBe(false);
  });

  it('describes every route the server answers, and nothing else', () => {
    const answered = new Set(
      app.routes
        .filter((route) => route.method !== 'ALL')
        .map((route) => `${route.method.toLowerCase()} ${routePath(route.path).template}`),
    );
    const described = new Set(
      Object.entries(document.paths as Record<string, Record<string, unknown>>).flatMap(
        ([path, operations]) => Object.keys(operations).map((method) => `${method} ${path}`),
      ),
    );
    expect([...described].sort()).toEqual([...answered].sort());
    for (const needed of [
      'post /api/v1/advertise/produced',
      'get /api/v1/software/{id}',
      'get /sparql',
      'get /api/v1/openapi.json',
    ])
      expect(described.has(needed), needed).toBe(true);
  });

  it('takes record shapes from the record descriptions and problem codes from the catalogue', () => {
    const schemas = document.components.schemas as Record<string, any>;
    expect(Object.keys(schemas.Software.properties)).toEqual(
      expect.arrayContaining(['name', 'license', 'keywords']),
    );
    expect(schemas.Instance.properties.availability.enum).toContain('public');
    expect(schemas.Problem.properties.code.enum).toEqual(Object.keys(ERROR_CODES));
    expect(document.paths['/api/v1/software'].post.requestBody.content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/Software',
    });
  });

  it('takes the answers that are not records from src/api', () => {
    const schemas = document.components.schemas as Record<string, any>;
    expect(schemas.SearchAnswer).toEqual(SEARCH_ANSWER);
    expect(schemas.Lineage).toEqual(LINEAGE_ANSWER);
    expect(schemas.AdvertiseAnswer).toEqual(ADVERTISE_ANSWER);
    expect(Object.keys(schemas.Problem.properties)).toEqual(Object.keys(PROBLEM.properties));
    const ok = (path: string, method: string, status = '200') =>
      document.paths[path][method].responses[status].content['application/json'].schema;
    expect(ok('/api/v1/search', 'get')).toEqual({ $ref: '#/components/schemas/SearchAnswer' });
    expect(ok('/api/v1/artifacts/{id}/lineage', 'get')).toEqual({ $ref: '#/components/schemas/Lineage' });
    expect(ok('/api/v1/advertise/produced', 'post').allOf).toContainEqual({
      $ref: '#/components/schemas/AdvertiseAnswer',
    });
    const list = ok('/api/v1/software', 'get');
    expect(Object.keys(list.properties)).toEqual(Object.keys(LIST_PAGE.properties));
    expect(list.properties.items.items).toEqual({ $ref: '#/components/schemas/Software' });
    // What a read adds to the spec's fields is described too, as written by the registry only.
    expect(schemas.Software.properties.origin.readOnly).toBe(true);
    expect(schemas.Instance.properties.software_name.readOnly).toBe(true);
  });
});

describe('the lists in the OpenAPI description', () => {
  const queryOf = (path: string) =>
    ((document.paths[path].get.parameters ?? []) as any[]).filter((parameter) => parameter.in === 'query');

  it('documents the filters declared with each kind, which the list then honours', async () => {
    const instances = queryOf('/api/v1/instances');
    expect(instances.map((parameter) => parameter.name)).toEqual(
      expect.arrayContaining([
        'software',
        'release',
        'health',
        'availability',
        'label',
        'q',
        'limit',
        'cursor',
      ]),
    );
    expect(instances.find((parameter) => parameter.name === 'health').schema.enum).toEqual([
      'up',
      'down',
      'unknown',
    ]);
    expect(queryOf('/api/v1/runs').find((parameter) => parameter.name === 'status').schema.enum).toContain(
      'unknown',
    );
    expect(queryOf('/api/v1/software').map((parameter) => parameter.name)).toContain('produces');
    expect(queryOf('/api/v1/artifacts').map((parameter) => parameter.name)).toContain('content');
    // One record's read takes no list filters.
    expect(queryOf('/api/v1/instances/{id}')).toEqual([]);
    // A documented closed value is checked by the list: anything else is a 400 naming the parameter.
    const refused = await app.request('/api/v1/instances?health=sideways');
    expect(refused.status).toBe(400);
    const problem = (await refused.json()) as any;
    expect(problem.detail).toContain('health must be one of up, down, unknown');
    expect(problem.errors[0].field).toBe('health');
  });
});

describe('the answers about access and operations in the OpenAPI description', () => {
  it('names the shapes src/api declares for tokens, whoami, subscriptions and peers', () => {
    const schemaOf = (method: string, path: string) => {
      const ok = document.paths[path][method].responses;
      const content = (ok['200'] ?? ok['201']).content['application/json'].schema;
      return JSON.stringify(content);
    };
    expect(schemaOf('get', '/api/v1/whoami')).toContain('#/components/schemas/Whoami');
    expect(schemaOf('get', '/api/v1/instances/{id}/tokens')).toContain('#/components/schemas/TokenList');
    expect(schemaOf('post', '/api/v1/software/{id}/tokens')).toContain('#/components/schemas/MintedToken');
    expect(schemaOf('get', '/api/v1/subscriptions/{id}/deliveries')).toContain(
      '#/components/schemas/DeliveryPage',
    );
    expect(schemaOf('get', '/api/v1/peers')).toContain('#/components/schemas/PeerList');
    const schemas = document.components.schemas as Record<string, any>;
    expect(schemas.Whoami.properties.credential.enum).toContain('oidc-workload');
    expect(schemas.SubscriptionDetail.properties.recent_deliveries.items.properties.status.enum).toContain(
      'delivered',
    );
  });
});
