import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveCredential } from '../../src/core/access/credentials.js';
import { ROOT_PRINCIPAL, type Principal } from '../../src/core/access/principal.js';
import type { Core } from '../../src/core/core.js';
import type { RegError } from '../../src/core/errors.js';
import { mintIri } from '../../src/core/records/ids.js';
import { INSTANCE } from '../../src/core/records/specs.js';
import { createRecord } from '../../src/core/stored/records.js';
import { actOf } from '../../src/core/stored/write-path.js';
import { createApp } from '../../src/http/app.js';
import { openTestCore, ROOT_TOKEN } from '../helpers.js';
import { DISCOVERY_PATH, startProvider, type TestProvider } from '../support/oidc.js';

/** The registry's base IRI in `testEnv`, and so the audience tokens must carry. */
const AUDIENCE = 'http://registry.test';
const WEB_CLIENT = 'reg-web';
const DEPLOYMENT_SCOPES = 'register:instance advertise:produce advertise:consume';

let primary: TestProvider;
let workload: TestProvider;
let core: Core;
let app: ReturnType<typeof createApp>;
/** Records created once for the whole file and only read by the tests. */
const records: Record<string, { iri: string; id: string }> = {};

const oidcEnv = (issuer: string, workloadIssuers = ''): Record<string, string> => ({
  REG_OIDC_ISSUER: issuer,
  REG_OIDC_CLIENT_ID: WEB_CLIENT,
  REG_WORKLOAD_ISSUERS: workloadIssuers,
});

beforeAll(async () => {
  [primary, workload] = await Promise.all([
    startProvider({
      audience: AUDIENCE,
      kid: 'primary-key',
      clients: [
        { id: WEB_CLIENT },
        { id: 'pipeline', scopes: DEPLOYMENT_SCOPES },
        { id: 'curator-bot', claims: { realm_access: { roles: ['reg-curator', 'offline_access'] } } },
        { id: 'stranger', scopes: 'advertise:produce admin:*' },
      ],
    }),
    startProvider({
      audience: AUDIENCE,
      kid: 'workload-key',
      clients: [
        { id: 'pipeline', scopes: DEPLOYMENT_SCOPES },
        { id: 'runner', scopes: DEPLOYMENT_SCOPES },
        { id: 'rogue', claims: { roles: ['admin', 'curator'], realm_access: { roles: ['reg:admin'] } } },
      ],
    }),
  ]);
  core = await openTestCore(oidcEnv(primary.issuer, workload.issuer), true);
  app = createApp(core);
  records.software = await created('/api/v1/software', { name: 'oidc-pipeline' });
  const software = records.software.id;
  // Unpinned: read against the primary issuer.
  records.pipeline = await created('/api/v1/instances', {
    label: 'pipeline at the primary issuer',
    software,
    oidc_client_id: 'pipeline',
    allowed_scopes: ['advertise:produce', 'register:instance'],
  });
  records.runner = await created('/api/v1/instances', {
    label: 'runner pinned to the workload issuer',
    software,
    oidc_client_id: 'runner',
    oidc_issuer: workload.issuer,
  });
  records.web = await created('/api/v1/instances', {
    label: 'a deployment that declares the web client id',
    software,
    oidc_client_id: WEB_CLIENT,
  });
});

afterAll(async () => {
  await core?.close();
  await Promise.all([primary?.stop(), workload?.stop()]);
});

async function created(path: string, body: unknown): Promise<{ iri: string; id: string }> {
  const response = await app.request(path, {
    method: 'POST',
    headers: { authorization: `Bearer ${ROOT_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const result = (await response.json()) as { iri: string; id: string };
  expect(response.status, JSON.stringify(result)).toBe(201);
  return result;
}

const resolve = (token: string, on: Core = core): Promise<Principal> =>
  resolveCredential(on, `Bearer ${token}`);

/** The registry error a credential is refused with. */
async function refusal(token: string, on: Core = core): Promise<RegError> {
  try {
    await resolve(token, on);
  } catch (error) {
    return error as RegError;
  }
  throw new Error('the token was accepted');
}

/**
 * Opens a separate core for a test that changes the key cache, closing it afterwards; `indexed: false` when the
 * test never gets as far as looking up a deployment.
 */
async function withCore<T>(
  env: Record<string, string>,
  use: (core: Core) => Promise<T>,
  indexed = true,
): Promise<T> {
  const own = await openTestCore(env, indexed);
  try {
    return await use(own);
  } finally {
    await own.close();
  }
}

describe('OIDC workload tokens', () => {
  it('binds a workload token to the deployment that declares its client id', async () => {
    const who = await resolve(await primary.clientToken('pipeline'));
    expect(who).toMatchObject({
      authenticated: true,
      credential: 'oidc-workload',
      actorKind: 'oidc-workload',
      subject: `${primary.issuer}|pipeline`,
      instance: records.pipeline!.iri,
      software: records.software!.iri,
      issuer: primary.issuer,
      clientId: 'pipeline',
      roles: [],
    });
    // No registry scope in the token: the deployment's allowed_scopes.
    expect([...who.scopes].sort()).toEqual(['advertise:produce', 'register:instance']);
  });

  it('narrows allowed_scopes to the scopes the token carries, and defaults to advertising both ways', async () => {
    const narrowed = await resolve(
      await primary.clientToken('pipeline', 'advertise:produce advertise:consume'),
    );
    expect(narrowed.scopes).toEqual(['advertise:produce']);
    const runner = await resolve(await workload.clientToken('runner'));
    expect(runner.instance).toBe(records.runner!.iri);
    expect([...runner.scopes].sort()).toEqual(['advertise:consume', 'advertise:produce']);
  });

  it('pins the binding to the issuer: the same client id at another issuer does not bind', async () => {
    const elsewhere = await resolve(await workload.clientToken('pipeline', DEPLOYMENT_SCOPES));
    // Bound to nothing at a workload-only issuer: it counts as anonymous, whatever scopes it carries.
    expect(elsewhere).toMatchObject({
      authenticated: false,
      credential: 'oidc-workload',
      instance: null,
      software: null,
      subject: `${workload.issuer}|pipeline`,
      clientId: 'pipeline',
      scopes: [],
    });
    // `runner` is pinned to the workload issuer, so the primary issuer's `runner` is somebody else.
    const impostor = await resolve(await primary.signToken({ sub: 'runner', client_id: 'runner' }));
    expect(impostor).toMatchObject({ credential: 'oidc-workload', instance: null, clientId: 'runner' });
  });

  it('binds to a self-registered deployment by credential subject and issuer, only when exactly one matches', async () => {
    // Written the way self-registration records them: registry-kept fields, no oidc_client_id.
    const selfRegister = async (client: string, issuer: string, key: string) => {
      const iri = mintIri(AUDIENCE, INSTANCE.path);
      await createRecord(
        core,
        INSTANCE,
        iri,
        { label: `${client} ${key}`, software: records.software!.iri },
        { self_registered_by: `${issuer}|${client}`, self_registered_issuer: issuer, instance_key: key },
        { act: actOf(ROOT_PRINCIPAL), action: 'instance.self-register' },
      );
      return iri;
    };
    const replica = await selfRegister('replica', workload.issuer, 'node-1');
    // Same subject string recorded for another issuer: not this credential's record.
    await selfRegister('replica', primary.issuer, 'node-1');
    const token = await workload.signToken({ sub: 'replica', client_id: 'replica' });
    expect(await resolve(token)).toMatchObject({
      credential: 'oidc-workload',
      instance: replica,
      software: records.software!.iri,
      subject: `${workload.issuer}|replica`,
    });
    // A second keyed replica under the same credential makes the binding ambiguous: no guessing.
    await selfRegister('replica', workload.issuer, 'node-2');
    expect(await resolve(token)).toMatchObject({ credential: 'oidc-workload', instance: null });
  });

  it('stops binding to a withdrawn deployment', async () => {
    const retired = await created('/api/v1/instances', {
      label: 'retired',
      software: records.software!.id,
      oidc_client_id: 'retired',
    });
    const token = await primary.signToken({ sub: 'retired', client_id: 'retired' });
    expect((await resolve(token)).instance).toBe(retired.iri);
    const withdrawn = await app.request(`/api/v1/instances/${retired.id}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${ROOT_TOKEN}` },
    });
    expect(withdrawn.status).toBe(204);
    expect((await resolve(token)).instance).toBeNull();
  });

  it('never gives an unbound workload the admin:* scope', async () => {
    const who = await resolve(await primary.clientToken('stranger', 'advertise:produce admin:*'));
    expect(who).toMatchObject({ credential: 'oidc-workload', instance: null, scopes: ['advertise:produce'] });
  });
});

describe('OIDC people and roles', () => {
  it('takes roles from the primary issuer: its curator may register software', async () => {
    const token = await primary.clientToken('curator-bot');
    expect(await resolve(token)).toMatchObject({
      credential: 'oidc-human',
      actorKind: 'oidc-human',
      subject: `${primary.issuer}|curator-bot`,
      roles: ['curator'],
      instance: null,
    });
    const response = await app.request('/api/v1/software', {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'registered-by-a-curator' }),
    });
    expect(response.status).toBe(201);
  });

  it('ignores roles a workload-only issuer claims', async () => {
    const token = await workload.clientToken('rogue');
    expect(await resolve(token)).toMatchObject({ credential: 'oidc-workload', roles: [], instance: null });
    const response = await app.request('/api/v1/software', {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'registered-by-a-rogue' }),
    });
    // Bound to no deployment, a workload-only issuer's token counts as anonymous.
    expect(response.status).toBe(401);
    expect(((await response.json()) as { code: string }).code).toBe('unauthorized');
    // Even a signed-in-looking token from a workload issuer is no person.
    const sid = await resolve(
      await workload.signToken({ sub: 'alice', azp: 'rogue', sid: 's-1', roles: ['admin'] }),
    );
    expect(sid).toMatchObject({ credential: 'oidc-workload', roles: [] });
  });

  it('treats a primary token of the web client, or one with a sid, as a person even when a deployment declares the client', async () => {
    const web = await resolve(await primary.clientToken(WEB_CLIENT));
    expect(web).toMatchObject({
      credential: 'oidc-human',
      subject: `${primary.issuer}|${WEB_CLIENT}`,
      instance: null,
      software: null,
      roles: [],
    });
    const signedIn = await resolve(
      await primary.signToken({
        sub: 'alice-0001',
        azp: 'pipeline',
        sid: 'session-1',
        name: 'Alice',
        resource_access: { [WEB_CLIENT]: { roles: ['reg-admin'] } },
      }),
    );
    expect(signedIn).toMatchObject({
      credential: 'oidc-human',
      subject: `${primary.issuer}|alice-0001`,
      displayName: 'Alice',
      roles: ['admin'],
      instance: null,
    });
  });
});

describe('OIDC token verification', () => {
  it('refuses an untrusted issuer, and a trusted issuer claimed with another key', async () => {
    const untrusted = await refusal(await primary.signToken({ iss: 'https://idp.example.org', sub: 'x' }));
    expect(untrusted).toMatchObject({ status: 401, detail: 'issuer https://idp.example.org is not trusted' });
    const forged = await refusal(await workload.signToken({ iss: primary.issuer, sub: 'x' }));
    expect(forged).toMatchObject({ status: 401 });
    expect(forged.detail).toBe(`no signing key of ${primary.issuer} matches the token (kid workload-key)`);
  });

  it('requires an audience and the right one', async () => {
    const missing = await refusal(await primary.signToken({ sub: 'pipeline', aud: undefined }));
    expect(missing).toMatchObject({
      status: 401,
      detail: `token has no audience (aud); it must include ${AUDIENCE}`,
    });
    const wrong = await refusal(
      await primary.signToken({ sub: 'pipeline', aud: 'https://other.example.org' }),
    );
    expect(wrong).toMatchObject({ status: 401, detail: `token audience does not include ${AUDIENCE}` });
  });

  it('refuses a bad signature over HTTP with a 401 problem that does not echo the token', async () => {
    const token = await primary.clientToken('pipeline');
    const [header, payload, signature] = token.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
    const tampered = Buffer.from(JSON.stringify({ ...claims, client_id: 'curator-bot' })).toString(
      'base64url',
    );
    const forged = `${header}.${tampered}.${signature}`;
    expect(await refusal(forged)).toMatchObject({ status: 401, detail: 'token signature is invalid' });
    const response = await app.request('/api/v1/software', {
      method: 'POST',
      headers: { authorization: `Bearer ${forged}`, 'content-type': 'application/json' },
      body: '{"name":"never"}',
    });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe('Bearer');
    const text = await response.text();
    expect(JSON.parse(text)).toMatchObject({ code: 'unauthorized', detail: 'token signature is invalid' });
    expect(text).not.toContain(signature);
  });

  it('checks expiry against the injectable clock', async () => {
    await withCore(oidcEnv(primary.issuer), async (own) => {
      const token = await primary.clientToken('pipeline');
      expect((await resolve(token, own)).credential).toBe('oidc-workload');
      const { exp } = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as {
        exp: number;
      };
      own.oidcKeys.now = () => new Date((exp + 60) * 1000);
      expect(await refusal(token, own)).toMatchObject({ status: 401, detail: 'token has expired' });
      own.oidcKeys.now = () => new Date((exp - 3600) * 1000);
      const later = await primary.signToken({ sub: 'pipeline', nbf: exp - 60 });
      expect(await refusal(later, own)).toMatchObject({
        status: 401,
        detail: 'token is not valid yet (nbf)',
      });
    });
  });

  it('says so when no issuer is configured', async () => {
    await withCore(
      {},
      async (own) => {
        const token = await primary.clientToken('pipeline');
        expect(await refusal(token, own)).toMatchObject({
          status: 401,
          detail: 'no OIDC issuer is configured',
        });
      },
      false,
    );
  });
});

describe('OIDC discovery and keys', () => {
  it('reads the discovery document and key set once and reuses them', async () => {
    const own = await startProvider({ audience: AUDIENCE, clients: [{ id: 'pipeline' }] });
    try {
      await withCore(oidcEnv(own.issuer), async (ownCore) => {
        const tokens = await Promise.all([1, 2, 3].map(() => own.clientToken('pipeline')));
        // Concurrent first requests share one discovery.
        await Promise.all(tokens.map((token) => resolve(token, ownCore)));
        for (const token of tokens) await resolve(token, ownCore);
        expect(own.requests(DISCOVERY_PATH)).toBe(1);
        expect(own.requests('/jwks')).toBe(1);
      });
    } finally {
      await own.stop();
    }
  });

  it('refetches the key set when a token names an unknown kid after a key rotation', async () => {
    const own = await startProvider({ audience: AUDIENCE, kid: 'before', clients: [{ id: 'pipeline' }] });
    try {
      await withCore(oidcEnv(own.issuer), async (ownCore) => {
        ownCore.oidcKeys.cooldownMs = 0;
        const old = await own.clientToken('pipeline');
        expect((await resolve(old, ownCore)).clientId).toBe('pipeline');
        expect(own.requests('/jwks')).toBe(1);
        await own.rotateKey();
        const rotated = await own.clientToken('pipeline');
        expect((await resolve(rotated, ownCore)).clientId).toBe('pipeline');
        expect(own.requests('/jwks')).toBe(2);
        expect(own.requests(DISCOVERY_PATH)).toBe(1);
        // The old key is gone from the provider's key set.
        expect(await refusal(old, ownCore)).toMatchObject({
          status: 401,
          detail: `no signing key of ${own.issuer} matches the token (kid before)`,
        });
      });
    } finally {
      await own.stop();
    }
  });

  it('answers 503 naming the issuer when its discovery document cannot be read', async () => {
    const gone = await startProvider({ audience: AUDIENCE, clients: [{ id: 'pipeline' }] });
    const token = await gone.clientToken('pipeline');
    await gone.stop();
    await withCore(
      oidcEnv(gone.issuer),
      async (ownCore) => {
        const error = await refusal(token, ownCore);
        expect(error).toMatchObject({ status: 503, code: 'unavailable' });
        expect(error.detail).toContain(`identity provider ${gone.issuer} is unavailable`);
      },
      false,
    );
  });
});
