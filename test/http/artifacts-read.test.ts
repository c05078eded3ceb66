import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveCredential } from '../../src/core/access/credentials.js';
import type { Core } from '../../src/core/core.js';
import { ARTIFACT } from '../../src/core/records/activity-specs.js';
import { requireStored, tombstoneRecord } from '../../src/core/stored/records.js';
import { actOf } from '../../src/core/stored/write-path.js';
import { createApp } from '../../src/http/app.js';
import { openTestCore, ROOT_TOKEN } from '../helpers.js';

let core: Core;
let app: ReturnType<typeof createApp>;
let tokenA: string;
let tokenB: string;
let softwareB: Record<string, any>;
let instanceA: Record<string, any>;
let instanceB: Record<string, any>;
let producing: string;
let consuming: string;
const a: Record<string, string> = {};
const BASE = 'http://registry.test';
const root = { authorization: `Bearer ${ROOT_TOKEN}`, 'content-type': 'application/json' };
const TYPE = 'http://edamontology.org/data_0006';
const CC_BY = 'https://spdx.org/licenses/CC-BY-4.0';
const SHA256 = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';
const NI = 'ni:///sha-256;47DEQpj8HBSa-_TImW-5JCeuQeRkm5NMpJWZG3hSuFU';
const SHA512 = 'ab'.repeat(64);

async function post(path: string, body: unknown, bearer: string) {
  const response = await app.request(path, {
    method: 'POST',
    headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const json = (await response.json()) as Record<string, any>;
  expect(response.status, JSON.stringify(json)).toBeLessThan(300);
  return json;
}

async function get(path: string) {
  const response = await app.request(path);
  return { status: response.status, headers: response.headers, body: (await response.json()) as any };
}

/** The titles of the artifacts a list query returns, sorted. */
async function titles(query: string): Promise<string[]> {
  const { status, body } = await get(`/api/v1/artifacts?${query}`);
  expect(status, JSON.stringify(body)).toBe(200);
  return (body.items as any[]).map((item) => item.title as string).sort();
}

beforeAll(async () => {
  core = await openTestCore({}, true);
  app = createApp(core);
  const softwareA = await post('/api/v1/software', { name: 'shacl-manager' }, ROOT_TOKEN);
  softwareB = await post('/api/v1/software', { name: 'obda-demo' }, ROOT_TOKEN);
  instanceA = await post('/api/v1/instances', { software: softwareA.id, label: 'a' }, ROOT_TOKEN);
  instanceB = await post('/api/v1/instances', { software: softwareB.id, label: 'b' }, ROOT_TOKEN);
  tokenA = (await post(`/api/v1/instances/${instanceA.id}/tokens`, {}, ROOT_TOKEN)).token;
  tokenB = (await post(`/api/v1/instances/${instanceB.id}/tokens`, {}, ROOT_TOKEN)).token;
  await post('/api/v1/types', { slug: 'rdf-graph', label: 'RDF graph' }, ROOT_TOKEN);
  const produced = await post(
    '/api/v1/advertise/produced',
    {
      run: { external_key: 'job-1' },
      artifacts: [
        {
          title: 'Public report',
          description: 'Shapes checked nightly',
          conforms_to: TYPE,
          license: CC_BY,
          keywords: ['shacl shapes', 'nightly'],
          distributions: [
            {
              download_url: 'https://data.example.org/report.ttl',
              media_type: 'text/turtle',
              checksum: { algorithm: 'sha256', value: SHA256 },
            },
          ],
        },
        {
          title: 'Restricted graph',
          conforms_to: `${BASE}/type/rdf-graph`,
          distributions: [
            {
              access_url: 'https://data.example.org/graphs/1',
              availability: 'restricted',
              access_protocol: 'https',
              auth_method: 'apikey',
            },
            { download_url: 'https://data.example.org/graphs/1.nq', availability: 'embargoed' },
          ],
        },
        {
          title: 'Batch 3 report',
          conforms_to: TYPE,
          distributions: [
            {
              availability: 'metadata-only',
              download_url: 'https://data.example.org/never.ttl',
              access_request_url: 'https://data.example.org/ask',
            },
          ],
        },
        { title: 'Bare record', conforms_to: TYPE },
        {
          title: 'Mixed copies',
          conforms_to: TYPE,
          distributions: [
            { download_url: 'https://data.example.org/mixed-1', availability: 'embargoed' },
            {
              download_url: 'https://data.example.org/mixed-2',
              checksum: { algorithm: 'SHA-512', value: SHA512 },
            },
          ],
        },
        { title: 'Withdrawn report', conforms_to: TYPE, keywords: ['nightly'] },
      ],
    },
    tokenA,
  );
  producing = produced.run;
  for (const [index, iri] of (produced.artifacts as string[]).entries())
    a[['public', 'restricted', 'meta', 'bare', 'mixed', 'withdrawn'][index]!] = iri;
  consuming = (
    await post(
      '/api/v1/advertise/consumed',
      { run: { external_key: 'job-9' }, artifacts: [{ iri: a.public }] },
      tokenB,
    )
  ).run;
  a.direct = (
    await post('/api/v1/artifacts', { title: 'Directly registered', conforms_to: TYPE }, tokenA)
  ).iri;
  const principal = await resolveCredential(core, `Bearer ${ROOT_TOKEN}`);
  await tombstoneRecord(core, ARTIFACT, await requireStored(core, ARTIFACT, a.withdrawn!), actOf(principal));
});
afterAll(async () => core.close());

const idOf = (iri: string) => iri.slice(iri.lastIndexOf('/') + 1);
const ALL = [
  'Bare record',
  'Batch 3 report',
  'Directly registered',
  'Mixed copies',
  'Public report',
  'Restricted graph',
];

describe('GET /api/v1/artifacts', () => {
  it('lists live artifacts newest first and pages with a cursor; withdrawn ones are left out', async () => {
    const all = await get('/api/v1/artifacts');
    expect(all.body.total).toBe(6);
    expect((all.body.items as any[]).map((item) => item.title).sort()).toEqual(ALL);
    const iris = (all.body.items as any[]).map((item) => item.iri);
    expect(iris).toEqual([...iris].sort().reverse());
    expect(iris[0]).toBe(a.direct);
    const first = await get('/api/v1/artifacts?limit=4');
    expect(first.body.items).toHaveLength(4);
    const rest = await get(`/api/v1/artifacts?limit=4&cursor=${encodeURIComponent(first.body.next_cursor)}`);
    expect([...first.body.items, ...rest.body.items].map((item: any) => item.iri)).toEqual(iris);
    expect(rest.body.next_cursor).toBeUndefined();
    expect((await get(`/api/v1/artifacts/${idOf(a.withdrawn!)}`)).body.tombstoned).toBe(true);
  });

  it('filters by q, conforms_to and license', async () => {
    expect(await titles('q=NIGHTLY')).toEqual(['Public report']);
    expect(await titles('q=report')).toEqual(['Batch 3 report', 'Public report']);
    expect(await titles('conforms_to=rdf-graph')).toEqual(['Restricted graph']);
    expect(await titles(`conforms_to=${encodeURIComponent(`${BASE}/type/rdf-graph`)}`)).toEqual([
      'Restricted graph',
    ]);
    expect(await titles(`conforms_to=${encodeURIComponent(TYPE)}`)).toHaveLength(5);
    expect(await titles('license=CC-BY-4.0')).toEqual(['Public report']);
    expect(await titles(`license=${encodeURIComponent(CC_BY)}`)).toEqual(['Public report']);
  });

  it('filters by the derived availability: the most open distribution, metadata-only without one', async () => {
    expect(await titles('availability=public')).toEqual(['Mixed copies', 'Public report']);
    expect(await titles('availability=restricted')).toEqual(['Restricted graph']);
    expect(await titles('availability=embargoed')).toEqual([]);
    expect(await titles('availability=metadata-only')).toEqual([
      'Bare record',
      'Batch 3 report',
      'Directly registered',
    ]);
    const listed = await get('/api/v1/artifacts?availability=restricted');
    expect(listed.body.items[0].availability).toBe('restricted');
    const bad = await get('/api/v1/artifacts?availability=open');
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('bad-request');
  });

  it('filters by keyword: list label, slug, alias or concept IRI, else the literal keyword', async () => {
    for (const value of ['SHACL', 'shacl', 'shapes constraint language', `${BASE}/keyword/shacl`])
      expect(await titles(`keyword=${encodeURIComponent(value)}`), value).toEqual(['Public report']);
    expect(await titles('keyword=Nightly')).toEqual(['Public report']);
    expect(await titles('keyword=owl')).toEqual([]);
    expect(await titles('keyword=unheard-of')).toEqual([]);
  });

  it('filters by the deployment, software and run that produced or consumed an artifact', async () => {
    const produced = ['Bare record', 'Batch 3 report', 'Mixed copies', 'Public report', 'Restricted graph'];
    expect(await titles(`instance=${instanceA.id}`)).toEqual([...produced, 'Directly registered'].sort());
    expect(await titles(`instance=${encodeURIComponent(instanceB.iri)}`)).toEqual(['Public report']);
    expect(await titles(`software=${softwareB.id}`)).toEqual(['Public report']);
    expect(await titles(`run=${idOf(producing)}`)).toEqual(produced);
    expect(await titles(`run=${encodeURIComponent(consuming)}`)).toEqual(['Public report']);
    expect(await titles(`run=${idOf(consuming)}&instance=${instanceB.id}&software=${softwareB.id}`)).toEqual([
      'Public report',
    ]);
    const mine = await get(`/api/v1/instances/${instanceB.id}/artifacts`);
    expect(mine.body).toMatchObject({ total: 1, items: [{ iri: a.public }] });
    expect((await get(`/api/v1/instances/${instanceA.id}/artifacts`)).body.total).toBe(6);
  });

  it('finds artifacts by content: an ni name, a bare hex or base64 digest; garbage matches nothing', async () => {
    expect(await titles(`content=${encodeURIComponent(NI)}`)).toEqual(['Public report']);
    expect(await titles(`content=${SHA256}`)).toEqual(['Public report']);
    expect(await titles(`content=${SHA256.toUpperCase()}`)).toEqual(['Public report']);
    const base64 = Buffer.from(SHA256, 'hex').toString('base64');
    expect(await titles(`content=${encodeURIComponent(base64)}`)).toEqual(['Public report']);
    expect(await titles(`content=${encodeURIComponent(`sha-256:${SHA256}`)}`)).toEqual(['Public report']);
    expect(await titles(`content=${SHA512}`)).toEqual(['Mixed copies']);
    for (const garbage of ['zzz', SHA256.slice(2), 'ni:///md5;abc', 'ni:///sha-256;not*base64'])
      expect(await get(`/api/v1/artifacts?content=${encodeURIComponent(garbage)}`), garbage).toMatchObject({
        status: 200,
        body: { items: [], total: 0 },
      });
  });

  it('filters by registry', async () => {
    expect(await titles('registry=local')).toEqual(ALL);
    expect(await titles('registry=some-peer')).toEqual([]);
    expect((await get('/api/v1/artifacts?registry=not%20a%20peer')).status).toBe(400);
  });
});

describe('GET /api/v1/artifacts/{id}', () => {
  it('reads anonymously with the same Signposting links as the IRI, rel="item" only for obtainable bytes', async () => {
    const publicOne = await get(`/api/v1/artifacts/${idOf(a.public!)}`);
    expect(publicOne.status).toBe(200);
    expect(publicOne.body).toMatchObject({
      iri: a.public,
      availability: 'public',
      content_identifiers: [NI],
      was_generated_by: producing,
    });
    const link = publicOne.headers.get('link')!;
    expect(link).toContain(`<${a.public}>; rel="cite-as"`);
    expect(link).toContain('<https://data.example.org/report.ttl>; rel="item"; type="text/turtle"');
    expect(link).toContain(`<${TYPE}>; rel="type"`);
    expect(link).toContain(`<${CC_BY}>; rel="license"`);
    const dereferenced = await app.request(new URL(a.public!).pathname, {
      headers: { accept: 'text/turtle' },
    });
    expect(dereferenced.headers.get('link')).toBe(link);
    for (const key of ['meta', 'bare']) {
      const record = await get(`/api/v1/artifacts/${idOf(a[key]!)}`);
      expect(record.body.availability).toBe('metadata-only');
      expect(record.headers.get('link'), key).not.toContain('rel="item"');
    }
  });

  it('answers 404 for an artifact it does not hold', async () => {
    const missing = await get('/api/v1/artifacts/0190aaaa-0000-7000-8000-000000000000');
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('not-found');
    expect((await get(`/api/v1/artifacts/${idOf(producing)}`)).status).toBe(404);
  });

  it('dereferences artifact IRIs as Turtle and under the /artifacts/ alias', async () => {
    const path = new URL(a.public!).pathname;
    const turtle = await app.request(path, { headers: { accept: 'text/turtle' } });
    expect(turtle.status).toBe(200);
    expect(turtle.headers.get('content-type')).toBe('text/turtle; charset=utf-8');
    const text = await turtle.text();
    expect(text).toContain('dcat:Dataset');
    expect(text).toContain('"Public report"');
    expect(text).toContain(`<${NI}>`);
    const alias = await app.request(`${path.replace('/artifact/', '/artifacts/')}.ttl`);
    expect(alias.status).toBe(200);
    const json = await app.request(`${path}.json`);
    expect(((await json.json()) as any).iri).toBe(a.public);
  });

  it('leaves POST /api/v1/artifacts to registration (a refused one proves who answered)', async () => {
    const response = await app.request('/api/v1/artifacts', {
      method: 'POST',
      headers: root,
      body: JSON.stringify({ title: 'Refused', conforms_to: 'https://example.org/no-such-type' }),
    });
    expect(response.status).toBe(422);
    expect(((await response.json()) as any).code).toBe('shacl-validation-failed');
  });
});
