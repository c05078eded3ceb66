import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/core/core.js';
import { listAudit } from '../../src/core/store/audit.js';
import { createApp } from '../../src/http/app.js';
import { openTestCore, ROOT_TOKEN } from '../helpers.js';

let core: Core;
let app: ReturnType<typeof createApp>;
let closed: Core;
let closedApp: ReturnType<typeof createApp>;
const EMPTY_SHA256 = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';
const EMPTY_NI = 'ni:///sha-256;47DEQpj8HBSa-_TImW-5JCeuQeRkm5NMpJWZG3hSuFU';
const TYPE = 'http://edamontology.org/data_0006';

async function identify(body: unknown, target = app, headers: Record<string, string> = {}) {
  const response = await target.request('/api/v1/artifacts/identify', {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return {
    status: response.status,
    type: response.headers.get('content-type'),
    body: (await response.json()) as any,
  };
}

async function identifyGet(query: string, target = app) {
  const response = await target.request(`/api/v1/artifacts/identify?${query}`);
  return { status: response.status, body: (await response.json()) as any };
}

beforeAll(async () => {
  core = await openTestCore({}, true);
  app = createApp(core);
  closed = await openTestCore({ REG_PUBLIC_READ: 'false' }, true);
  closedApp = createApp(closed);
});
afterAll(async () => {
  await core.close();
  await closed.close();
});

describe('POST|GET /api/v1/artifacts/identify', () => {
  it('names the empty file (RFC 6920 test vector) with how to compute it', async () => {
    const { status, body } = await identify({ algorithm: 'sha256', value: EMPTY_SHA256 });
    expect(status).toBe(200);
    expect(body).toMatchObject({
      content_identifier: EMPTY_NI,
      algorithm: 'sha-256',
      digest_hex: EMPTY_SHA256,
      digest_base64url: '47DEQpj8HBSa-_TImW-5JCeuQeRkm5NMpJWZG3hSuFU',
      find: `http://registry.test/api/v1/artifacts?content=${encodeURIComponent(EMPTY_NI)}`,
    });
    expect(body.how_to_compute).toMatchObject({
      algorithms: ['sha-256', 'sha-384', 'sha-512'],
      specification: 'https://www.rfc-editor.org/rfc/rfc6920',
    });
    for (const key of ['summary', 'shell', 'shell_digest_only', 'python', 'javascript'])
      expect(typeof body.how_to_compute[key], key).toBe('string');
    expect(body.how_to_compute.shell_digest_only).toContain('sha256sum');
  });

  it('defaults to sha256, folds algorithm names and reads hex in either case or base64', async () => {
    const base64 = Buffer.from(EMPTY_SHA256, 'hex').toString('base64');
    for (const body of [
      { value: EMPTY_SHA256 },
      { algorithm: 'SHA-256', value: EMPTY_SHA256.toUpperCase() },
      { algorithm: 'sha2-256', value: base64 },
      { algorithm: 'sha_256', value: '47DEQpj8HBSa-_TImW-5JCeuQeRkm5NMpJWZG3hSuFU' },
    ])
      expect((await identify(body)).body.content_identifier, JSON.stringify(body)).toBe(EMPTY_NI);
    const get = await identifyGet(`algorithm=SHA-256&value=${EMPTY_SHA256}`);
    expect(get.status).toBe(200);
    expect(get.body.content_identifier).toBe(EMPTY_NI);
    const sha512 = await identify({ algorithm: 'sha512', value: 'cd'.repeat(64) });
    expect(sha512.body.content_identifier).toBe(
      `ni:///sha-512;${Buffer.from('cd'.repeat(64), 'hex').toString('base64url')}`,
    );
  });

  it('needs a value (400) and refuses bytes (422 bytes-not-accepted)', async () => {
    for (const body of [{}, { algorithm: 'sha256' }, { value: '  ' }]) {
      const { status, body: problem } = await identify(body);
      expect(status, JSON.stringify(body)).toBe(400);
      expect(problem.code).toBe('bad-request');
    }
    expect((await identifyGet('algorithm=sha256')).status).toBe(400);
    for (const member of ['bytes', 'data']) {
      const { status, type, body } = await identify({ [member]: 'aGVsbG8=', value: EMPTY_SHA256 });
      expect(status).toBe(422);
      expect(type).toBe('application/problem+json');
      expect(body.type).toBe('https://w3id.org/reg/problem/bytes-not-accepted');
      expect(body.detail).toContain('sha256sum');
    }
    expect((await identifyGet('data=aGVsbG8=')).body.code).toBe('bytes-not-accepted');
  });

  it('refuses unknown and non-naming algorithms and malformed digests (422 invalid-checksum)', async () => {
    const cases = [
      [{ algorithm: 'crc32', value: EMPTY_SHA256 }, 'algorithm'],
      [{ algorithm: 'md5', value: 'd41d8cd98f00b204e9800998ecf8427e' }, 'algorithm'],
      [{ algorithm: 'sha1', value: 'da39a3ee5e6b4b0d3255bfef95601890afd80709' }, 'algorithm'],
      [{ algorithm: 'sha256', value: EMPTY_SHA256.slice(2) }, 'value'],
      [{ algorithm: 'sha256', value: 'not a digest at all' }, 'value'],
      [{ algorithm: 'sha384', value: EMPTY_SHA256 }, 'value'],
    ] as const;
    for (const [body, field] of cases) {
      const { status, body: problem } = await identify(body);
      expect(status, JSON.stringify(body)).toBe(422);
      expect(problem.code).toBe('invalid-checksum');
      expect(problem.type).toBe('https://w3id.org/reg/problem/invalid-checksum');
      expect(problem.field).toBe(field);
      expect(problem.algorithms).toEqual(['sha-256', 'sha-384', 'sha-512']);
    }
    expect((await identify({ algorithm: 'sha256', value: 'abc' })).body.expected_hex_characters).toBe(64);
  });

  it('is pure: nothing is written, audited or counted', async () => {
    const audits = listAudit(core.db, { limit: 1000 }).length;
    const quads = await core.graph.countQuads();
    const generation = core.graph.generation;
    await identify({ value: EMPTY_SHA256 });
    await identifyGet(`value=${EMPTY_SHA256}`);
    expect(listAudit(core.db, { limit: 1000 })).toHaveLength(audits);
    expect(await core.graph.countQuads()).toBe(quads);
    expect(core.graph.generation).toBe(generation);
  });

  it('finds, through its find link, an artifact advertised with that checksum', async () => {
    const software = await (
      await app.request('/api/v1/software', {
        method: 'POST',
        headers: { authorization: `Bearer ${ROOT_TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'empty-file-maker' }),
      })
    ).json();
    const artifact = await (
      await app.request('/api/v1/artifacts', {
        method: 'POST',
        headers: { authorization: `Bearer ${ROOT_TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          title: 'An empty file',
          conforms_to: TYPE,
          distributions: [
            {
              download_url: 'https://data.example.org/empty',
              checksum: { algorithm: 'sha256', value: EMPTY_SHA256 },
            },
          ],
        }),
      })
    ).json();
    void software;
    const { body } = await identify({ value: EMPTY_SHA256 });
    const found = await (await app.request(new URL(body.find).pathname + new URL(body.find).search)).json();
    expect(found).toMatchObject({ total: 1, items: [{ iri: (artifact as any).iri }] });
  });

  it('counts as a read: anonymous callers are refused when reads are not public', async () => {
    const anonymous = await identify({ value: EMPTY_SHA256 }, closedApp);
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.code).toBe('unauthorized');
    expect((await identifyGet(`value=${EMPTY_SHA256}`, closedApp)).status).toBe(401);
    const withCredential = await identify({ value: EMPTY_SHA256 }, closedApp, {
      authorization: `Bearer ${ROOT_TOKEN}`,
    });
    expect(withCredential.status).toBe(200);
    expect((await identify({ value: EMPTY_SHA256 })).status).toBe(200);
  });
});
