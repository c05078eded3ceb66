import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/core/core.js';
import { createApp } from '../../src/http/app.js';
import { openTestCore, ROOT_TOKEN } from '../helpers.js';
import { startProvider, type TestProvider } from '../support/oidc.js';

/* The four ways to register a deployment (spec §4), end to end with real credentials. */

const AUDIENCE = 'http://registry.test';
let provider: TestProvider;
let core: Core;
let app: ReturnType<typeof createApp>;
const root = { authorization: `Bearer ${ROOT_TOKEN}`, 'content-type': 'application/json' };

const as = (token: string) => ({ authorization: `Bearer ${token}`, 'content-type': 'application/json' });
async function request(method: string, path: string, headers: Record<string, string>, body?: unknown) {
  const response = await app.request(path, {
    method,
    headers,
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}

beforeAll(async () => {
  provider = await startProvider({
    audience: AUDIENCE,
    clients: [
      { id: 'curated-workload', scopes: 'advertise:produce' },
      { id: 'self-workload', scopes: 'register:instance advertise:produce' },
      { id: 'unknown-workload', scopes: 'register:instance' },
    ],
  });
  core = await openTestCore({ REG_OIDC_ISSUER: provider.issuer }, true);
  app = createApp(core);
});

afterAll(async () => {
  await core?.close();
  await provider?.stop();
});

describe('the four ways to register', () => {
  it('curated, with a registry API token: an admin creates the record and mints its token', async () => {
    const software = (await request('POST', '/api/v1/software', root, { name: 'one' })).body;
    const instance = (
      await request('POST', '/api/v1/instances', root, { software: software.id, label: 'curated' })
    ).body;
    const minted = await request('POST', `/api/v1/instances/${instance.id}/tokens`, root, { label: 'ci' });
    expect(minted.status).toBe(201);
    const me = (await request('GET', '/api/v1/whoami', as(minted.body.token))).body;
    expect(me).toMatchObject({
      authenticated: true,
      credential: 'local-token',
      instance: instance.iri,
      scopes: ['advertise:produce', 'advertise:consume'],
    });
  });

  it('self-registering, with a registry API token: a curator mints a software token, each deployment PUTs itself', async () => {
    const software = (await request('POST', '/api/v1/software', root, { name: 'two' })).body;
    const minted = await request('POST', `/api/v1/software/${software.id}/tokens`, root, { label: 'fleet' });
    expect(minted.body.usage).toContain('/api/v1/instances/self');
    const first = await request('PUT', '/api/v1/instances/self', as(minted.body.token), {
      instance_key: 'host-1',
      endpoint_url: 'https://h1.example.org',
    });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ software: software.iri, instance_key: 'host-1' });
    const again = await request('PUT', '/api/v1/instances/self', as(minted.body.token), {
      instance_key: 'host-1',
      label: 'Host 1',
    });
    expect(again.status).toBe(200);
    expect(again.body.iri).toBe(first.body.iri);
    const other = await request('POST', '/api/v1/software', root, { name: 'other' });
    const refused = await request('PUT', '/api/v1/instances/self', as(minted.body.token), {
      software: other.body.id,
    });
    expect(refused.status).toBe(403);
  });

  it('curated, with the identity provider: an admin creates the record with its oidc_client_id', async () => {
    const software = (await request('POST', '/api/v1/software', root, { name: 'three' })).body;
    const instance = (
      await request('POST', '/api/v1/instances', root, {
        software: software.id,
        label: 'idp',
        oidc_client_id: 'curated-workload',
      })
    ).body;
    const me = (
      await request(
        'GET',
        '/api/v1/whoami',
        as(await provider.clientToken('curated-workload', 'advertise:produce')),
      )
    ).body;
    expect(me).toMatchObject({
      credential: 'oidc-workload',
      instance: instance.iri,
      issuer: provider.issuer,
      scopes: ['advertise:produce'],
    });
  });

  it('self-registering, with the identity provider: the software lists the client, the deployment registers itself', async () => {
    const software = (
      await request('POST', '/api/v1/software', root, {
        name: 'four',
        registration_clients: ['self-workload'],
      })
    ).body;
    const token = await provider.clientToken('self-workload');
    const first = await request('PUT', '/api/v1/instances/self', as(token), { label: 'self via idp' });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ software: software.iri, self_registered_issuer: provider.issuer });
    expect(first.body.oidc_client_id).toBeUndefined();
    const me = (await request('GET', '/api/v1/whoami', as(await provider.clientToken('self-workload')))).body;
    expect(me.instance).toBe(first.body.iri);
    const again = await request('PUT', '/api/v1/instances/self', as(token), {
      endpoint_url: 'https://four.example.org',
    });
    expect(again.status).toBe(200);
    expect(again.body.iri).toBe(first.body.iri);

    const stranger = await request(
      'PUT',
      '/api/v1/instances/self',
      as(await provider.clientToken('unknown-workload')),
      {},
    );
    expect(stranger.status).toBe(403);
    expect(stranger.body.detail).toContain('registration_clients');
  });
});
