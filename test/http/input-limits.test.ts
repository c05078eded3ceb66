import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/core/core.js';
import { GRAPHS } from '../../src/core/ns.js';
import { createApp } from '../../src/http/app.js';
import { openTestCore } from '../helpers.js';
import { apiOf, artifact, type Json } from '../support/api.js';

/*
 * The bounds on what a request may hold, and the refusals of text that is not text and IRIs that are not IRIs:
 * each with its problem code, the field or parameter named, and nothing written.
 */

let core: Core;
let app: ReturnType<typeof createApp>;
let api: ReturnType<typeof apiOf>;

beforeAll(async () => {
  core = await openTestCore({ REG_MAX_LIST_ITEMS: '50', REG_MAX_JSON_DEPTH: '16' }, true);
  app = createApp(core);
  api = apiOf(app);
});
afterAll(async () => core.close());

/** Records of the local graph and audit entries: what a refused request must leave as it found it. */
async function written(): Promise<string> {
  const kinds = JSON.stringify([...(await core.graph.countByKind(GRAPHS.local))].sort());
  const audit = JSON.stringify(core.db.prepare('SELECT count(*) AS n FROM audit').get());
  return `${kinds} ${audit}`;
}

/** Sends raw body text or bytes as JSON and expects a problem with this status and code; nothing is written. */
async function refused(
  method: string,
  path: string,
  body: string | Uint8Array,
  status: number,
  code: string,
) {
  const before = await written();
  const response = await app.request(path, {
    method,
    headers: { authorization: 'Bearer test-root-token-0123456789abcdef', 'content-type': 'application/json' },
    body,
  });
  const problem = (await response.json()) as Json;
  expect(response.status, JSON.stringify(problem)).toBe(status);
  expect(response.headers.get('content-type')).toBe('application/problem+json');
  expect(problem.code).toBe(code);
  expect(await written()).toBe(before);
  return problem;
}

const items = (count: number, prefix = 'https://data.example.org/source/') =>
  Array.from({ length: count }, (_, at) => `${prefix}${at}`);

describe('list fields (REG_MAX_LIST_ITEMS)', () => {
  it('takes a list at the limit and refuses one past it, naming each field that is too long', async () => {
    await api.call('POST', '/api/v1/software', 201, { name: 'at the limit', keywords: items(50, 'kw ') });
    const problem = await refused(
      'POST',
      '/api/v1/software',
      JSON.stringify({
        name: 'past it',
        keywords: items(51, 'kw '),
        screenshots: items(60),
        topics: items(3),
      }),
      422,
      'too-many-items',
    );
    expect(problem.limit).toBe(50);
    expect(problem.errors.map((error: Json) => error.field)).toEqual(['screenshots', 'keywords']);
    expect(problem.detail).toContain(
      'keywords holds 51 values; at most 50 are accepted (REG_MAX_LIST_ITEMS)',
    );
  });

  it('names the artifact of an advertisement and the nested list it concerns', async () => {
    const { token } = await api.deployment(undefined, 'lists');
    const response = await api.send(
      'POST',
      '/api/v1/advertise/produced',
      {
        run: { external_key: 'long lists' },
        artifacts: [artifact('fine'), artifact('too long', { was_derived_from: items(51) })],
      },
      token,
    );
    const problem = await api.expectStatus(response, 422);
    expect(problem.code).toBe('too-many-items');
    expect(problem.errors).toEqual([
      {
        field: 'artifacts[1].was_derived_from',
        message:
          'artifacts[1].was_derived_from holds 51 values; at most 50 are accepted (REG_MAX_LIST_ITEMS)',
      },
    ]);
    const release = await api.call('POST', '/api/v1/software', 201, { name: 'with downloads' });
    const downloads = items(51).map((url) => ({ url }));
    const nested = await api.call('POST', `/api/v1/software/${release.id}/releases`, 422, {
      version: '1',
      capability: { produces: items(51) },
      downloads,
    });
    expect(nested.errors.map((error: Json) => error.field)).toEqual(['downloads', 'capability.produces']);
  });
});

describe('request bodies', () => {
  it('refuses nesting past REG_MAX_JSON_DEPTH before reading the body, and takes it up to the limit', async () => {
    const nested = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
    const created = await api.call('POST', '/api/v1/software', 201, { name: 'nested' });
    // A member no record defines, 15 levels deep in a body of 16 levels: read, then ignored with a warning.
    const ok = await app.request(`/api/v1/software/${created.id}`, {
      method: 'PATCH',
      headers: {
        authorization: 'Bearer test-root-token-0123456789abcdef',
        'content-type': 'application/json',
      },
      body: `{"extra":${nested(15)}}`,
    });
    expect(ok.status).toBe(200);
    const problem = await refused(
      'PATCH',
      `/api/v1/software/${created.id}`,
      `{"sync":${nested(16)}}`,
      400,
      'too-deep',
    );
    expect(problem.limit).toBe(16);
    await refused(
      'POST',
      '/api/v1/openlineage',
      `${'['.repeat(100_000)}${']'.repeat(100_000)}`,
      400,
      'too-deep',
    );
    // Brackets inside strings are text, not nesting.
    await api.call('POST', '/api/v1/software', 201, { name: `${'{['.repeat(40)} brackets` });
  });

  it('refuses bytes that are not UTF-8 (400) and lone surrogates (422 naming where they are)', async () => {
    const bytes = Buffer.concat([Buffer.from('{"name":"caf'), Buffer.from([0xe9]), Buffer.from('"}')]);
    await refused('POST', '/api/v1/software', bytes, 400, 'invalid-utf8');
    const problem = await refused(
      'POST',
      '/api/v1/software',
      '{"name":"ok","publisher":{"name":"a\\ud800b"},"keywords":["fine","\\udc00"]}',
      422,
      'invalid-text',
    );
    expect(problem.errors.map((error: Json) => error.field)).toEqual(['publisher.name', 'keywords[1]']);
    // A well-formed pair is text, and is kept as it was sent.
    const kept = await api.call('POST', '/api/v1/software', 201, { name: 'smile \ud83d\ude00' });
    expect(kept.name).toBe('smile \ud83d\ude00');
  });

  it('never commits a type whose IRI holds a lone surrogate', async () => {
    await refused(
      'POST',
      '/api/v1/types',
      '{"label":"Broken","iri":"http://a.test/type/\\ud800"}',
      422,
      'invalid-text',
    );
    const audit = await api.call('GET', '/api/v1/audit?action=type.create', 200);
    expect(audit.items).toEqual([]);
    const types = await api.call('GET', '/api/v1/types', 200);
    expect(types.items.map((type: Json) => type.label)).not.toContain('Broken');
  });
});

describe('IRIs', () => {
  it('refuses a field holding a string that is not an IRI by RFC 3987, naming the field and the reason', async () => {
    for (const [text, reason] of [
      ['%zz', /two hex digits/],
      ['\u007f', /U\+007F/],
      ['\u0085', /U\+0085/],
      ['\ufffd', /U\+FFFD/],
      ['\u0000', /U\+0000/],
      ['\u001f', /U\+001F/],
    ] as const) {
      const problem = await refused(
        'POST',
        '/api/v1/software',
        JSON.stringify({ name: 'links', homepage: `https://a.test/${text}` }),
        422,
        'shacl-validation-failed',
      );
      expect(problem.errors).toEqual([{ field: 'homepage', message: expect.stringMatching(reason) }]);
    }
  });

  it('refuses such a string in a query parameter the server puts into SPARQL (400 naming the parameter)', async () => {
    for (const [path, param] of [
      ['/api/v1/artifacts?conforms_to=http://a.test/%25zz', 'conforms_to'],
      ['/api/v1/artifacts?software=http://a.test/%3E%20%7D', 'software'],
      ['/api/v1/runs?instance=http://a.test/%00', 'instance'],
      ['/api/v1/capabilities?produces=http://a.test/%C2%85', 'produces'],
      ['/api/v1/graph?iri=http://a.test/%7F', 'iri'],
    ] as const) {
      const problem = await api.call('GET', path, 400);
      expect(problem.code).toBe('bad-request');
      expect(problem.errors?.[0]?.field ?? problem.detail, path).toContain(param);
    }
  });

  it('answers a search for text holding NUL', async () => {
    const search = await app.request('/api/v1/search?q=a%00b');
    expect(search.status).toBe(200);
    expect(((await search.json()) as Json).query).toBe('a b');
  });

  it('refuses a federated SPARQL query (400), whichever store would run it', async () => {
    const query = 'SELECT * WHERE { SERVICE <http://127.0.0.1:1/sparql> { ?s ?p ?o } }';
    const sparql = await app.request(`/sparql?query=${encodeURIComponent(query)}`);
    expect(sparql.status).toBe(400);
    expect(((await sparql.json()) as Json).detail).toContain('SERVICE');
  });
});
