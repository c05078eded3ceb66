import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Core } from '../../src/core/core.js';
import type { ExternalGraphStore } from '../../src/core/store/graph/external/external.js';
import { createApp } from '../../src/http/app.js';
import { openTestCore, ROOT_TOKEN } from '../helpers.js';
import { apiOf, artifact, type Json } from '../support/api.js';
import { externalStoreEnv, startVirtuosoSync, type VirtuosoServer } from '../support/virtuoso.js';

let server: VirtuosoServer;
let core: Core;
let app: ReturnType<typeof createApp>;
let api: ReturnType<typeof apiOf>;
const sent = () => ({ ...(core.graph as ExternalGraphStore).client.sent });
const EDAM = 'http://edamontology.org/';
/** Types consumed by 10, 100 and 200 software. */
const CONSUMED = { 10: `${EDAM}data_0842`, 100: `${EDAM}data_0582`, 200: `${EDAM}data_2044` } as const;
const SIZES = [10, 100, 200] as const;
let first: Json;
let deployment: Json;
let source: Json;

beforeAll(async () => {
  server = startVirtuosoSync(inject('virtuosoTemplate'));
  core = await openTestCore(externalStoreEnv(server), true);
  app = createApp(core);
  api = apiOf(app);
  for (let i = 0; i < 200; i++) {
    const consumes = SIZES.filter((size) => i < size).map((size) => CONSUMED[size]);
    const sw = await api.call('POST', '/api/v1/software', 201, {
      name: `Counted ${i}`,
      capability: { produces: [], consumes },
    });
    // The newest, so that every page holds the software with releases and deployments.
    if (i === 199) first = sw;
  }
  deployment = await api.call('POST', '/api/v1/instances', 201, { software: first.id, label: 'counted' });
  const token = (await api.call('POST', `/api/v1/instances/${deployment.id}/tokens`, 201, {}))
    .token as string;
  for (let i = 1; i < 200; i++)
    await api.call('POST', '/api/v1/instances', 201, { software: first.id, label: `counted ${i}` });
  for (let i = 0; i < 200; i++)
    await api.call('POST', `/api/v1/software/${first.id}/releases`, 201, { version: `1.0.${i}` });
  // One artifact, then 200 runs that each read it and write one of their own: its lineage one hop down is 200 runs.
  const produced = await api.call(
    'POST',
    '/api/v1/advertise/produced',
    201,
    { run: {}, artifacts: [artifact('source')] },
    token,
  );
  source = { iri: produced.artifacts[0], id: String(produced.artifacts[0]).split('/').pop() };
  for (let i = 0; i < 200; i++) {
    const run = { external_key: `reader ${i}` };
    await api.call(
      'POST',
      '/api/v1/advertise/consumed',
      201,
      { run, artifacts: [{ iri: source.iri }] },
      token,
    );
    await api.call(
      'POST',
      '/api/v1/advertise/produced',
      201,
      { run, artifacts: [artifact(`derived ${i}`)] },
      token,
    );
  }
}, 600_000);

afterAll(async () => {
  await core.close();
  await server.dispose();
});

/** Graph store queries one read costs. */
async function cost(path: string): Promise<number> {
  // An empty commit moves the store to a new generation, and the read cache is emptied: nothing an earlier read
  // left in a cache is used.
  await core.graph.commit([], () => undefined);
  (core.graph as ExternalGraphStore).forgetReads();
  const before = sent();
  const response = await app.request(path, { headers: { authorization: `Bearer ${ROOT_TOKEN}` } });
  expect(response.status, path).toBe(200);
  await response.text();
  return sent().queries - before.queries;
}

/*
 * What a read costs in requests to the graph store, for pages of 10, 100 and 200 (or 10, 100 and 200 matches, or a
 * lineage page of that many nodes): the same few requests whatever the size, never one per item.
 */
describe('reads on the external store cost a number of requests that does not grow with the page', () => {
  const bySize = async (path: (size: number) => string): Promise<number[]> => {
    const counts: number[] = [];
    for (const size of SIZES) counts.push(await cost(path(size)));
    return counts;
  };
  const constant = (counts: number[], most: number) => {
    const [ten, ...larger] = counts as [number, ...number[]];
    expect(ten).toBeGreaterThan(0);
    expect(ten).toBeLessThanOrEqual(most);
    for (const count of larger) expect(count).toBeLessThanOrEqual(ten);
  };

  it('a list page of software, deployments, artifacts or runs', async () => {
    // An unfiltered page is read from the table of records, its counts, activity and facets from the lineage
    // index in registry.db: only the records themselves are asked of the server.
    constant(await bySize((n) => `/api/v1/software?limit=${n}`), 1);
    constant(await bySize((n) => `/api/v1/instances?limit=${n}`), 2);
    constant(await bySize((n) => `/api/v1/artifacts?limit=${n}`), 1);
    constant(await bySize((n) => `/api/v1/runs?limit=${n}`), 3);
    constant(await bySize((n) => `/api/v1/instances/${deployment.id}/runs?limit=${n}`), 3);
    constant(await bySize((n) => `/api/v1/instances/${deployment.id}/artifacts?limit=${n}`), 2);
  }, 120_000);

  it('the releases of a software, however many it has', async () => {
    expect(await cost(`/api/v1/software/${first.id}/releases`)).toBeLessThanOrEqual(2);
  });

  it('a record with its sub-resources', async () => {
    expect(await cost(`/api/v1/software/${first.id}`)).toBeLessThanOrEqual(1);
    expect(await cost(`/api/v1/instances/${deployment.id}`)).toBeLessThanOrEqual(2);
  });

  it('matchmaking for a type 10, 100 or 200 software consume', async () => {
    // Declared capabilities are matched in the lineage index in registry.db: no request to the server at all.
    const path = (n: number) => `/api/v1/capabilities?consumes=${encodeURIComponent(CONSUMED[n as 10])}`;
    expect(await bySize(path)).toEqual([0, 0, 0]);
    for (const n of SIZES) {
      const response = await app.request(path(n), { headers: { authorization: `Bearer ${ROOT_TOKEN}` } });
      expect(((await response.json()) as { total: number }).total).toBe(n);
    }
  });

  it('a lineage hop to 10, 100 or 200 runs', async () => {
    // The artifact's own record, to check it may be read: the walk and its nodes come from the lineage index.
    constant(
      await bySize((n) => `/api/v1/artifacts/${source.id}/lineage?direction=down&depth=1&max_nodes=${n}`),
      1,
    );
  });
});
