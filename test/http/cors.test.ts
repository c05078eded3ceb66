import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/core/core.js';
import { readConfig } from '../../src/core/config/index.js';
import { createApp } from '../../src/http/app.js';
import { openTestCore, ROOT_TOKEN, testEnv } from '../helpers.js';

const LISTED = 'https://app.example.org';
const STRANGER = 'https://elsewhere.example.net';
const EXPOSED = [
  'Link',
  'Location',
  'ETag',
  'Content-Location',
  'RateLimit',
  'RateLimit-Policy',
  'Retry-After',
];

let core: Core;
let app: ReturnType<typeof createApp>;

beforeAll(async () => {
  core = await openTestCore(
    {
      REG_CORS_ORIGINS: `${LISTED}, http://localhost:5173`,
      REG_PUBLIC_READ: 'false',
      REG_RATE_LIMIT_READ: '2/min+1',
      REG_RATE_LIMIT_READ_ANONYMOUS: '2/min+1',
    },
    true,
  );
  app = createApp(core);
});
afterAll(async () => core.close());

/** A preflight as a browser sends it before a call it may not send unasked. */
const preflight = (path: string, origin: string, method: string, headers?: string) =>
  app.request(path, {
    method: 'OPTIONS',
    headers: {
      origin,
      'access-control-request-method': method,
      ...(headers === undefined ? {} : { 'access-control-request-headers': headers }),
    },
  });

const allowHeaders = (response: Response) =>
  [...response.headers.keys()].filter((name) => name.startsWith('access-control-allow-'));

describe('preflights', () => {
  it('open anonymous reads to every origin, without credentials', async () => {
    for (const path of [
      '/api/v1/software',
      '/sparql',
      '/.well-known/reg-registry',
      '/llms.txt',
      '/software/x',
    ]) {
      const response = await preflight(path, STRANGER, 'GET', 'Accept, X-Request-Id');
      expect(response.status, path).toBe(204);
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
      expect(response.headers.get('access-control-allow-methods')).toBe(
        path === '/sparql' ? 'GET, HEAD, POST' : 'GET, HEAD',
      );
      expect(response.headers.get('access-control-allow-headers')).toBe('accept, x-request-id');
      expect(response.headers.get('access-control-allow-credentials')).toBeNull();
      expect(response.headers.get('access-control-max-age')).toBe('600');
    }
    const query = await preflight('/sparql', STRANGER, 'POST', 'content-type');
    expect(query.headers.get('access-control-allow-origin')).toBe('*');
    expect(query.headers.get('access-control-allow-methods')).toBe('GET, HEAD, POST');
  });

  it('give an origin that is not listed nothing for a credential or a write', async () => {
    for (const [method, headers] of [
      ['GET', 'authorization'],
      ['GET', 'Authorization, Accept'],
      ['POST', 'content-type'],
      ['DELETE', undefined],
      ['PATCH', 'content-type, x-reg-instance-key'],
    ] as const) {
      const response = await preflight('/api/v1/software', STRANGER, method, headers);
      expect(response.status).toBe(204);
      expect(allowHeaders(response), `${method} ${headers}`).toEqual([]);
    }
  });

  it('echo a listed origin with credentials, every method and the headers asked for', async () => {
    const response = await preflight('/api/v1/software/x', LISTED, 'PATCH', 'Authorization, Content-Type');
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe(LISTED);
    expect(response.headers.get('access-control-allow-credentials')).toBe('true');
    expect(response.headers.get('access-control-allow-methods')).toBe('GET, HEAD, POST, PUT, PATCH, DELETE');
    expect(response.headers.get('access-control-allow-headers')).toBe('authorization, content-type');
    expect(response.headers.get('vary')).toContain('Origin');
    const local = await preflight('/mcp', 'http://localhost:5173', 'POST', 'authorization');
    expect(local.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
  });

  it('are answered before authentication and rate limits', async () => {
    // Reads need a credential here, and the read rate allows one at a time: preflights are neither.
    for (let i = 0; i < 5; i++) {
      const response = await preflight('/api/v1/software', STRANGER, 'GET');
      expect(response.status).toBe(204);
      expect(response.headers.get('ratelimit')).toBeNull();
      expect(response.headers.get('x-request-id')).not.toBeNull();
    }
  });

  it('leave an OPTIONS request that is no preflight to its 405', async () => {
    const response = await app.request('/api/v1/search', {
      method: 'OPTIONS',
      headers: { origin: STRANGER, authorization: `Bearer ${ROOT_TOKEN}` },
    });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toContain('GET');
  });
});

describe('responses', () => {
  // Each call from an address of its own: the read rate here allows one at a time.
  let host = 0;
  const read = (origin: string | undefined, token?: string) =>
    app.request(
      '/api/v1/whoami',
      {
        headers: {
          ...(origin === undefined ? {} : { origin }),
          ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
        },
      },
      { incoming: { socket: { remoteAddress: `198.51.100.${++host}` } } },
    );

  it('let any page read an anonymous answer, with the headers it needs exposed', async () => {
    const response = await read(STRANGER);
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('access-control-allow-credentials')).toBeNull();
    const exposed = (response.headers.get('access-control-expose-headers') ?? '').split(', ');
    for (const name of EXPOSED) expect(exposed).toContain(name);
    // Listed origins are echoed instead, so the answer varies with the Origin.
    expect(response.headers.get('vary')).toContain('Origin');
  });

  it('let only a listed origin read an answer to a credential', async () => {
    const listed = await read(LISTED, ROOT_TOKEN);
    expect(listed.status).toBe(200);
    expect(listed.headers.get('access-control-allow-origin')).toBe(LISTED);
    expect(listed.headers.get('access-control-allow-credentials')).toBe('true');
    expect(listed.headers.get('vary')).toContain('Origin');
    const stranger = await read(STRANGER, ROOT_TOKEN);
    expect(stranger.status).toBe(200);
    expect(stranger.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('expose the rate-limit headers of a refusal to the page', async () => {
    const origin = 'https://third.example.com';
    // From an address of its own, so that no other test has spent its bucket.
    const socket = { incoming: { socket: { remoteAddress: '192.0.2.90' } } };
    const send = () => app.request('/api/v1/registry', { headers: { origin } }, socket);
    expect((await send()).status).toBe(200);
    const refused = await send();
    expect(refused.status).toBe(429);
    expect(refused.headers.get('access-control-allow-origin')).toBe('*');
    expect(refused.headers.get('access-control-expose-headers')).toContain('Retry-After');
    expect(refused.headers.get('retry-after')).not.toBeNull();
  });

  it('carry nothing without an Origin, nor on the probes', async () => {
    expect((await read(undefined)).headers.get('access-control-allow-origin')).toBeNull();
    const probe = await app.request('/healthz', { headers: { origin: STRANGER } });
    expect(probe.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('REG_CORS_ORIGINS', () => {
  it('is read as exact origins, and anything else is refused naming the variable', () => {
    expect(
      readConfig(testEnv({ REG_CORS_ORIGINS: 'https://App.Example.org/, http://localhost:5173' }))
        .corsOrigins,
    ).toEqual(['https://app.example.org', 'http://localhost:5173']);
    expect(readConfig(testEnv()).corsOrigins).toEqual([]);
    for (const bad of ['https://app.example.org/page', 'ftp://files.example.org', '*', 'https://x.org?a=1'])
      expect(() => readConfig(testEnv({ REG_CORS_ORIGINS: bad })), bad).toThrow(
        /^REG_CORS_ORIGINS must list origins/,
      );
  });
});
