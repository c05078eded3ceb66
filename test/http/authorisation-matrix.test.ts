import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/core/core.js';
import { listAudit } from '../../src/core/store/audit.js';
import { setApiTokenExpiry } from '../../src/core/store/api-tokens.js';
import { insertPeer } from '../../src/core/store/peers.js';
import { createApp } from '../../src/http/app.js';
import { openTestCore, ROOT_TOKEN } from '../helpers.js';
import { startProvider, type TestProvider } from '../support/oidc.js';

/*
 * Every write endpoint × every kind of caller: the expected status of each cell, and nothing written (no audit
 * row, no changed record) wherever the call is refused. Each cell gets fresh records, so cells never interact.
 */

const AUDIENCE = 'http://registry.test';
const ALL_SCOPES = ['register:software', 'register:instance', 'advertise:produce', 'advertise:consume'];

let provider: TestProvider;
let core: Core;
let app: ReturnType<typeof createApp>;

type Caller =
  | 'anonymous'
  | 'reader'
  | 'curator'
  | 'admin'
  | 'deployment'
  | 'deployment without scope'
  | 'other deployment'
  | 'revoked token'
  | 'expired token';

/** Records a cell acts on, created fresh by the root token. */
interface Fixture {
  software: string;
  release: string;
  instance: string;
  instanceToken: string;
  instanceTokenId: string;
  otherToken: string;
  narrowToken: string;
  revokedToken: string;
  expiredToken: string;
  subscription: string;
}

/** Peer rows the peer endpoints act on, numbered so that each cell has its own. */
let peerRows = 0;

const root = { authorization: `Bearer ${ROOT_TOKEN}`, 'content-type': 'application/json' };
const people: Partial<Record<Caller, string>> = {};

async function call(
  method: string,
  path: string,
  token: string | undefined,
  body?: unknown,
): Promise<Response> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (token !== undefined) headers.authorization = `Bearer ${token}`;
  return app.request(path, {
    method,
    headers,
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

async function created(path: string, body: unknown): Promise<Record<string, any>> {
  const response = await app.request(path, { method: 'POST', headers: root, body: JSON.stringify(body) });
  const json = (await response.json()) as Record<string, any>;
  expect(response.status, JSON.stringify(json)).toBe(201);
  return json;
}

async function fixture(): Promise<Fixture> {
  const software = (await created('/api/v1/software', { name: 'matrix' })).id as string;
  const otherSoftware = (await created('/api/v1/software', { name: 'elsewhere' })).id as string;
  const release = (await created(`/api/v1/software/${software}/releases`, { version: '1.0' })).id as string;
  const instance = (await created('/api/v1/instances', { software, label: 'x', allowed_scopes: ALL_SCOPES }))
    .id as string;
  const other = (
    await created('/api/v1/instances', { software: otherSoftware, label: 'y', allowed_scopes: ALL_SCOPES })
  ).id as string;
  const mint = async (id: string, scopes: string[]) => created(`/api/v1/instances/${id}/tokens`, { scopes });
  const full = await mint(instance, ALL_SCOPES);
  const revoked = await mint(instance, ALL_SCOPES);
  await app.request(`/api/v1/instances/${instance}/tokens/${revoked.record.id}`, {
    method: 'DELETE',
    headers: root,
  });
  const expired = await mint(instance, ALL_SCOPES);
  setApiTokenExpiry(core.db, expired.record.id as string, new Date(Date.now() - 60_000).toISOString());
  return {
    software,
    release,
    instance,
    instanceToken: full.token as string,
    instanceTokenId: full.record.id as string,
    otherToken: (await mint(other, ALL_SCOPES)).token as string,
    narrowToken: (await mint(instance, ['advertise:produce'])).token as string,
    revokedToken: revoked.token as string,
    expiredToken: expired.token as string,
    subscription: (await created(`/api/v1/instances/${instance}/subscriptions`, {})).subscription
      .id as string,
  };
}

function tokenOf(caller: Caller, f: Fixture): string | undefined {
  switch (caller) {
    case 'anonymous':
      return undefined;
    case 'deployment':
      return f.instanceToken;
    case 'deployment without scope':
      return f.narrowToken;
    case 'other deployment':
      return f.otherToken;
    case 'revoked token':
      return f.revokedToken;
    case 'expired token':
      return f.expiredToken;
    default:
      return people[caller];
  }
}

interface Endpoint {
  readonly name: string;
  readonly request: (f: Fixture) => [method: string, path: string, body?: unknown];
  /** Expected status by caller; callers not listed expect `otherwise`. */
  readonly expect: Partial<Record<Caller, number>>;
  readonly otherwise: number;
}

const REFUSED_ALWAYS: Partial<Record<Caller, number>> = {
  anonymous: 401,
  'revoked token': 401,
  'expired token': 401,
  reader: 403,
};

const ENDPOINTS: readonly Endpoint[] = [
  {
    name: 'POST /software',
    request: () => ['POST', '/api/v1/software', { name: 'new' }],
    expect: { ...REFUSED_ALWAYS, curator: 201, admin: 201, deployment: 201, 'other deployment': 201 },
    otherwise: 403,
  },
  {
    name: 'PATCH /software/{id}',
    request: (f) => ['PATCH', `/api/v1/software/${f.software}`, { tagline: 'changed' }],
    expect: { ...REFUSED_ALWAYS, curator: 200, admin: 200 },
    otherwise: 403,
  },
  {
    name: 'DELETE /software/{id}',
    request: (f) => ['DELETE', `/api/v1/software/${f.software}`],
    expect: { ...REFUSED_ALWAYS, curator: 204, admin: 204 },
    otherwise: 403,
  },
  {
    name: 'PUT /software/{id}/capability',
    request: (f) => ['PUT', `/api/v1/software/${f.software}/capability`, { produces: [], consumes: [] }],
    expect: { ...REFUSED_ALWAYS, curator: 200, admin: 200 },
    otherwise: 403,
  },
  {
    // The fixture's software is connected to no repository: past the authorisation check comes that 400.
    name: 'POST /software/{id}/sync',
    request: (f) => ['POST', `/api/v1/software/${f.software}/sync`],
    expect: { ...REFUSED_ALWAYS, curator: 400, admin: 400 },
    otherwise: 403,
  },
  {
    name: 'POST /software/{id}/releases',
    request: (f) => ['POST', `/api/v1/software/${f.software}/releases`, { version: '2.0' }],
    expect: { ...REFUSED_ALWAYS, curator: 201, admin: 201, deployment: 201 },
    otherwise: 403,
  },
  {
    name: 'DELETE /software/{id}/releases/{rid}',
    request: (f) => ['DELETE', `/api/v1/software/${f.software}/releases/${f.release}`],
    expect: { ...REFUSED_ALWAYS, curator: 204, admin: 204 },
    otherwise: 403,
  },
  {
    name: 'POST /software/{id}/tokens',
    request: (f) => ['POST', `/api/v1/software/${f.software}/tokens`, { label: 'ci' }],
    expect: { ...REFUSED_ALWAYS, curator: 201, admin: 201 },
    otherwise: 403,
  },
  {
    name: 'POST /instances',
    request: (f) => ['POST', '/api/v1/instances', { software: f.software, label: 'new' }],
    expect: { ...REFUSED_ALWAYS, curator: 201, admin: 201, deployment: 201 },
    otherwise: 403,
  },
  {
    name: 'PATCH /instances/{id}',
    request: (f) => ['PATCH', `/api/v1/instances/${f.instance}`, { description: 'changed' }],
    expect: { ...REFUSED_ALWAYS, curator: 200, admin: 200, deployment: 200, 'deployment without scope': 200 },
    otherwise: 403,
  },
  {
    name: 'DELETE /instances/{id}',
    request: (f) => ['DELETE', `/api/v1/instances/${f.instance}`],
    expect: { ...REFUSED_ALWAYS, curator: 204, admin: 204 },
    otherwise: 403,
  },
  {
    name: 'PUT /instances/{id}/capability',
    request: (f) => ['PUT', `/api/v1/instances/${f.instance}/capability`, { produces: [], consumes: [] }],
    expect: { ...REFUSED_ALWAYS, curator: 200, admin: 200, deployment: 200, 'deployment without scope': 200 },
    otherwise: 403,
  },
  {
    name: 'POST /instances/{id}/tokens',
    request: (f) => ['POST', `/api/v1/instances/${f.instance}/tokens`, {}],
    expect: { ...REFUSED_ALWAYS, admin: 201 },
    otherwise: 403,
  },
  {
    name: 'DELETE /instances/{id}/tokens/{tid}',
    request: (f) => ['DELETE', `/api/v1/instances/${f.instance}/tokens/${f.instanceTokenId}`],
    expect: { ...REFUSED_ALWAYS, curator: 204, admin: 204, deployment: 204, 'deployment without scope': 204 },
    otherwise: 403,
  },
  {
    name: 'POST /types',
    request: () => ['POST', '/api/v1/types', { label: 'Matrix type' }],
    expect: { ...REFUSED_ALWAYS, curator: 201, admin: 201, deployment: 201, 'other deployment': 201 },
    otherwise: 403,
  },
  {
    name: 'POST /licenses',
    request: () => [
      'POST',
      '/api/v1/licenses',
      { iri: 'https://example.org/licence/matrix', label: 'Matrix licence' },
    ],
    expect: { ...REFUSED_ALWAYS, curator: 201, admin: 201 },
    otherwise: 403,
  },
  {
    name: 'POST /instances/{id}/subscriptions',
    request: (f) => ['POST', `/api/v1/instances/${f.instance}/subscriptions`, { label: 'matrix' }],
    expect: { ...REFUSED_ALWAYS, curator: 201, admin: 201, deployment: 201, 'deployment without scope': 201 },
    otherwise: 403,
  },
  {
    name: 'PATCH /subscriptions/{sid}',
    request: (f) => ['PATCH', `/api/v1/subscriptions/${f.subscription}`, { label: 'changed' }],
    expect: { ...REFUSED_ALWAYS, curator: 200, admin: 200, deployment: 200, 'deployment without scope': 200 },
    otherwise: 403,
  },
  {
    name: 'DELETE /subscriptions/{sid}',
    request: (f) => ['DELETE', `/api/v1/subscriptions/${f.subscription}`],
    expect: { ...REFUSED_ALWAYS, curator: 204, admin: 204, deployment: 204, 'deployment without scope': 204 },
    otherwise: 403,
  },
  {
    name: 'POST /subscriptions/{sid}/deliveries/ack',
    request: (f) => ['POST', `/api/v1/subscriptions/${f.subscription}/deliveries/ack`, { cursor: 0 }],
    expect: { ...REFUSED_ALWAYS, curator: 200, admin: 200, deployment: 200, 'deployment without scope': 200 },
    otherwise: 403,
  },
  {
    // Announcing needs register:instance (spec §4); the narrow token has only advertise:produce.
    name: 'PUT /instances/self',
    request: () => ['PUT', '/api/v1/instances/self', { label: 'announced' }],
    expect: { ...REFUSED_ALWAYS, deployment: 200, 'other deployment': 200 },
    otherwise: 403,
  },
  {
    name: 'GET /peers',
    request: () => ['GET', '/api/v1/peers'],
    expect: { ...REFUSED_ALWAYS, admin: 200 },
    otherwise: 403,
  },
  {
    name: 'GET /peers/suggested',
    request: () => ['GET', '/api/v1/peers/suggested'],
    expect: { ...REFUSED_ALWAYS, admin: 200 },
    otherwise: 403,
  },
  {
    // Port 1 refuses connections: the administrator gets past the policy to the description check (400).
    name: 'POST /peers',
    request: () => ['POST', '/api/v1/peers', { base_iri: 'http://127.0.0.1:1' }],
    expect: { ...REFUSED_ALWAYS, admin: 400 },
    otherwise: 403,
  },
  {
    name: 'DELETE /peers/{id}',
    request: () => {
      const id = `matrix-peer-${++peerRows}`;
      insertPeer(core.db, {
        id,
        base_iri: `http://${id}.example`,
        title: null,
        operator: null,
        state: 'active',
        added_at: new Date().toISOString(),
        last_seen_at: null,
        resolve_status: 'unknown',
        last_error: null,
        suggested_by: null,
        software_version: null,
        described_at: null,
        last_contact_at: null,
      });
      return ['DELETE', `/api/v1/peers/${id}`];
    },
    expect: { ...REFUSED_ALWAYS, admin: 204 },
    otherwise: 403,
  },
  {
    name: 'POST /peers/announce',
    request: () => ['POST', '/api/v1/peers/announce', { base_iri: `http://announcer-${++peerRows}.example` }],
    expect: { 'revoked token': 401, 'expired token': 401 },
    otherwise: 200,
  },
];

const CALLERS: readonly Caller[] = [
  'anonymous',
  'reader',
  'curator',
  'admin',
  'deployment',
  'deployment without scope',
  'other deployment',
  'revoked token',
  'expired token',
];

beforeAll(async () => {
  provider = await startProvider({
    audience: AUDIENCE,
    clients: [
      { id: 'reader-person', claims: { roles: ['reader'], sid: 'session-r' } },
      { id: 'curator-person', claims: { roles: ['curator'], sid: 'session-c' } },
      { id: 'admin-person', claims: { roles: ['admin'], sid: 'session-a' } },
    ],
  });
  core = await openTestCore({ REG_OIDC_ISSUER: provider.issuer }, true);
  app = createApp(core);
  people.reader = await provider.clientToken('reader-person');
  people.curator = await provider.clientToken('curator-person');
  people.admin = await provider.clientToken('admin-person');
});

afterAll(async () => {
  await core?.close();
  await provider?.stop();
});

describe('authorisation matrix', () => {
  for (const endpoint of ENDPOINTS) {
    it(endpoint.name, async () => {
      const seen: Record<string, number> = {};
      const wanted: Record<string, number> = {};
      for (const caller of CALLERS) {
        const f = await fixture();
        const [method, path, body] = endpoint.request(f);
        const before = listAudit(core.db, { limit: 1 })[0]?.id ?? 0;
        const response = await call(method, path, tokenOf(caller, f), body);
        seen[caller] = response.status;
        wanted[caller] = endpoint.expect[caller] ?? endpoint.otherwise;
        if (response.status >= 400) {
          expect(response.headers.get('content-type'), `${caller}: problem+json`).toBe(
            'application/problem+json',
          );
          const problem = (await response.json()) as { detail?: string };
          expect(problem.detail, `${caller}: the refusal says why`).toBeTypeOf('string');
          if (response.status === 401) expect(response.headers.get('www-authenticate')).toBe('Bearer');
          // Refused means nothing written: no audit row after the one before the call.
          expect(listAudit(core.db, { limit: 1 })[0]?.id ?? 0, `${caller}: nothing written`).toBe(before);
        }
      }
      expect(seen).toEqual(wanted);
    });
  }
});
