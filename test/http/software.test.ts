import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/core/core.js';
import { createApp } from '../../src/http/app.js';
import { openTestCore, ROOT_TOKEN } from '../helpers.js';

let core: Core;
let app: ReturnType<typeof createApp>;
const auth = { authorization: `Bearer ${ROOT_TOKEN}`, 'content-type': 'application/json' };
const APACHE = 'https://spdx.org/licenses/Apache-2.0';

beforeAll(async () => {
  core = await openTestCore({}, true);
  app = createApp(core);
});
afterAll(async () => core.close());

const send = (method: string, path: string, body?: unknown) =>
  app.request(path, { method, headers: auth, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
const json = async (response: Response) => (await response.json()) as Record<string, any>;

function someTopic(): string {
  const topic = core.reference.index.termsOfClass('https://w3id.org/reg/ns#ResearchTopic')[0];
  return topic!.iri;
}

describe('software', () => {
  it('creates, reads, patches and withdraws a record', async () => {
    const topic = someTopic();
    const created = await send('POST', '/api/v1/software', {
      name: 'shacl-manager',
      tagline: 'Validates RDF',
      kinds: ['library', 'service'],
      license: APACHE,
      topics: [topic],
      keywords: ['shacl', 'rdf'],
      publisher: { name: 'Example Lab', kind: 'organization', identifier: 'https://ror.org/02jz4aj89' },
      api_docs: [{ url: 'https://example.org/openapi.json', format: 'openapi' }],
      capability: { produces: ['http://edamontology.org/data_0006'], consumes: [] },
    });
    const body = await json(created);
    expect(created.status, JSON.stringify(body)).toBe(201);
    expect(body.iri).toMatch(/^http:\/\/registry\.test\/software\/[0-9a-f-]{36}$/);
    expect(body).toMatchObject({
      name: 'shacl-manager',
      kind: 'service',
      kinds: ['service', 'library'],
      deployable: true,
      license: APACHE,
      instance_count: 0,
      release_count: 0,
    });
    expect(body.topics[0]).toMatchObject({ iri: topic, source: 'bundled' });
    expect(body.capability.produces[0]).toMatchObject({
      iri: 'http://edamontology.org/data_0006',
      label: 'Data',
    });
    expect(body.publisher).toMatchObject({
      iri: 'https://ror.org/02jz4aj89',
      name: 'Example Lab',
      kind: 'organization',
    });

    const read = await json(await app.request(`/api/v1/software/${body.id}`));
    expect(read).toEqual(body);

    const patched = await send('PATCH', `/api/v1/software/${body.id}`, { tagline: null, maturity: 'active' });
    expect(patched.status).toBe(200);
    const after = await json(patched);
    expect(after.tagline).toBeUndefined();
    expect(after.maturity).toBe('active');
    expect(after.created).toBe(body.created);

    const list = await json(await app.request('/api/v1/software?kind=service'));
    expect(list.items.map((item: { iri: string }) => item.iri)).toContain(body.iri);
    expect(list.facets.find((f: { name: string }) => f.name === 'license').values[0]).toMatchObject({
      value: APACHE,
      label: 'Apache License 2.0',
      count: 1,
    });

    expect((await send('DELETE', `/api/v1/software/${body.id}`)).status).toBe(204);
    const gone = await json(await app.request(`/api/v1/software/${body.id}`));
    expect(gone.tombstoned).toBe(true);
    const after2 = await json(await app.request('/api/v1/software'));
    expect(after2.items.map((item: { iri: string }) => item.iri)).not.toContain(body.iri);
  });

  it('refuses invalid records with every violation named by field, and writes nothing', async () => {
    const countSoftware = async () =>
      Number(
        (
          await core.graph.select(
            'SELECT (COUNT(*) AS ?n) WHERE { GRAPH <urn:reg:local> { ?s a <https://w3id.org/reg/ns#Software> } }',
          )
        )[0]!.n!.value,
      );
    const before = await countSoftware();
    const audited = (await json(await app.request('/api/v1/audit', { headers: auth }))).items.length;
    const response = await send('POST', '/api/v1/software', {
      kinds: ['spaceship'],
      homepage: 'not a url',
      topics: ['http://edamontology.org/topic_0003'],
      license: 'https://example.org/my-licence',
      capability: { produces: ['https://example.org/unknown-type'] },
    });
    const body = await json(response);
    expect(response.status).toBe(422);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    const fields = body.errors.map((e: { field: string }) => e.field).sort();
    expect(fields).toEqual(['capability.produces', 'homepage', 'kinds', 'license', 'name', 'topics']);
    expect(body.report_media_type).toBe('text/turtle');
    expect(body.report).toContain('sh:ValidationReport');
    expect(await countSoftware()).toBe(before);
    expect((await json(await app.request('/api/v1/audit', { headers: auth }))).items.length).toBe(audited);
  });
});
