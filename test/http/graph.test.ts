import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/core/core.js';
import { createApp } from '../../src/http/app.js';
import { openTestCore, ROOT_TOKEN } from '../helpers.js';

const BASE = 'http://registry.test';
const DATA = 'http://edamontology.org/data_0006';
const REG = 'https://w3id.org/reg/ns#';
let core: Core;
let app: ReturnType<typeof createApp>;
const iri: Record<string, string> = {};

async function send(method: string, url: string, body?: unknown, bearer = ROOT_TOKEN) {
  const response = await app.request(url, {
    method,
    headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  expect(response.status, text).toBeLessThan(300);
  return text === '' ? {} : (JSON.parse(text) as Record<string, any>);
}

async function graph(query: string) {
  const response = await app.request(`/api/v1/graph?${query}`);
  return {
    status: response.status,
    type: response.headers.get('content-type'),
    body: (await response.json()) as any,
  };
}

const around = (node: string, depth?: string) =>
  graph(`iri=${encodeURIComponent(node)}${depth === undefined ? '' : `&depth=${depth}`}`);

beforeAll(async () => {
  core = await openTestCore({}, true);
  app = createApp(core);
  const software = await send('POST', '/api/v1/software', {
    name: 'validator',
    capability: { produces: [DATA] },
  });
  iri.software = software.iri;
  const instance = await send('POST', '/api/v1/instances', { software: software.id, label: 'validator-eu' });
  iri.instance = instance.iri;
  const token = (await send('POST', `/api/v1/instances/${instance.id}/tokens`, {})).token as string;
  const advertised = await send(
    'POST',
    '/api/v1/advertise/produced',
    { run: { external_key: 'job-1', label: 'nightly' }, artifacts: [{ title: 'Report', conforms_to: DATA }] },
    token,
  );
  iri.run = advertised.run;
  iri.artifact = advertised.artifacts[0];
  const old = await send('POST', '/api/v1/instances', { software: software.id, label: 'validator-old' });
  iri.old = old.iri;
  await send('DELETE', `/api/v1/instances/${old.id}`);
});
afterAll(async () => core.close());

describe('GET /api/v1/graph', () => {
  it('returns the nodes one step from the centre by default, with edges either way', async () => {
    const { status, body } = await around(iri.software!);
    expect(status).toBe(200);
    expect(body).toMatchObject({ root: iri.software, depth: 1, truncated: false });
    const nodes = new Map((body.nodes as any[]).map((node) => [node.iri, node]));
    expect(nodes.get(iri.software)).toMatchObject({
      entity_type: 'software',
      title: 'validator',
      depth: 0,
      origin: { kind: 'local' },
    });
    expect(nodes.get(`${iri.software}#capability`)).toMatchObject({ entity_type: 'capability', depth: 1 });
    expect(nodes.get(iri.instance)).toMatchObject({
      entity_type: 'instance',
      title: 'validator-eu',
      depth: 1,
    });
    expect(nodes.get(iri.old)).toMatchObject({ entity_type: 'instance', tombstoned: true });
    expect(nodes.has(DATA)).toBe(false);
    expect(body.edges).toContainEqual({
      from: iri.instance,
      to: iri.software,
      predicate: `${REG}instanceOf`,
      label: 'reg:instanceOf',
    });
    expect(body.edges).toContainEqual({
      from: iri.software,
      to: `${iri.software}#capability`,
      predicate: `${REG}hasCapability`,
      label: 'reg:hasCapability',
    });
    for (const edge of body.edges as any[]) {
      expect(nodes.has(edge.from) && nodes.has(edge.to)).toBe(true);
      expect(edge.predicate).not.toBe('http://www.w3.org/1999/02/22-rdf-syntax-ns#type');
    }
  });

  it('follows more steps with depth, describing vocabulary terms and runs on the way', async () => {
    const { body } = await around(iri.software!, '3');
    expect(body.depth).toBe(3);
    const nodes = new Map((body.nodes as any[]).map((node) => [node.iri, node]));
    expect(nodes.get(DATA)).toMatchObject({ entity_type: 'type', title: 'Data', depth: 2 });
    expect(nodes.get(iri.run)).toMatchObject({ entity_type: 'run', title: 'nightly', depth: 2 });
    expect(nodes.get(iri.artifact)).toMatchObject({ entity_type: 'artifact', title: 'Report' });
  });

  it('centres on any node, including one the registry only refers to', async () => {
    const { status, body } = await around(DATA);
    expect(status).toBe(200);
    const nodes = new Map((body.nodes as any[]).map((node) => [node.iri, node]));
    expect(nodes.get(DATA)).toMatchObject({ entity_type: 'type', title: 'Data', depth: 0 });
    expect(nodes.get(iri.artifact)).toMatchObject({ depth: 1 });
    const homepage = await send('POST', '/api/v1/software', {
      name: 'linked',
      homepage: 'https://tools.example.org/linked',
    });
    const outside = await around('https://tools.example.org/linked');
    expect(outside.status).toBe(200);
    expect(outside.body.nodes).toContainEqual(
      expect.objectContaining({ iri: 'https://tools.example.org/linked', unresolved: true, depth: 0 }),
    );
    expect(outside.body.nodes).toContainEqual(expect.objectContaining({ iri: homepage.iri, depth: 1 }));
  });

  it('clamps depth to 1–4 and refuses a depth that is not a whole number', async () => {
    expect((await around(iri.software!, '0')).body.depth).toBe(1);
    expect((await around(iri.software!, '-3')).body.depth).toBe(1);
    expect((await around(iri.software!, '99')).body.depth).toBe(4);
    const bad = await around(iri.software!, 'deep');
    expect(bad.status).toBe(400);
    expect(bad.type).toBe('application/problem+json');
    expect(bad.body.code).toBe('bad-request');
  });

  it('needs an absolute IRI, and answers 404 for one the registry knows nothing about', async () => {
    expect((await graph('')).status).toBe(400);
    expect((await graph('iri=software%2F123')).status).toBe(400);
    const unknown = await around(`${BASE}/software/nothing-here`);
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('not-found');
  });

  it('caps the nodes and says the answer was truncated', async () => {
    const token = (await send('POST', `/api/v1/instances/${iri.instance!.split('/').pop()}/tokens`, {}))
      .token as string;
    await send(
      'POST',
      '/api/v1/advertise/produced',
      {
        run: { external_key: 'job-wide' },
        artifacts: Array.from({ length: 260 }, (_, n) => ({ title: `part ${n}`, conforms_to: DATA })),
      },
      token,
    );
    const { body } = await around(DATA);
    expect(body.truncated).toBe(true);
    expect(body.nodes.length).toBeLessThanOrEqual(250);
    const nodes = new Set((body.nodes as any[]).map((node) => node.iri));
    for (const edge of body.edges as any[]) expect(nodes.has(edge.from) && nodes.has(edge.to)).toBe(true);
  });
});
