import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/core/core.js';
import { createApp } from '../../src/http/app.js';
import { openTestCore, ROOT_TOKEN } from '../helpers.js';
import { apiOf, type Json } from '../support/api.js';

/** A clock the test moves by hand (ms). */
class Clock {
  ms = Date.parse('2026-11-27T12:00:00Z');
  readonly now = (): number => this.ms;
  advance(seconds: number): void {
    this.ms += seconds * 1000;
  }
}

/** Bindings that make a request come from `address`, as @hono/node-server passes the socket. */
const from = (address: string) => ({ incoming: { socket: { remoteAddress: address } } });

/** Small rates (6 a minute, 2 at once: one every 10 s) for every class, so that bursts run out at once. */
const SMALL: Record<string, string> = Object.fromEntries(
  ['READ', 'WRITE', 'SPARQL', 'FEDERATED', 'MCP', 'OUTBOUND'].flatMap((name) => [
    [`REG_RATE_LIMIT_${name}_ANONYMOUS`, '6/min+2'],
    [`REG_RATE_LIMIT_${name}`, '12/min+3'],
  ]),
);

let core: Core;
let app: ReturnType<typeof createApp>;
const clock = new Clock();

beforeAll(async () => {
  core = await openTestCore(
    { ...SMALL, REG_RATE_LIMIT_AUTH_FAIL: '3/min+3', REG_TRUSTED_PROXIES: '10.0.0.1' },
    true,
  );
  app = createApp(core, { now: clock.now });
});
afterAll(async () => core.close());

const get = (path: string, address: string, headers: Record<string, string> = {}) =>
  app.request(path, { headers }, from(address));

/** Asserts a 429 problem of the given class and returns its body. */
async function refused(response: Response, limitClass: string, retryAfter: number): Promise<Json> {
  expect(response.status).toBe(429);
  expect(response.headers.get('content-type')).toBe('application/problem+json');
  expect(response.headers.get('retry-after')).toBe(String(retryAfter));
  const body = (await response.json()) as Json;
  expect(body).toMatchObject({ code: 'rate-limited', status: 429, retry_after: retryAfter });
  expect(response.headers.get('ratelimit')).toMatch(new RegExp(`^"${limitClass}";r=0;t=\\d+$`));
  return body;
}

describe('rate limits per class', () => {
  const cases: readonly (readonly [string, string, RequestInit])[] = [
    ['read', '/api/v1/software', {}],
    [
      'write',
      '/api/v1/software',
      { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } },
    ],
    ['sparql', `/sparql?query=${encodeURIComponent('ASK {}')}`, {}],
    ['federated', '/api/v1/search?q=x&federated=true', {}],
    ['mcp', '/mcp', { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } }],
    ['outbound', '/api/v1/software/none/api-doc', {}],
  ];
  it.each(cases)(
    'refuses a burst of %s requests past its rate, with the headers of the draft',
    async (limitClass, path, init) => {
      const address = `192.0.2.${cases.findIndex(([name]) => name === limitClass) + 10}`;
      const send = () => app.request(path, init, from(address));
      const first = await send();
      expect(first.status).not.toBe(429);
      expect(first.headers.get('ratelimit-policy')).toBe(`"${limitClass}";q=6;w=60`);
      expect(first.headers.get('ratelimit')).toBe(`"${limitClass}";r=1;t=10`);
      const second = await send();
      expect(second.status).not.toBe(429);
      expect(second.headers.get('ratelimit')).toBe(`"${limitClass}";r=0;t=20`);
      const third = await send();
      const body = await refused(third, limitClass, 10);
      expect(third.headers.get('ratelimit-policy')).toBe(`"${limitClass}";q=6;w=60`);
      expect(third.headers.get('ratelimit')).toBe(`"${limitClass}";r=0;t=20`);
      expect(body.detail).toBe(`${limitClass} limit for anonymous clients: 6/min, burst 2`);
      // The other classes of the same address are counted apart.
      const other = limitClass === 'read' ? '/api/v1/search?q=x&federated=1' : '/api/v1/types';
      expect((await app.request(other, {}, from(address))).status).not.toBe(429);
    },
  );

  it('counts federated relays and resolution as federated, and lets a refused caller in again once its time has come', async () => {
    const address = '192.0.2.40';
    expect((await get('/api/v1/search?q=x&fed_hops=1', address)).headers.get('ratelimit')).toMatch(
      /^"federated";r=1;/,
    );
    expect(
      (await get('/api/v1/resolve?iri=https://elsewhere.test/software/x', address)).headers.get('ratelimit'),
    ).toMatch(/^"federated";r=0;/);
    await refused(
      await get('/api/v1/resolve?iri=https://elsewhere.test/software/x', address),
      'federated',
      10,
    );
    clock.advance(9);
    await refused(await get('/api/v1/search?q=x&federated=true', address), 'federated', 1);
    clock.advance(1);
    const again = await get('/api/v1/search?q=x&federated=true', address);
    expect(again.status).toBe(200);
    expect(again.headers.get('ratelimit')).toBe('"federated";r=0;t=20');
  });

  it('never limits the probes', async () => {
    for (let i = 0; i < 10; i++) {
      const response = await get('/healthz', '192.0.2.41');
      expect(response.status).toBe(200);
      expect(response.headers.get('ratelimit')).toBeNull();
    }
  });
});

describe('callers', () => {
  it('gives each verified principal buckets of its own, apart from its address', async () => {
    const api = apiOf(app);
    const [a, b] = [await api.deployment(undefined, 'a'), await api.deployment(undefined, 'b')];
    const address = '192.0.2.50';
    const as = (token: string) => get('/api/v1/software', address, { authorization: `Bearer ${token}` });
    for (const remaining of [2, 1, 0]) {
      const response = await as(a.token);
      expect(response.status).toBe(200);
      expect(response.headers.get('ratelimit-policy')).toBe('"read";q=12;w=60');
      expect(response.headers.get('ratelimit')).toBe(`"read";r=${remaining};t=${(3 - remaining) * 5}`);
    }
    const body = await refused(await as(a.token), 'read', 5);
    expect(body.detail).toBe('read limit for clients with a credential: 12/min, burst 3');
    expect((await as(b.token)).status).toBe(200);
    expect((await get('/api/v1/software', address)).status).toBe(200);
  });

  it('never limits administrators or the root token', async () => {
    const api = apiOf(app);
    const { instance } = await api.deployment(undefined, 'ops');
    const minted = await api.call('POST', `/api/v1/instances/${instance.id}/tokens`, 201, {
      scopes: ['admin:*'],
    });
    for (const token of [ROOT_TOKEN, minted.token as string]) {
      for (let i = 0; i < 8; i++) {
        const response = await get('/api/v1/software', '192.0.2.51', { authorization: `Bearer ${token}` });
        expect(response.status).toBe(200);
        expect(response.headers.get('ratelimit')).toBeNull();
      }
    }
  });

  it('believes X-Forwarded-For only from a trusted proxy', async () => {
    const forwarded = (peer: string, client: string) =>
      get('/api/v1/types', peer, { 'x-forwarded-for': `198.51.100.9, ${client}` });
    // Through the trusted proxy each client has its own bucket.
    for (const client of ['203.0.113.1', '203.0.113.2', '203.0.113.3']) {
      for (let i = 0; i < 2; i++) expect((await forwarded('10.0.0.1', client)).status).toBe(200);
    }
    await refused(await forwarded('10.0.0.1', '203.0.113.1'), 'read', 10);
    // From any other peer the header is the client's word: every request is charged to the peer.
    expect((await forwarded('10.0.0.2', '203.0.113.7')).status).toBe(200);
    expect((await forwarded('10.0.0.2', '203.0.113.8')).status).toBe(200);
    await refused(await forwarded('10.0.0.2', '203.0.113.9'), 'read', 10);
  });

  it('counts an IPv6 client by its /64', async () => {
    expect((await get('/api/v1/types', '2001:db8:1:2::1')).status).toBe(200);
    expect((await get('/api/v1/types', '2001:db8:1:2:ffff::7')).status).toBe(200);
    await refused(await get('/api/v1/types', '2001:0db8:0001:0002:0:0:0:9'), 'read', 10);
    expect((await get('/api/v1/types', '2001:db8:1:3::1')).status).toBe(200);
  });

  it('refuses an address that sent too many failed credentials before checking its next one', async () => {
    const address = '192.0.2.60';
    const bad = {
      authorization:
        'Bearer reg_000000000000_0000000000000000000000000000000000000000000000000000000000000000',
    };
    for (let i = 0; i < 3; i++) expect((await get('/api/v1/whoami', address, bad)).status).toBe(401);
    const body = await refused(await get('/api/v1/whoami', address, bad), 'auth_fail', 20);
    expect(body.detail).toBe('authentication refused for this address: too many failed credentials');
    // Even a good credential is not looked at from there; other addresses and anonymous calls go on.
    await refused(
      await get('/api/v1/whoami', address, { authorization: `Bearer ${ROOT_TOKEN}` }),
      'auth_fail',
      20,
    );
    expect(
      (await get('/api/v1/whoami', '192.0.2.61', { authorization: `Bearer ${ROOT_TOKEN}` })).status,
    ).toBe(200);
    expect((await get('/api/v1/whoami', address)).status).toBe(200);
    clock.advance(20);
    expect((await get('/api/v1/whoami', address, { authorization: `Bearer ${ROOT_TOKEN}` })).status).toBe(
      200,
    );
  });

  it('counts refusals per class on /metrics, every class named from the start', async () => {
    const fresh = createApp(core, { now: clock.now });
    const counts = async (): Promise<Record<string, number>> => {
      const text = await (await fresh.request('/metrics')).text();
      return Object.fromEntries(
        [...text.matchAll(/^reg_ratelimit_rejections_total\{class="(\w+)"\} (\d+)$/gm)].map((m) => [
          m[1],
          Number(m[2]),
        ]),
      );
    };
    expect(await counts()).toEqual({
      read: 0,
      write: 0,
      sparql: 0,
      federated: 0,
      mcp: 0,
      outbound: 0,
      auth_fail: 0,
    });
    for (let i = 0; i < 4; i++) await fresh.request('/api/v1/types', {}, from('192.0.2.70'));
    expect(await counts()).toMatchObject({ read: 2, write: 0, auth_fail: 0 });
  });
});

describe('other settings', () => {
  it('limits anonymous requests that a private registry refuses', async () => {
    const closed = await openTestCore({ ...SMALL, REG_PUBLIC_READ: 'false' });
    try {
      const quiet = createApp(closed);
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++)
        statuses.push((await quiet.request('/api/v1/software', {}, from('192.0.2.81'))).status);
      expect(statuses).toEqual([401, 401, 429]);
    } finally {
      await closed.close();
    }
  });

  it('limits nothing and sends no headers with REG_RATE_LIMITS=off', async () => {
    const off = await openTestCore({ ...SMALL, REG_RATE_LIMITS: 'off' }, true);
    try {
      const quiet = createApp(off);
      for (let i = 0; i < 5; i++) {
        const response = await quiet.request('/api/v1/types', {}, from('192.0.2.80'));
        expect(response.status).toBe(200);
        expect(response.headers.get('ratelimit')).toBeNull();
      }
      expect(await (await quiet.request('/metrics')).text()).toContain(
        'reg_ratelimit_rejections_total{class="read"} 0',
      );
    } finally {
      await off.close();
    }
  });
});
