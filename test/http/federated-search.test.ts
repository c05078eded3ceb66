import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { artifact, type Json } from '../support/api.js';
import {
  describeFake,
  startFakeServer,
  startLoopbackRegistry,
  type FakeServer,
  type LoopbackRegistry,
} from '../support/peers.js';

/*
 * The propagation envelope and the merge of federated answers, against a registry on loopback and a fake peer
 * whose search answers are written by the test (copies of the registry's own hits, malformed hits, and statuses
 * of peers of its own).
 */

let a: LoopbackRegistry;
let fake: FakeServer;
let own: Json;
const searches: URL[] = [];

async function json(response: Response, status: number): Promise<Json> {
  const text = await response.text();
  expect(response.status, text).toBe(status);
  return JSON.parse(text) as Json;
}

beforeAll(async () => {
  a = await startLoopbackRegistry();
  fake = await startFakeServer((request, response, url) => {
    const target = new URL(request.url ?? '/', url);
    if (target.pathname === '/.well-known/reg-registry') {
      response.writeHead(200, { 'content-type': 'application/json' }).end(describeFake(url));
      return;
    }
    searches.push(target);
    response.writeHead(200, { 'content-type': 'application/json' }).end(
      JSON.stringify({
        query: target.searchParams.get('q'),
        hits: [
          // A copy of A's own record: A's copy must win, naming this peer in also_from.
          { iri: own.iri, entity_type: 'artifact', title: 'Copy', score: 1, origin: { kind: 'local' } },
          {
            iri: `${url}/artifact/1`,
            entity_type: 'artifact',
            title: 'Fake hit',
            score: 0.6,
            origin: { kind: 'local' },
          },
          {
            iri: 'https://third.example/run/7',
            entity_type: 'run',
            title: 'Relayed hit',
            score: 0.3,
            origin: { kind: 'peer', peer_base_iri: 'https://third.example' },
            reach: 'direct',
            hops: 1,
            via: [],
          },
          { iri: 'javascript:alert(1)', entity_type: 'artifact', title: 'bad', score: 1 },
          { iri: `${url}/x`, entity_type: 'spaceship', title: 'bad kind', score: 1 },
        ],
        total: 5,
        partial: false,
        peers: [
          { base_iri: 'https://third.example', status: 'ok', hits: 1, reach: 'direct', hops: 1, via: [] },
        ],
      }),
    );
  });
  own = await json(await a.call('POST', '/api/v1/artifacts', artifact('Federated otter survey')), 201);
  await json(await a.call('POST', '/api/v1/peers', { base_iri: fake.url, announce: false }), 201);
});

afterAll(async () => {
  await Promise.all([a?.close(), fake?.close()]);
});

describe('federated search', () => {
  it('sends the envelope, merges by IRI with the home copy first, and re-expresses relayed answers', async () => {
    const result = await json(
      await a.call('GET', '/api/v1/search?q=otter&federated=true&limit=5', undefined, null),
      200,
    );
    const sent = searches.at(-1)!;
    expect(Object.fromEntries([...sent.searchParams].filter(([name]) => name !== 'fed_budget_ms'))).toEqual({
      q: 'otter',
      type: 'software,instance,artifact,run',
      limit: '5',
      fed_id: result.federation.query_id,
      fed_hops: '2',
      fed_origin: a.url,
      fed_path: a.url,
    });
    expect(Number(sent.searchParams.get('fed_budget_ms'))).toBeGreaterThan(0);

    expect(result.hits.map((hit: Json) => hit.iri)).toEqual([
      own.iri,
      `${fake.url}/artifact/1`,
      'https://third.example/run/7',
    ]);
    const [mine, direct, relayed] = result.hits as [Json, Json, Json];
    expect(mine).toMatchObject({
      reach: 'local',
      hops: 0,
      title: 'Federated otter survey',
      also_from: [fake.url],
    });
    expect(direct).toMatchObject({
      reach: 'direct',
      hops: 1,
      via: [],
      origin: { kind: 'peer', peer_base_iri: fake.url, resolve_status: 'live' },
    });
    expect(direct.origin.peer_id).toMatch(/^127\.0\.0\.1-/);
    expect(relayed).toMatchObject({
      reach: 'indirect',
      hops: 2,
      via: [fake.url],
      origin: { kind: 'peer', peer_base_iri: 'https://third.example', resolve_status: 'live' },
    });
    expect(result.peers).toEqual([
      expect.objectContaining({ base_iri: fake.url, status: 'ok', hits: 3, reach: 'direct', hops: 1 }),
      expect.objectContaining({
        base_iri: 'https://third.example',
        status: 'ok',
        reach: 'indirect',
        hops: 2,
        via: [fake.url],
      }),
    ]);
    expect(result.federation).toMatchObject({
      origin: a.url,
      registry: a.url,
      max_hops: 3,
      hops_granted: 3,
      hops_forwarded: 2,
      path: [a.url],
      budget_exhausted: false,
    });
    expect(result.total).toBe(3);
  });

  it('answers a repeated query id, or a path through itself, already_handled', async () => {
    const envelope = `fed_id=query.1:a-b&fed_hops=0&fed_origin=${encodeURIComponent('https://origin.example')}&fed_path=${encodeURIComponent('https://origin.example')}`;
    const first = await json(await a.call('GET', `/api/v1/search?q=otter&${envelope}`, undefined, null), 200);
    expect(first.already_handled).toBeUndefined();
    expect(first.hits.map((hit: Json) => hit.iri)).toEqual([own.iri]);
    expect(first.federation).toMatchObject({
      query_id: 'query.1:a-b',
      origin: 'https://origin.example',
      hops_granted: 0,
      path: ['https://origin.example', a.url],
      reason: 'no hops left',
    });
    const before = searches.length;
    const again = await json(
      await a.call('GET', `/api/v1/search?q=otter&${envelope}&fed_hops=3`, undefined, null),
      200,
    );
    expect(again).toMatchObject({ already_handled: true, hits: [], total: 0, peers: [] });
    expect(again.federation.reason).toBe('this query reached this registry before');
    expect(again.federation.first_seen_at).toMatch(/^\d{4}-/);
    const looped = await json(
      await a.call(
        'GET',
        `/api/v1/search?q=otter&fed_id=other&fed_hops=3&fed_path=${encodeURIComponent(a.url)}`,
        undefined,
        null,
      ),
      200,
    );
    expect(looped).toMatchObject({ already_handled: true });
    expect(looped.federation.reason).toBe('this registry is already on the query path');
    expect(searches.length).toBe(before);
  });

  it('refuses a malformed envelope', async () => {
    for (const query of [
      'fed_id=has%20space',
      'fed_id=x&fed_hops=-1',
      'fed_id=x&fed_path=ftp%3A%2F%2Fx',
      'fed_hops=1',
    ])
      await json(await a.call('GET', `/api/v1/search?q=otter&${query}`, undefined, null), 400);
    await json(await a.call('GET', `/api/v1/search?q=otter&fed_id=${'x'.repeat(101)}`, undefined, null), 400);
  });
});
