import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/core/core.js';
import { getRelease } from '../../src/core/catalogue/releases.js';
import { createApp } from '../../src/http/app.js';
import { openTestCore, ROOT_TOKEN } from '../helpers.js';

let core: Core;
let app: ReturnType<typeof createApp>;
const auth = { authorization: `Bearer ${ROOT_TOKEN}`, 'content-type': 'application/json' };
const DATA = 'http://edamontology.org/data_0006';
const REG = 'https://w3id.org/reg/ns#';

beforeAll(async () => {
  core = await openTestCore({}, true);
  app = createApp(core);
});
afterAll(async () => core.close());

const send = (method: string, path: string, body?: unknown, headers: Record<string, string> = auth) =>
  app.request(path, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
const json = async (response: Response) => (await response.json()) as Record<string, any>;
const iris = (list: Record<string, any>) => list.items.map((item: { iri: string }) => item.iri) as string[];

async function software(name = 'release-test'): Promise<Record<string, any>> {
  const response = await send('POST', '/api/v1/software', { name });
  expect(response.status).toBe(201);
  return json(response);
}
const releasesOf = async (id: string) => json(await app.request(`/api/v1/software/${id}/releases`));
const softwareRead = async (id: string) => json(await app.request(`/api/v1/software/${id}`));
const releaseExists = (softwareIri: string) =>
  core.graph.ask(`ASK { GRAPH ?g { ?r <http://purl.org/dc/terms/isVersionOf> <${softwareIri}> } }`);

describe('releases', () => {
  it('creates a release with the full record, its software taken from the path', async () => {
    const sw = await software('shacl-manager');
    const other = await software('someone-else');
    const response = await send('POST', `/api/v1/software/${sw.id}/releases`, {
      version: '1.2.0',
      software: other.iri,
      date_published: '2026-01-31',
      container_image: 'ghcr.io/example/shacl-manager:1.2.0',
      image_digest: 'sha256:0123abcd',
      changelog: 'https://example.org/changelog',
      downloads: [
        { url: 'https://example.org/dl/linux', platform: 'linux-amd64', byte_size: 1024 },
        { url: 'https://example.org/dl/mac', availability: 'restricted' },
      ],
      capability: { produces: [DATA], consumes: [] },
    });
    const body = await json(response);
    expect(response.status, JSON.stringify(body)).toBe(201);
    expect(body.iri).toMatch(/^http:\/\/registry\.test\/release\/[0-9a-f-]{36}$/);
    expect(body).toMatchObject({
      id: body.iri.slice(body.iri.lastIndexOf('/') + 1),
      version: '1.2.0',
      software: sw.iri,
      software_name: 'shacl-manager',
      date_published: '2026-01-31',
      image_digest: 'sha256:0123abcd',
      origin: { kind: 'local' },
    });
    expect(body.downloads).toEqual([
      { url: 'https://example.org/dl/linux', platform: 'linux-amd64', byte_size: 1024 },
      { url: 'https://example.org/dl/mac', availability: 'restricted' },
    ]);
    expect(body.capability).toMatchObject({ iri: `${body.iri}#capability`, declared_at: 'release' });
    expect(body.capability.produces[0]).toMatchObject({ iri: DATA, label: 'Data', source: 'bundled' });
    expect(body.tombstoned).toBeUndefined();

    expect(await getRelease(core, body.id)).toEqual(body);
    expect(await getRelease(core, body.iri)).toEqual(body);
    expect(iris(await releasesOf(other.id))).toEqual([]);
    const read = await softwareRead(sw.id);
    expect(read.release_count).toBe(1);
    expect(read.latest_release).toMatchObject({ iri: body.iri, version: '1.2.0' });

    const audit = await json(await app.request('/api/v1/audit?action=release.create', { headers: auth }));
    expect(audit.items.map((entry: { target: string }) => entry.target)).toContain(body.iri);
  });

  it('lists live releases newest first and allows duplicate versions', async () => {
    const sw = await software();
    const first = await json(await send('POST', `/api/v1/software/${sw.id}/releases`, { version: '1.0' }));
    const second = await send('POST', `/api/v1/software/${sw.id}/releases`, { version: '1.0' });
    expect(second.status).toBe(201);
    const again = await json(second);
    expect(again.iri).not.toBe(first.iri);
    const list = await releasesOf(sw.id);
    expect(list.total).toBe(2);
    expect(iris(list)).toEqual([again.iri, first.iri]);
    expect(list.next_cursor).toBeUndefined();
    expect((await softwareRead(sw.id)).release_count).toBe(2);
  });

  it('refuses an invalid release naming every field, and writes nothing', async () => {
    const sw = await software();
    const response = await send('POST', `/api/v1/software/${sw.id}/releases`, {
      date_published: 'last tuesday',
      image_digest: 'not a digest',
      downloads: [{ platform: 'linux' }, { url: 'https://example.org/x', availability: 'secret' }],
      capability: {
        produces: ['https://example.org/unknown-type'],
        consumes: ['http://edamontology.org/topic_0003'],
      },
    });
    const body = await json(response);
    expect(response.status).toBe(422);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    expect(body.code).toBe('shacl-validation-failed');
    const fields = body.errors.map((e: { field: string }) => e.field).sort();
    expect(fields).toEqual([
      'capability.consumes',
      'capability.produces',
      'date_published',
      'downloads[0].url',
      'downloads[1].availability',
      'image_digest',
      'version',
    ]);
    expect(await releaseExists(sw.iri)).toBe(false);
    expect((await releasesOf(sw.id)).total).toBe(0);
    expect((await softwareRead(sw.id)).release_count).toBe(0);
  });

  it('withdraws a release through its own software only', async () => {
    const sw = await software();
    const other = await software();
    const release = await json(await send('POST', `/api/v1/software/${sw.id}/releases`, { version: '2.0' }));

    const elsewhere = await send('DELETE', `/api/v1/software/${other.id}/releases/${release.id}`);
    expect(elsewhere.status).toBe(404);
    expect((await json(elsewhere)).code).toBe('not-found');
    expect((await getRelease(core, release.id)).tombstoned).toBeUndefined();
    expect(
      (await send('DELETE', `/api/v1/software/${sw.id}/releases/0190aaaa-0000-7000-8000-000000000000`))
        .status,
    ).toBe(404);

    const deleted = await send('DELETE', `/api/v1/software/${sw.id}/releases/${release.id}`);
    expect(deleted.status).toBe(204);
    expect(await deleted.text()).toBe('');
    const withdrawn = await getRelease(core, release.id);
    expect(withdrawn).toMatchObject({ iri: release.iri, version: '2.0', tombstoned: true });
    expect((await releasesOf(sw.id)).total).toBe(0);
    const read = await softwareRead(sw.id);
    expect(read.release_count).toBe(0);
    expect(read.latest_release).toBeUndefined();
    expect(await core.graph.ask(`ASK { GRAPH ?g { <${release.iri}> <${REG}tombstoned> true } }`)).toBe(true);
  });

  it('answers 404 for an unknown software and 401 without a credential', async () => {
    const missing = '0190aaaa-0000-7000-8000-000000000000';
    expect((await app.request(`/api/v1/software/${missing}/releases`)).status).toBe(404);
    expect((await send('POST', `/api/v1/software/${missing}/releases`, { version: '1' })).status).toBe(404);

    const sw = await software();
    const anonymous = { 'content-type': 'application/json' };
    const post = await send('POST', `/api/v1/software/${sw.id}/releases`, { version: '1' }, anonymous);
    expect(post.status).toBe(401);
    expect(post.headers.get('www-authenticate')).toBe('Bearer');
    expect((await json(post)).code).toBe('unauthorized');
    const bad = { ...anonymous, authorization: 'Bearer not-the-root-token' };
    expect((await send('POST', `/api/v1/software/${sw.id}/releases`, { version: '1' }, bad)).status).toBe(
      401,
    );
    expect(await releaseExists(sw.iri)).toBe(false);

    const release = await json(await send('POST', `/api/v1/software/${sw.id}/releases`, { version: '1' }));
    expect(
      (await send('DELETE', `/api/v1/software/${sw.id}/releases/${release.id}`, undefined, anonymous)).status,
    ).toBe(401);
    // Reading is public by default.
    expect(iris(await json(await app.request(`/api/v1/software/${sw.id}/releases`)))).toEqual([release.iri]);
  });

  it('refuses a release of a withdrawn software', async () => {
    const sw = await software();
    expect((await send('DELETE', `/api/v1/software/${sw.id}`)).status).toBe(204);
    const response = await send('POST', `/api/v1/software/${sw.id}/releases`, { version: '1' });
    expect(response.status).toBe(410);
    expect((await json(response)).code).toBe('tombstoned');
    expect(await releaseExists(sw.iri)).toBe(false);
  });
});
