import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/core/core.js';
import { createApp } from '../../src/http/app.js';
import { openTestCore, ROOT_TOKEN } from '../helpers.js';

const BASE = 'http://registry.test';
const DATA = 'http://edamontology.org/data_0006';
const ONTOLOGY = 'http://edamontology.org/data_0582';
const IDENTIFIER = 'http://edamontology.org/data_0842';
const MINTED = `${BASE}/type/rdf-graph`;
let core: Core;
let app: ReturnType<typeof createApp>;
const ids: Record<string, string> = {};

async function send(method: string, url: string, body?: unknown) {
  const response = await app.request(url, {
    method,
    headers: { authorization: `Bearer ${ROOT_TOKEN}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  expect(response.status, text).toBeLessThan(300);
  return text === '' ? {} : (JSON.parse(text) as Record<string, any>);
}

async function get(query: string) {
  const response = await app.request(`/api/v1/capabilities?${query}`);
  return {
    status: response.status,
    type: response.headers.get('content-type'),
    body: (await response.json()) as any,
  };
}

/** `entity_type name` of each match, in the order given. */
async function names(query: string): Promise<string[]> {
  const { status, body } = await get(query);
  expect(status, JSON.stringify(body)).toBe(200);
  return (body.items as any[]).map((item) => `${item.entity_type} ${item.name}`);
}

const q = (name: string, iri: string) => `${name}=${encodeURIComponent(iri)}`;

beforeAll(async () => {
  core = await openTestCore({}, true);
  app = createApp(core);
  await send('POST', '/api/v1/types', { slug: 'rdf-graph', label: 'RDF graph' });
  const software = async (key: string, body: Record<string, unknown>) =>
    (ids[key] = (await send('POST', '/api/v1/software', body)).id as string);
  await software('validator', {
    name: 'validator',
    capability: { produces: [DATA], consumes: [ONTOLOGY, MINTED] },
  });
  await software('converter', { name: 'converter', capability: { produces: [DATA] } });
  await software('retired', { name: 'retired', capability: { produces: [DATA] } });
  await software('plain', { name: 'plain' });
  await send('PUT', `/api/v1/software/${ids.plain}/capability`, { produces: [IDENTIFIER] });
  const release = await send('POST', `/api/v1/software/${ids.converter}/releases`, {
    version: '1.2.0',
    capability: { consumes: [IDENTIFIER] },
  });
  ids.release = release.id;
  const instance = await send('POST', '/api/v1/instances', {
    software: ids.validator,
    label: 'validator-eu',
  });
  ids.instance = instance.id;
  await send('PUT', `/api/v1/instances/${instance.id}/capability`, { produces: [ONTOLOGY] });
  await send('DELETE', `/api/v1/software/${ids.retired}`);
});
afterAll(async () => core.close());

describe('GET /api/v1/capabilities', () => {
  it('finds what declared a produced type: software, then releases, then deployments; withdrawn ones left out', async () => {
    expect(await names(q('produces', DATA))).toEqual(['software converter', 'software validator']);
    expect(await names(q('produces', ONTOLOGY))).toEqual(['instance validator-eu']);
    expect(await names(q('consumes', IDENTIFIER))).toEqual(['release converter 1.2.0']);
    expect(await names(q('produces', IDENTIFIER))).toEqual(['software plain']);
  });

  it('returns each match with its declared capability, types described', async () => {
    const { body, type } = await get(`${q('produces', DATA)}&${q('consumes', ONTOLOGY)}`);
    expect(type).toContain('application/json');
    expect(body).toEqual({
      items: [
        {
          iri: `${BASE}/software/${ids.validator}`,
          id: ids.validator,
          entity_type: 'software',
          name: 'validator',
          capability: {
            iri: `${BASE}/software/${ids.validator}#capability`,
            produces: [{ iri: DATA, label: 'Data', source: 'bundled' }],
            consumes: expect.arrayContaining([
              { iri: ONTOLOGY, label: 'Ontology', source: 'bundled' },
              expect.objectContaining({ iri: MINTED, label: 'RDF graph', source: 'local' }),
            ]),
            declared_at: 'software',
          },
          origin: { kind: 'local' },
        },
      ],
      total: 1,
      truncated: false,
    });
  });

  it('requires every listed type, repeated or comma-separated, and takes slugs of minted types', async () => {
    expect(await names(`${q('consumes', ONTOLOGY)}&${q('consumes', MINTED)}`)).toEqual([
      'software validator',
    ]);
    expect(await names(q('consumes', `${ONTOLOGY},${MINTED}`))).toEqual(['software validator']);
    expect(await names('consumes=rdf-graph')).toEqual(['software validator']);
    expect(await names(`${q('produces', DATA)}&${q('consumes', IDENTIFIER)}`)).toEqual([]);
  });

  it('follows a changed declaration', async () => {
    await send('PUT', `/api/v1/instances/${ids.instance}/capability`, { produces: [IDENTIFIER] });
    expect(await names(q('produces', ONTOLOGY))).toEqual([]);
    expect(await names(q('produces', IDENTIFIER))).toEqual(['software plain', 'instance validator-eu']);
  });

  it('needs produces or consumes, and refuses a value that is neither an IRI nor a slug', async () => {
    for (const query of ['', 'produces=', 'other=x']) {
      const { status, type, body } = await get(query);
      expect(status, query).toBe(400);
      expect(type).toBe('application/problem+json');
      expect(body.code).toBe('bad-request');
      expect(body.detail).toContain('produces or consumes');
    }
    expect((await get('produces=not%20a%20type')).status).toBe(400);
  });

  it('returns at most 200 matches and says when there were more', async () => {
    for (let n = 0; n < 201; n++) {
      const response = await app.request('/api/v1/instances', {
        method: 'POST',
        headers: { authorization: `Bearer ${ROOT_TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          software: ids.plain,
          label: `replica ${n}`,
          capability: { consumes: [DATA] },
        }),
      });
      expect(response.status).toBe(201);
    }
    const { body } = await get(q('consumes', DATA));
    expect(body.items).toHaveLength(200);
    expect(body).toMatchObject({ total: 200, truncated: true });
    const labels = (body.items as any[]).map((item) => item.name as string);
    expect(new Set(labels).size).toBe(200);
    expect(labels[0]).toBe('replica 200');
  });
});
