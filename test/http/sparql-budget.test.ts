import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/core/core.js';
import { createApp } from '../../src/http/app.js';
import { openTestCore, ROOT_TOKEN } from '../helpers.js';

/*
 * What an expensive client query may cost the registry, on both graph stores: it runs within the anonymous
 * budget, apart from the registry's own reads (which answer while it runs), and one caller may have only
 * REG_SPARQL_MAX_CONCURRENT queries under way.
 */

/** Every quad against every other: far more work than any budget allows. */
const HEAVY = 'SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f }';
const ADMIN = { authorization: `Bearer ${ROOT_TOKEN}` };

let core: Core;
let app: ReturnType<typeof createApp>;
let softwareId = '';

beforeAll(async () => {
  core = await openTestCore(
    { REG_SPARQL_ANONYMOUS_TIMEOUT: '2s', REG_SPARQL_TIMEOUT: '20s', REG_SPARQL_MAX_CONCURRENT: '1' },
    true,
  );
  app = createApp(core);
  const created = await app.request('/api/v1/software', {
    method: 'POST',
    headers: { ...ADMIN, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'budgeted' }),
  });
  expect(created.status).toBe(201);
  softwareId = ((await created.json()) as { id: string }).id;
});
afterAll(async () => core.close());

/** A GET as sent from `address` (the socket @hono/node-server hands the app), with optional headers. */
function from(address: string, path: string, headers: Record<string, string> = {}): Promise<Response> {
  return Promise.resolve(
    app.request(path, { headers }, { incoming: { socket: { remoteAddress: address } } }),
  );
}

const sparqlPath = (query: string) => `/sparql?query=${encodeURIComponent(query)}`;

/** Starts a request and tells whether it has been answered yet. */
function track(response: Promise<Response>): { response: Promise<Response>; done: () => boolean } {
  let finished = false;
  void response.finally(() => {
    finished = true;
  });
  return { response, done: () => finished };
}

describe('an expensive anonymous query', () => {
  it('leaves the API answering while it runs, and is stopped at REG_SPARQL_ANONYMOUS_TIMEOUT', async () => {
    const heavy = track(from('192.0.2.10', sparqlPath(HEAVY)));
    // Give it time to reach the engine.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const list = await app.request('/api/v1/software?limit=1');
    expect(list.status).toBe(200);
    expect(((await list.json()) as { items: { id: string }[] }).items[0]?.id).toBe(softwareId);
    expect((await app.request(`/api/v1/software/${softwareId}`)).status).toBe(200);
    expect((await app.request('/readyz')).status).toBe(200);
    expect(heavy.done(), 'the API waited for the client query').toBe(false);

    const stopped = await heavy.response;
    expect(stopped.status).toBe(504);
    const problem = (await stopped.json()) as Record<string, any>;
    expect(problem).toMatchObject({ code: 'query-timeout', timeout_ms: 2000 });
    expect(problem.detail).toContain('REG_SPARQL_ANONYMOUS_TIMEOUT');
    expect((await app.request('/readyz')).status).toBe(200);
    const after = await from('192.0.2.10', sparqlPath('ASK { GRAPH ?g { ?s ?p ?o } }'));
    expect(after.status, await after.clone().text()).toBe(200);
  });
});

describe('queries under way per caller', () => {
  it('refuses one more than REG_SPARQL_MAX_CONCURRENT from the same address with 429 and Retry-After', async () => {
    const heavy = track(from('192.0.2.20', sparqlPath(HEAVY)));
    await new Promise((resolve) => setTimeout(resolve, 200));
    const refused = await from('192.0.2.20', sparqlPath('ASK { }'));
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(refused.headers.get('content-type')).toBe('application/problem+json');
    const problem = (await refused.json()) as Record<string, any>;
    expect(problem).toMatchObject({
      code: 'too-many-queries',
      type: 'https://w3id.org/reg/problem/too-many-queries',
      limit: 1,
    });
    expect(problem.detail).toContain('REG_SPARQL_MAX_CONCURRENT');
    // An address of the same IPv6 /64 counts as the same caller.
    const sameNetwork = track(from('2001:db8:1:2::a', sparqlPath(HEAVY)));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await from('2001:db8:1:2::b', sparqlPath('ASK { }'))).status).toBe(429);
    // Other callers are counted on their own: another address, and a credential from the same address (on the
    // embedded store they wait for the running query, client queries running one at a time).
    const others = await Promise.all([
      from('192.0.2.21', sparqlPath('ASK { }')),
      from('192.0.2.20', sparqlPath('ASK { }'), ADMIN),
    ]);
    for (const other of others) expect(other.status).not.toBe(429);
    expect((await heavy.response).status).toBe(504);
    expect((await sameNetwork.response).status).not.toBe(429);
    // Once its query is over, the caller may ask again.
    expect((await from('192.0.2.20', sparqlPath('ASK { }'))).status).toBe(200);
  });
});
