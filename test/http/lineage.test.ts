import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/core/core.js';
import { LINEAGE_LIMITS } from '../../src/core/provenance/lineage.js';
import { createApp } from '../../src/http/app.js';
import { openTestCore, ROOT_TOKEN } from '../helpers.js';

let core: Core;
let app: ReturnType<typeof createApp>;
let token: string;
/** `chain[k]` is artifact A<k>; run k (k ≥ 1) used A<k-1> and generated A<k>. */
const chain: string[] = [];
const runs: string[] = [];
let derived: string;
let revision: string;
let hub: string;
const TYPE = 'http://edamontology.org/data_0006';
const FOREIGN = 'https://reg.mumc.nl/artifact/01J7ZQK8W0RXAB3M2C7YQ1V4TD';

async function post(path: string, body: unknown, bearer = token) {
  const response = await app.request(path, {
    method: 'POST',
    headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const json = (await response.json()) as Record<string, any>;
  expect(response.status, JSON.stringify(json)).toBeLessThan(300);
  return json;
}

const idOf = (iri: string) => iri.slice(iri.lastIndexOf('/') + 1);

async function lineageOf(iri: string, query = '') {
  const response = await app.request(`/api/v1/artifacts/${idOf(iri)}/lineage${query}`);
  return { status: response.status, body: (await response.json()) as any };
}

/** Node IRI → depth, for comparing without caring about order. */
const depths = (body: any) =>
  Object.fromEntries((body.nodes as any[]).map((node) => [node.iri, node.depth])) as Record<string, number>;
const edgeSet = (body: any) =>
  new Set((body.edges as any[]).map((edge) => `${edge.from} ${edge.predicate} ${edge.to}`));

beforeAll(async () => {
  core = await openTestCore({}, true);
  app = createApp(core);
  const software = await post('/api/v1/software', { name: 'pipeline' }, ROOT_TOKEN);
  const instance = await post('/api/v1/instances', { software: software.id, label: 'ci' }, ROOT_TOKEN);
  token = (await post(`/api/v1/instances/${instance.id}/tokens`, {}, ROOT_TOKEN)).token;
  const first = await post('/api/v1/advertise/produced', {
    run: { external_key: 'step-0', label: 'step 0' },
    artifacts: [{ title: 'A0', conforms_to: TYPE, was_derived_from: [FOREIGN] }],
  });
  runs.push(first.run);
  chain.push(first.artifacts[0]);
  for (let k = 1; k <= 7; k++) {
    const run = { external_key: `step-${k}`, label: `step ${k}` };
    await post('/api/v1/advertise/consumed', { run, artifacts: [{ iri: chain[k - 1] }] });
    const made = await post('/api/v1/advertise/produced', {
      run,
      artifacts: [{ title: `A${k}`, conforms_to: TYPE }],
    });
    runs.push(made.run);
    chain.push(made.artifacts[0]);
  }
  derived = (
    await post('/api/v1/artifacts', { title: 'A3 excerpt', conforms_to: TYPE, was_derived_from: [chain[3]] })
  ).iri;
  revision = (
    await post('/api/v1/artifacts', { title: 'A7 v2', conforms_to: TYPE, was_revision_of: [chain[7]] })
  ).iri;
  // A run that used more foreign artifacts than a lineage answer may hold.
  const many = Array.from({ length: LINEAGE_LIMITS.maxNodes + 20 }, (_, i) => ({
    iri: `https://elsewhere.example.org/artifact/${i}`,
  }));
  await post('/api/v1/advertise/consumed', { run: { external_key: 'hub' }, artifacts: many });
  hub = (
    await post('/api/v1/advertise/produced', {
      run: { external_key: 'hub' },
      artifacts: [{ title: 'Hub output', conforms_to: TYPE }],
    })
  ).artifacts[0];
});
afterAll(async () => core.close());

describe('GET /api/v1/artifacts/{id}/lineage', () => {
  it('goes one generation up by default direction both, depth 1', async () => {
    const { status, body } = await lineageOf(chain[7]!);
    expect(status).toBe(200);
    expect(body).toMatchObject({ root: chain[7], direction: 'both', depth: 1, truncated: false });
    expect(depths(body)).toEqual({ [chain[7]!]: 0, [runs[7]!]: 1, [chain[6]!]: 1, [revision]: 1 });
    expect(edgeSet(body)).toEqual(
      new Set([
        `${runs[7]} generated ${chain[7]}`,
        `${runs[7]} used ${chain[6]}`,
        `${revision} revisionOf ${chain[7]}`,
      ]),
    );
    const run = body.nodes.find((node: any) => node.iri === runs[7]);
    expect(run).toEqual({
      iri: runs[7],
      entity_type: 'run',
      title: 'step 7',
      origin: { kind: 'local' },
      depth: 1,
    });
    const root = body.nodes.find((node: any) => node.iri === chain[7]);
    expect(root).toEqual({
      iri: chain[7],
      entity_type: 'artifact',
      title: 'A7',
      origin: { kind: 'local' },
      depth: 0,
    });
  });

  it('follows a chain of artifacts across runs six generations up, and no further', async () => {
    const { body } = await lineageOf(chain[7]!, '?direction=up&depth=6');
    const seen = depths(body);
    for (let k = 1; k <= 7; k++) expect(seen[chain[k]!], `A${k}`).toBe(7 - k);
    for (let k = 2; k <= 7; k++) expect(seen[runs[k]!], `run ${k}`).toBe(8 - k);
    expect(seen[chain[0]!]).toBeUndefined();
    expect(seen[runs[1]!]).toBeUndefined();
    expect(seen[revision]).toBeUndefined();
    expect(body.nodes).toHaveLength(13);
    expect(body.edges).toHaveLength(12);
    expect(body.truncated).toBe(false);
  });

  it('goes down through the runs that used an artifact and what derives from it', async () => {
    const { body } = await lineageOf(chain[0]!, '?direction=down&depth=6');
    const seen = depths(body);
    for (let k = 0; k <= 6; k++) expect(seen[chain[k]!], `A${k}`).toBe(k);
    expect(seen[chain[7]!]).toBeUndefined();
    expect(seen[derived]).toBe(4);
    expect(edgeSet(body)).toContain(`${derived} derivedFrom ${chain[3]}`);
    expect(edgeSet(body)).toContain(`${runs[1]} used ${chain[0]}`);
    expect(edgeSet(body)).toContain(`${runs[1]} generated ${chain[1]}`);
    expect(seen[FOREIGN]).toBeUndefined();
  });

  it('joins both directions at depth 2', async () => {
    const { body } = await lineageOf(chain[3]!, '?depth=2');
    const seen = depths(body);
    expect(seen).toMatchObject({
      [chain[1]!]: 2,
      [chain[2]!]: 1,
      [chain[3]!]: 0,
      [chain[4]!]: 1,
      [chain[5]!]: 2,
      [derived]: 1,
    });
    expect(seen[chain[0]!]).toBeUndefined();
    expect(seen[chain[6]!]).toBeUndefined();
  });

  it('marks a foreign IRI the registry holds nothing about as unresolved', async () => {
    const { body } = await lineageOf(chain[0]!, '?direction=up');
    const foreign = body.nodes.find((node: any) => node.iri === FOREIGN);
    expect(foreign).toEqual({
      iri: FOREIGN,
      entity_type: 'unknown',
      // No peer covers it: it waits, unresolved, and says why.
      origin: { kind: 'peer', resolve_status: 'unknown', reason: expect.stringContaining('no active peer') },
      depth: 1,
      unresolved: true,
    });
    expect(edgeSet(body)).toContain(`${chain[0]} derivedFrom ${FOREIGN}`);
    expect(body.nodes.filter((node: any) => node.unresolved === true)).toHaveLength(1);
  });

  it('caps the answer at 250 nodes and says it was truncated', async () => {
    const { body } = await lineageOf(hub, '?direction=up');
    expect(body.truncated).toBe(true);
    expect(body.nodes).toHaveLength(LINEAGE_LIMITS.maxNodes);
    expect(LINEAGE_LIMITS.maxNodes).toBe(250);
    const nodes = new Set((body.nodes as any[]).map((node) => node.iri));
    for (const edge of body.edges as any[]) {
      expect(nodes.has(edge.from)).toBe(true);
      expect(nodes.has(edge.to)).toBe(true);
    }
  });

  it('refuses a bad direction or depth, clamps a depth out of range, and 404s an unknown artifact', async () => {
    const sideways = await lineageOf(chain[1]!, '?direction=sideways');
    expect(sideways.status).toBe(400);
    expect(sideways.body.code).toBe('bad-request');
    expect((await lineageOf(chain[1]!, '?depth=two')).status).toBe(400);
    expect((await lineageOf(chain[1]!, '?depth=1.5')).status).toBe(400);
    expect((await lineageOf(chain[1]!, '?depth=99')).body.depth).toBe(6);
    expect((await lineageOf(chain[1]!, '?depth=0')).body.depth).toBe(1);
    const missing = await lineageOf('0190aaaa-0000-7000-8000-000000000000');
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('not-found');
    expect((await lineageOf(runs[1]!)).status).toBe(404);
  });
});
