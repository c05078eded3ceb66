import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { authenticateApiToken, LAST_USED_INTERVAL_MS } from '../../src/core/access/api-tokens.js';
import { principal } from '../../src/core/access/principal.js';
import { SCOPES } from '../../src/core/access/scopes.js';
import type { Core } from '../../src/core/core.js';
import { listSoftwareTokens, mintInstanceToken, mintSoftwareToken } from '../../src/core/access/tokens.js';
import { setApiTokenExpiry } from '../../src/core/store/api-tokens.js';
import { createApp } from '../../src/http/app.js';
import { openTestCore, ROOT_TOKEN } from '../helpers.js';
import { actOf } from '../../src/core/stored/write-path.js';

let core: Core;
let app: ReturnType<typeof createApp>;
const TOKEN_SHAPE = /^reg_[0-9a-f]{12}_[0-9a-f]{64}$/;
const MISSING = '0190aaaa-0000-7000-8000-000000000000';
const RECORD_KEYS = [
  'created_at',
  'created_by',
  'expires_at',
  'id',
  'instance_iri',
  'label',
  'last_used_at',
  'prefix',
  'revoked_at',
  'scopes',
  'software_iri',
  'subject_kind',
];

beforeAll(async () => {
  core = await openTestCore({}, true);
  app = createApp(core);
});
afterAll(async () => core.close());
afterEach(() => {
  vi.useRealTimers();
});

type Json = Record<string, any>;
const send = (method: string, path: string, body?: unknown, token: string | null = ROOT_TOKEN) =>
  app.request(path, {
    method,
    headers: {
      'content-type': 'application/json',
      ...(token === null ? {} : { authorization: `Bearer ${token}` }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
const json = async (response: Response) => (await response.json()) as Json;

async function expectStatus(response: Response, status: number): Promise<Json> {
  const text = await response.text();
  expect(response.status, text).toBe(status);
  return text === '' ? {} : (JSON.parse(text) as Json);
}
const created = async (path: string, body: unknown, token: string | null = ROOT_TOKEN) =>
  expectStatus(await send('POST', path, body, token), 201);
const software = () => created('/api/v1/software', { name: 'token-test' });
const instance = (sw: Json) => created('/api/v1/instances', { label: 'Token deployment', software: sw.iri });
const whoami = (token: string) => send('GET', '/api/v1/whoami', undefined, token);
const audit = async (action: string) =>
  (await json(await send('GET', `/api/v1/audit?action=${action}`))).items as Json[];

/** A signed-in curator that is not an administrator (curators come from an identity provider). */
const curator = principal({
  credential: 'oidc-human',
  actorKind: 'oidc-human',
  subject: 'https://id.example.org|curator',
  roles: ['curator'],
});

describe('deployment tokens', () => {
  it('issues a token once: the value is in the answer and nowhere in later reads', async () => {
    const sw = await software();
    const inst = await instance(sw);
    const minted = await created(`/api/v1/instances/${inst.id}/tokens`, {
      label: 'runner',
      expires_in: '90d',
    });
    expect(minted.token).toMatch(TOKEN_SHAPE);
    expect(minted.shown_once).toBe(true);
    expect(Object.keys(minted.record).sort()).toEqual(RECORD_KEYS);
    expect(minted.record).toMatchObject({
      prefix: minted.token.slice(4, 16),
      instance_iri: inst.iri,
      software_iri: null,
      subject_kind: 'instance',
      scopes: ['advertise:produce', 'advertise:consume'],
      label: 'runner',
      created_by: 'urn:reg:root',
      last_used_at: null,
      revoked_at: null,
    });
    expect(minted.record.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7/);
    expect(Date.parse(minted.record.expires_at) - Date.parse(minted.record.created_at)).toBe(90 * 86_400_000);

    const secret = minted.token.slice(17);
    const reads = [
      await send('GET', `/api/v1/instances/${inst.id}/tokens`),
      await send('GET', `/api/v1/instances/${inst.id}`),
      await send('GET', '/api/v1/audit'),
      await send('GET', '/admin/dump'),
    ];
    for (const response of reads) {
      expect(response.status).toBe(200);
      expect(await response.text()).not.toContain(secret);
    }
    const list = await json(await send('GET', `/api/v1/instances/${inst.id}/tokens`));
    expect(list).toEqual({ items: [minted.record], total: 1 });
  });

  it('authenticates as its deployment and records the use at most once a minute', async () => {
    const sw = await software();
    const inst = await instance(sw);
    const { token, record } = await created(`/api/v1/instances/${inst.id}/tokens`, { label: 'probe' });
    const me = await expectStatus(await whoami(token), 200);
    expect(me).toEqual({
      authenticated: true,
      credential: 'local-token',
      subject: inst.iri,
      display_name: 'probe',
      instance: inst.iri,
      may_register_deployments_of: null,
      issuer: null,
      scopes: ['advertise:produce', 'advertise:consume'],
      roles: [],
      is_curator: false,
      is_admin: false,
    });

    const lastUsed = async () =>
      (await json(await send('GET', `/api/v1/instances/${inst.id}/tokens`))).items[0].last_used_at as string;
    const first = await lastUsed();
    expect(Date.now() - Date.parse(first)).toBeLessThan(60_000);
    const soon = new Date(Date.parse(first) + LAST_USED_INTERVAL_MS - 1000);
    const acting = await authenticateApiToken(core, token, soon);
    expect(acting).toMatchObject({ instance: inst.iri, software: sw.iri, tokenId: record.id });
    expect(await lastUsed()).toBe(first);
    const later = new Date(Date.parse(first) + LAST_USED_INTERVAL_MS + 1000);
    await authenticateApiToken(core, token, later);
    expect(await lastUsed()).toBe(later.toISOString());
  });

  it('refuses a revoked token at once, and keeps it in the list marked revoked', async () => {
    const inst = await instance(await software());
    const { token, record } = await created(`/api/v1/instances/${inst.id}/tokens`, {});
    await expectStatus(await whoami(token), 200);
    await expectStatus(await send('DELETE', `/api/v1/instances/${inst.id}/tokens/${record.id}`), 204);
    const refused = await whoami(token);
    const problem = await expectStatus(refused, 401);
    expect(problem.detail).toContain('token is unknown, revoked or expired');
    expect(refused.headers.get('www-authenticate')).toBe('Bearer');
    const [item] = (await json(await send('GET', `/api/v1/instances/${inst.id}/tokens`))).items;
    expect(item.id).toBe(record.id);
    expect(item.revoked_at).toEqual(expect.any(String));
    // A second revocation changes nothing and is not audited again.
    await expectStatus(await send('DELETE', `/api/v1/instances/${inst.id}/tokens/${record.id}`), 204);
    const revocations = (await audit('token.revoke')).filter((entry) => entry.detail.includes(record.id));
    expect(revocations).toHaveLength(1);
    expect((await json(await send('GET', `/api/v1/instances/${inst.id}/tokens`))).items[0].revoked_at).toBe(
      item.revoked_at,
    );
  });

  it('refuses an expired token once the clock passes its expiry', async () => {
    const inst = await instance(await software());
    const { token, record } = await created(`/api/v1/instances/${inst.id}/tokens`, { expires_in: '12h' });
    expect(Date.parse(record.expires_at) - Date.parse(record.created_at)).toBe(12 * 3_600_000);
    await expectStatus(await whoami(token), 200);
    vi.useFakeTimers({ toFake: ['Date'], now: Date.parse(record.expires_at) + 1 });
    expect((await expectStatus(await whoami(token), 401)).detail).toContain('revoked or expired');
    vi.useRealTimers();
    await expectStatus(await whoami(token), 200);
    await expect(authenticateApiToken(core, token, new Date(record.expires_at))).rejects.toMatchObject({
      status: 401,
    });

    setApiTokenExpiry(core.db, record.id, new Date(Date.now() - 1000).toISOString());
    await expectStatus(await whoami(token), 401);
  });

  it('stops the tokens of a withdrawn deployment, and issues none for it', async () => {
    const inst = await instance(await software());
    const { token } = await created(`/api/v1/instances/${inst.id}/tokens`, {});
    await expectStatus(await whoami(token), 200);
    await expectStatus(await send('DELETE', `/api/v1/instances/${inst.id}`), 204);
    await expectStatus(await whoami(token), 401);
    const problem = await expectStatus(await send('POST', `/api/v1/instances/${inst.id}/tokens`, {}), 404);
    expect(problem.detail).toContain('withdrawn');
    expect((await expectStatus(await send('GET', `/api/v1/instances/${inst.id}/tokens`), 200)).total).toBe(1);
  });

  it('refuses unknown records, unknown scopes, bad lifetimes and unknown members', async () => {
    const inst = await instance(await software());
    const path = `/api/v1/instances/${inst.id}/tokens`;
    await expectStatus(await send('POST', `/api/v1/instances/${MISSING}/tokens`, {}), 404);
    await expectStatus(await send('GET', `/api/v1/instances/${MISSING}/tokens`), 404);
    await expectStatus(await send('POST', `/api/v1/software/${MISSING}/tokens`, {}), 404);
    const scope = await expectStatus(
      await send('POST', path, { scopes: ['advertise:produce', 'read:everything'] }),
      400,
    );
    expect(scope.code).toBe('bad-request');
    expect(scope.detail).toBe(`unknown scope "read:everything"; known: ${SCOPES.join(', ')}`);
    for (const expires of ['tomorrow', '0d', '90', 90, '-1h', '3651d', '1y'])
      expect((await expectStatus(await send('POST', path, { expires_in: expires }), 400)).detail).toContain(
        'expires_in',
      );
    await expectStatus(await send('POST', path, { scope: ['advertise:produce'] }), 400);
    await expectStatus(await send('POST', path, { scopes: 'advertise:produce' }), 400);
    await expectStatus(await send('POST', path, { label: 42 }), 400);
    await expectStatus(await send('POST', path, ['advertise:produce']), 400);
    expect((await json(await send('GET', path))).total).toBe(0);
  });

  it('takes an empty body as the defaults, and lists newest first', async () => {
    const inst = await instance(await software());
    const path = `/api/v1/instances/${inst.id}/tokens`;
    const first = await expectStatus(
      await app.request(path, { method: 'POST', headers: { authorization: `Bearer ${ROOT_TOKEN}` } }),
      201,
    );
    expect(first.record).toMatchObject({ scopes: ['advertise:produce', 'advertise:consume'], label: null });
    const second = await created(path, { scopes: ['subscribe:artifacts', 'subscribe:artifacts'] });
    expect(second.record.scopes).toEqual(['subscribe:artifacts']);
    const list = await json(await send('GET', path));
    expect(list.items.map((item: Json) => item.id)).toEqual([second.record.id, first.record.id]);
    expect(list.total).toBe(2);
  });

  it('lets only administrators issue deployment tokens, and only administrators issue admin:* tokens', async () => {
    const sw = await software();
    const inst = await instance(sw);
    const path = `/api/v1/instances/${inst.id}/tokens`;
    await expectStatus(await send('POST', path, {}, null), 401);
    const { token } = await created(path, {});
    expect((await expectStatus(await send('POST', path, {}, token), 403)).detail).toBe('admin role required');
    await expect(mintInstanceToken(core, actOf(curator), inst.id, {})).rejects.toMatchObject({ status: 403 });

    const admin = await created(path, { scopes: ['admin:*'], label: 'ops' });
    expect(await json(await whoami(admin.token))).toMatchObject({ roles: ['admin'], is_admin: true });
    await expect(
      mintSoftwareToken(core, actOf(curator), sw.id, { scopes: ['admin:*'] }),
    ).rejects.toMatchObject({
      status: 403,
      detail: 'only an administrator may issue a token with the admin:* scope',
    });
    const minted = await mintSoftwareToken(core, actOf(curator), sw.id, { label: 'curated' });
    expect(minted.record.created_by).toBe(curator.subject);
    expect((await listSoftwareTokens(core, curator, sw.id)).items.map((item) => item.id)).toContain(
      minted.record.id,
    );
  });

  it("lets a deployment read and revoke its own tokens, but not another's", async () => {
    const sw = await software();
    const [a, b] = [await instance(sw), await instance(sw)];
    const own = await created(`/api/v1/instances/${a.id}/tokens`, {});
    const spare = await created(`/api/v1/instances/${a.id}/tokens`, {});
    const other = await created(`/api/v1/instances/${b.id}/tokens`, {});
    const subscriber = await created(`/api/v1/instances/${a.id}/tokens`, { scopes: ['subscribe:artifacts'] });

    const mine = await expectStatus(
      await send('GET', `/api/v1/instances/${a.id}/tokens`, undefined, own.token),
      200,
    );
    expect(mine.total).toBe(3);
    await expectStatus(await send('GET', `/api/v1/instances/${b.id}/tokens`, undefined, own.token), 403);
    await expectStatus(
      await send('GET', `/api/v1/instances/${a.id}/tokens`, undefined, subscriber.token),
      403,
    );
    await expectStatus(await send('GET', `/api/v1/instances/${a.id}/tokens`, undefined, null), 401);

    // A token of another deployment is not found under this one, whoever asks.
    const misplaced = `/api/v1/instances/${a.id}/tokens/${other.record.id}`;
    await expectStatus(await send('DELETE', misplaced, undefined, own.token), 404);
    await expectStatus(await send('DELETE', misplaced), 404);
    await expectStatus(await send('DELETE', `/api/v1/instances/${a.id}/tokens/not-a-token`), 404);
    await expectStatus(await whoami(other.token), 200);

    const revoke = `/api/v1/instances/${a.id}/tokens/${spare.record.id}`;
    await expectStatus(await send('DELETE', revoke, undefined, own.token), 204);
    await expectStatus(await whoami(spare.token), 401);
    const [entry] = (await audit('token.revoke')).filter((item) => item.detail.includes(spare.record.id));
    expect(entry).toMatchObject({ actor: a.iri, actor_kind: 'instance-token', target: a.iri });
  });
});

describe('software tokens', () => {
  it('issues a shared token with a usage hint, bound to the software and acting as no deployment', async () => {
    const sw = await software();
    const minted = await created(`/api/v1/software/${sw.id}/tokens`, { label: 'fleet' });
    expect(minted.token).toMatch(TOKEN_SHAPE);
    expect(minted.shown_once).toBe(true);
    expect(minted.usage).toMatch(/^PUT http:\/\/registry\.test\/api\/v1\/instances\/self with this token/);
    expect(minted.record).toMatchObject({
      instance_iri: null,
      software_iri: sw.iri,
      subject_kind: 'software',
      scopes: ['register:instance', 'advertise:produce', 'advertise:consume'],
    });
    expect(await json(await whoami(minted.token))).toEqual({
      authenticated: true,
      credential: 'local-token',
      subject: `urn:reg:token:${minted.record.id}`,
      display_name: 'fleet',
      instance: null,
      may_register_deployments_of: sw.iri,
      issuer: null,
      scopes: ['register:instance', 'advertise:produce', 'advertise:consume'],
      roles: [],
      is_curator: false,
      is_admin: false,
    });
    const narrow = await created(`/api/v1/software/${sw.id}/tokens`, { scopes: ['advertise:produce'] });
    expect((await json(await whoami(narrow.token))).may_register_deployments_of).toBeNull();
  });

  it('lists and revokes for curators only, and stops working when the software is withdrawn', async () => {
    const sw = await software();
    const inst = await instance(sw);
    const path = `/api/v1/software/${sw.id}/tokens`;
    const shared = await created(path, {});
    const deployment = await created(`/api/v1/instances/${inst.id}/tokens`, {});
    await expectStatus(await send('GET', path, undefined, shared.token), 403);
    await expectStatus(await send('POST', path, {}, shared.token), 403);
    const list = await expectStatus(await send('GET', path), 200);
    // Its refused calls still count as uses.
    expect(list).toEqual({ items: [{ ...shared.record, last_used_at: expect.any(String) }], total: 1 });
    expect(JSON.stringify(list)).not.toContain(shared.token);
    await expectStatus(await send('DELETE', `${path}/${deployment.record.id}`), 404);

    const spare = await created(path, {});
    await expectStatus(await send('DELETE', `${path}/${spare.record.id}`), 204);
    await expectStatus(await whoami(spare.token), 401);

    await expectStatus(await send('DELETE', `/api/v1/software/${sw.id}`), 204);
    await expectStatus(await whoami(shared.token), 401);
    await expectStatus(await send('POST', path, {}), 404);
  });
});

describe('token audit', () => {
  it('records every issue and revocation with who did it, in the same transaction as the change', async () => {
    const sw = await software();
    const inst = await instance(sw);
    const a = await created(`/api/v1/instances/${inst.id}/tokens`, { scopes: ['advertise:produce'] });
    const s = await created(`/api/v1/software/${sw.id}/tokens`, {});
    await expectStatus(await send('DELETE', `/api/v1/software/${sw.id}/tokens/${s.record.id}`), 204);

    const [mint] = (await audit('token.mint')).filter((entry) => entry.detail.includes(a.record.id));
    expect(mint).toMatchObject({
      actor: 'urn:reg:root',
      actor_kind: 'root-token',
      target: inst.iri,
      detail: `token ${a.record.id} (advertise:produce)`,
    });
    const [software_] = (await audit('token.mint.software')).filter((entry) =>
      entry.detail.includes(s.record.id),
    );
    expect(software_).toMatchObject({ actor: 'urn:reg:root', target: sw.iri });
    const [revoke] = (await audit('token.revoke')).filter((entry) => entry.detail.includes(s.record.id));
    expect(revoke).toMatchObject({ actor: 'urn:reg:root', actor_kind: 'root-token', target: sw.iri });

    // A refused request writes neither a token nor an audit entry.
    const before = (await audit('token.mint')).length;
    await expectStatus(await send('POST', `/api/v1/instances/${inst.id}/tokens`, { scopes: ['nope'] }), 400);
    expect((await audit('token.mint')).length).toBe(before);
  });
});

describe('token format', () => {
  it('refuses tokens that look right but are not held, and a right prefix with a wrong secret', async () => {
    const inst = await instance(await software());
    const { token } = await created(`/api/v1/instances/${inst.id}/tokens`, {});
    const wrongSecret = `${token.slice(0, 17)}${'0'.repeat(64)}`;
    const unknown = `reg_${'0'.repeat(12)}_${'0'.repeat(64)}`;
    for (const candidate of [wrongSecret, unknown, `${token}0`])
      expect((await expectStatus(await whoami(candidate), 401)).detail).toContain(
        'token is unknown, revoked or expired',
      );
  });
});
