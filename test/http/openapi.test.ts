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
