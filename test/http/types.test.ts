import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/core/core.js';
import { createApp } from '../../src/http/app.js';
import { openTestCore, ROOT_TOKEN } from '../helpers.js';

let core: Core;
let app: ReturnType<typeof createApp>;
const auth = { authorization: `Bearer ${ROOT_TOKEN}`, 'content-type': 'application/json' };
const BASE = 'http://registry.test';
const EDAM_DATA = 'http://edamontology.org/data_0006';
const PREF_LABEL = 'http://www.w3.org/2004/02/skos/core#prefLabel';

beforeAll(async () => {
  core = await openTestCore({}, true);
  app = createApp(core);
});
afterAll(async () => core.close());

const sendTo = (target: ReturnType<typeof createApp>, method: string, path: string, body?: unknown) =>
  target.request(path, {
    method,
    headers: auth,
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
const send = (method: string, path: string, body?: unknown) => sendTo(app, method, path, body);
const json = async (response: Response) => (await response.json()) as Record<string, any>;

describe('minting artifact types', () => {
  it('mints at {base}/type/<slug>, attributed to the caller and audited', async () => {
    const response = await send('POST', '/api/v1/types', {
      label: 'Knowledge graph snapshot',
      slug: 'KG  Snapshot!',
    });
    const body = await json(response);
    expect(response.status, JSON.stringify(body)).toBe(201);
    expect(body).toEqual({
      iri: `${BASE}/type/kg-snapshot`,
      id: 'kg-snapshot',
      label: 'Knowledge graph snapshot',
      artifact_count: 0,
      adopted: false,
      source: 'local',
    });
    expect(await json(await app.request('/api/v1/types/kg-snapshot'))).toEqual(body);
    const stored = await core.graph.readRecord('urn:reg:local', body.iri);
    expect(stored).toContain(`<${body.iri}> <http://www.w3.org/ns/prov#wasAttributedTo> <urn:reg:root>`);
    expect(stored).toContain(
      `<${body.iri}> <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <https://w3id.org/reg/ns#ArtifactType>`,
    );
    const audit = await json(await app.request('/api/v1/audit?action=type.create', { headers: auth }));
    expect(audit.items.map((entry: { target: string }) => entry.target)).toContain(body.iri);
  });

  it('mints a UUIDv7 IRI when no slug is sent', async () => {
    const body = await json(await send('POST', '/api/v1/types', { label: 'Unnamed kind' }));
    expect(body.iri).toMatch(
      /^http:\/\/registry\.test\/type\/[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$/,
    );
    expect(body.adopted).toBe(false);
  });

  it('re-posting a slug replaces the concept, keeping one label', async () => {
    await send('POST', '/api/v1/types', {
      label: 'Old label',
      slug: 'replaced-type',
      aliases: ['old alias'],
    });
    const second = await send('POST', '/api/v1/types', { label: 'New label', slug: 'replaced-type' });
    expect(second.status).toBe(201);
    const read = await json(await app.request('/api/v1/types/replaced-type'));
    expect(read.label).toBe('New label');
    expect(read.aliases).toBeUndefined();
    const stored = (await core.graph.readRecord('urn:reg:local', `${BASE}/type/replaced-type`)) ?? '';
    expect(stored.split('\n').filter((line) => line.includes(PREF_LABEL))).toHaveLength(1);
  });

  it('refuses an empty or missing label with 400', async () => {
    for (const body of [{ label: '' }, { label: '   ', slug: 'blank' }, { slug: 'no-label' }]) {
      const response = await send('POST', '/api/v1/types', body);
      expect(response.status).toBe(400);
      expect((await json(response)).code).toBe('bad-request');
    }
    expect((await app.request('/api/v1/types/no-label')).status).toBe(404);
  });

  it('needs a credential', async () => {
    const response = await app.request('/api/v1/types', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ label: 'Anonymous' }),
    });
    expect(response.status).toBe(401);
  });
});

describe('adopting artifact types', () => {
  it('adopts an external IRI with scheme, aliases, definition and media type', async () => {
    const iri = 'https://example.org/onto/Spectrum';
    const response = await send('POST', '/api/v1/types', {
      iri,
      label: 'Spectrum',
      scheme: 'https://example.org/onto',
      aliases: ['mass spec', 'Spectrum'],
      definition: 'A measured spectrum.',
      default_media_type: 'text/csv',
    });
    const body = await json(response);
    expect(response.status, JSON.stringify(body)).toBe(201);
    expect(body).toEqual({
      iri,
      id: iri,
      label: 'Spectrum',
      definition: 'A measured spectrum.',
      default_media_type: 'text/csv',
      aliases: ['mass spec'],
      scheme: ['https://example.org/onto'],
      artifact_count: 0,
      adopted: true,
      source: 'external',
    });
    expect(await json(await app.request(`/api/v1/types/${encodeURIComponent(iri)}`))).toEqual(body);
  });

  it('refuses an IRI already held as another kind of term with 409', async () => {
    const topic = core.reference.index.termsOfClass('https://w3id.org/reg/ns#ResearchTopic')[0]!.iri;
    const response = await send('POST', '/api/v1/types', { iri: topic, label: 'Not a type' });
    expect(response.status).toBe(409);
    expect((await json(response)).code).toBe('conflict');
    const keyword = await send('POST', '/api/v1/types', { iri: `${BASE}/keyword/shacl`, label: 'SHACL' });
    expect(keyword.status).toBe(409);
    expect(await core.graph.readRecord('urn:reg:local', topic)).toBeUndefined();
  });

  it('refuses an IRI that is not absolute with 400', async () => {
    for (const iri of ['not an iri', 'relative/path', 42]) {
      const response = await send('POST', '/api/v1/types', { iri, label: 'Bad' });
      expect(response.status).toBe(400);
    }
  });
});

describe('the vocabulary rule and types', () => {
  it('accepts a minted type in a software capability and refuses an unknown one with 422', async () => {
    const minted = await json(
      await send('POST', '/api/v1/types', { label: 'Lab notebook', slug: 'lab-notebook' }),
    );
    const accepted = await send('POST', '/api/v1/software', {
      name: 'notebook-exporter',
      license: 'https://spdx.org/licenses/MIT',
      capability: { produces: [minted.iri], consumes: [] },
    });
    expect(accepted.status, JSON.stringify(await json(accepted.clone()))).toBe(201);
    expect((await json(accepted)).capability.produces[0]).toMatchObject({
      iri: minted.iri,
      label: 'Lab notebook',
      source: 'local',
    });

    const refused = await send('POST', '/api/v1/software', {
      name: 'ghost-exporter',
      license: 'https://spdx.org/licenses/MIT',
      capability: { produces: [`${BASE}/type/never-minted`] },
    });
    const problem = await json(refused);
    expect(refused.status).toBe(422);
    expect(problem.errors).toEqual([expect.objectContaining({ field: 'capability.produces' })]);
  });
});

describe('listing types', () => {
  it('lists types minted or adopted here and types in use, not the whole vocabulary', async () => {
    const own = await openTestCore({}, true);
    try {
      const local = createApp(own);
      const post = (path: string, body: unknown) => sendTo(local, 'POST', path, body);
      expect((await json(await local.request('/api/v1/types'))).total).toBe(0);
      await post('/api/v1/types', { label: 'Minted here', slug: 'minted-here' });
      await post('/api/v1/types', { label: 'Adopted here', iri: 'https://example.org/onto/Adopted' });
      const software = await post('/api/v1/software', {
        name: 'uses-edam',
        license: 'https://spdx.org/licenses/MIT',
        capability: { produces: [EDAM_DATA], consumes: [] },
      });
      expect(software.status).toBe(201);
      const list = await json(await local.request('/api/v1/types'));
      expect(list.items.map((item: { iri: string }) => item.iri)).toEqual([
        'https://example.org/onto/Adopted',
        EDAM_DATA,
        `${BASE}/type/minted-here`,
      ]);
      expect(list.total).toBe(3);
      expect(list.items[1]).toMatchObject({
        label: 'Data',
        source: 'bundled',
        adopted: false,
        artifact_count: 0,
      });

      // Withdrawing the only record that cites a bundled type takes it off the list.
      expect((await sendTo(local, 'DELETE', `/api/v1/software/${(await json(software)).id}`)).status).toBe(
        204,
      );
      const after = await json(await local.request('/api/v1/types'));
      expect(after.items.map((item: { iri: string }) => item.iri)).not.toContain(EDAM_DATA);
    } finally {
      await own.close();
    }
  });

  it('reads a bundled type by IRI and answers 404 for a type nobody holds', async () => {
    const read = await json(await app.request(`/api/v1/types/${encodeURIComponent(EDAM_DATA)}`));
    expect(read).toMatchObject({
      iri: EDAM_DATA,
      id: EDAM_DATA,
      label: 'Data',
      source: 'bundled',
      adopted: false,
    });
    const missing = await app.request('/api/v1/types/never-minted');
    expect(missing.status).toBe(404);
    expect(missing.headers.get('content-type')).toBe('application/problem+json');
  });
});
