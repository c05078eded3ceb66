import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/core/core.js';
import { createApp } from '../../src/http/app.js';
import { openTestCore, ROOT_TOKEN } from '../helpers.js';
import { startProvider, type TestProvider } from '../support/oidc.js';

/*
 * Identity-provider workloads on a private registry: an extra issuer only says which deployment is calling, so
 * a token of it that binds to no deployment counts as anonymous, except for announcing itself when a software
 * lists its client; and whoami names the software such a client may register deployments of.
 */

const AUDIENCE = 'http://registry.test';
const SCOPES = 'register:software register:instance advertise:produce advertise:consume';
type Json = Record<string, any>;

let primary: TestProvider;
let tenant: TestProvider;
let core: Core;
let app: ReturnType<typeof createApp>;

beforeAll(async () => {
  const clients = [
    { id: 'drifter', scopes: SCOPES },
    { id: 'bound', scopes: SCOPES },
    { id: 'listed', scopes: SCOPES },
    { id: 'own-listed', scopes: SCOPES },
    { id: 'replica', scopes: SCOPES },
    { id: 'guarded', scopes: SCOPES },
  ];
  [primary, tenant] = await Promise.all([
    startProvider({ audience: AUDIENCE, kid: 'primary', clients }),
    startProvider({ audience: AUDIENCE, kid: 'tenant', clients }),
  ]);
  core = await openTestCore(
    {
      REG_OIDC_ISSUER: primary.issuer,
      REG_WORKLOAD_ISSUERS: tenant.issuer,
      REG_PUBLIC_READ: 'false',
      REG_SPARQL_PUBLIC: 'false',
    },
    true,
  );
  app = createApp(core);
});

afterAll(async () => {
  await core?.close();
  await Promise.all([primary?.stop(), tenant?.stop()]);
});

async function call(method: string, path: string, token?: string, body?: unknown) {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (token !== undefined) headers.authorization = `Bearer ${token}`;
  const response = await app.request(path, {
    method,
    headers,
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, body: (text === '' ? {} : JSON.parse(text)) as Json };
}

async function created(path: string, body: unknown): Promise<Json> {
  const result = await call('POST', path, ROOT_TOKEN, body);
  expect(result.status, JSON.stringify(result.body)).toBe(201);
  return result.body;
}

const SPARQL = `/sparql?query=${encodeURIComponent('ASK { ?s ?p ?o }')}`;

describe('an unbound workload of an extra issuer counts as anonymous', () => {
  it('reads nothing of a private registry, through the API or SPARQL', async () => {
    const token = await tenant.clientToken('drifter');
    for (const path of ['/api/v1/software', SPARQL, '/api/v1/instances']) {
      expect((await call('GET', path)).status, `anonymous ${path}`).toBe(401);
      const refused = await call('GET', path, token);
      expect(refused.status, `unbound workload ${path}`).toBe(401);
    }
    const me = (await call('GET', '/api/v1/whoami', token)).body;
    expect(me).toMatchObject({
      authenticated: false,
      credential: 'oidc-workload',
      instance: null,
      scopes: [],
    });
  });

  it('writes nothing, whatever scopes its token carries', async () => {
    const token = await tenant.clientToken('drifter', SCOPES);
    const software = await call('POST', '/api/v1/software', token, { name: 'from a drifter' });
    expect(software.status).toBe(401);
    expect(software.body.detail).toContain('bound to no deployment');
    const instance = await call('POST', '/api/v1/instances', token, { label: 'drifting' });
    expect(instance.status).toBe(401);
  });

  it('reads and acts once a deployment declares its client', async () => {
    const sw = await created('/api/v1/software', { name: 'tenant software' });
    const deployment = await created('/api/v1/instances', {
      software: sw.id,
      label: 'bound at the tenant issuer',
      oidc_client_id: 'bound',
      oidc_issuer: tenant.issuer,
    });
    const token = await tenant.clientToken('bound');
    expect((await call('GET', '/api/v1/software', token)).status).toBe(200);
    expect((await call('GET', SPARQL, token)).status).toBe(200);
    expect((await call('GET', '/api/v1/whoami', token)).body).toMatchObject({
      authenticated: true,
      instance: deployment.iri,
    });
  });

  it('still announces itself when a software lists its client, and is a deployment afterwards', async () => {
    const sw = await created('/api/v1/software', {
      name: 'listing software',
      registration_clients: ['listed'],
      registration_issuer: tenant.issuer,
    });
    const token = await tenant.clientToken('listed');
    expect((await call('GET', '/api/v1/software', token)).status).toBe(401);
    const me = (await call('GET', '/api/v1/whoami', token)).body;
    expect(me.may_register_deployments_of).toBe(sw.iri);
    const announced = await call('PUT', '/api/v1/instances/self', token, { instance_key: 'tenant-node' });
    expect(announced.status, JSON.stringify(announced.body)).toBe(201);
    expect(announced.body.software).toBe(sw.iri);
    const after = await tenant.clientToken('listed');
    expect((await call('GET', '/api/v1/software', after)).status).toBe(200);
  });
});

describe('replicas of one listed client', () => {
  it('bind by the instance_key they send in X-Reg-Instance-Key, and to nothing without it', async () => {
    await created('/api/v1/software', {
      name: 'replicated software',
      registration_clients: ['replica'],
      registration_issuer: tenant.issuer,
    });
    const token = await tenant.clientToken('replica');
    const one = await call('PUT', '/api/v1/instances/self', token, { instance_key: 'replica-1' });
    const two = await call('PUT', '/api/v1/instances/self', token, { instance_key: 'replica-2' });
    expect([one.status, two.status]).toEqual([201, 201]);
    const keyed = (key: string) => ({
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      'x-reg-instance-key': key,
    });
    const advertise = (headers: Record<string, string>) =>
      app.request('/api/v1/advertise/produced', {
        method: 'POST',
        headers,
        body: JSON.stringify({ run: {}, artifacts: [] }),
      });
    expect(
      (await advertise({ authorization: `Bearer ${token}`, 'content-type': 'application/json' })).status,
    ).toBe(401);
    const me = (await (await app.request('/api/v1/whoami', { headers: keyed('replica-2') })).json()) as Json;
    expect(me).toMatchObject({ authenticated: true, instance: two.body.iri });
    expect((await advertise(keyed('replica-2'))).status).toBe(201);
    expect((await call('GET', `/api/v1/instances/${two.body.id}/runs`, ROOT_TOKEN)).body.total).toBe(1);
    expect((await call('GET', `/api/v1/instances/${one.body.id}/runs`, ROOT_TOKEN)).body.total).toBe(0);
    expect((await advertise(keyed('replica-9'))).status).toBe(401);
  });
});

describe("another tenant's client", () => {
  it('cannot be claimed while a software lists it, nor once it registered a deployment of itself', async () => {
    const theirs = await created('/api/v1/software', {
      name: 'guarded software',
      registration_clients: ['guarded'],
      registration_issuer: tenant.issuer,
    });
    const mine = await created('/api/v1/software', { name: 'claiming software' });
    const bound = await created(`/api/v1/software/${mine.id}/tokens`, { scopes: ['register:instance'] });
    const claim = { label: 'claim', oidc_client_id: 'guarded', oidc_issuer: tenant.issuer };
    const listed = await call('POST', '/api/v1/instances', bound.token, claim);
    expect(listed.status).toBe(409);
    expect(listed.body).toMatchObject({ code: 'conflict', field: 'oidc_client_id' });
    expect(listed.body.detail).toContain(theirs.iri);
    const announced = await call('PUT', '/api/v1/instances/self', await tenant.clientToken('guarded'), {});
    expect(announced.status).toBe(201);
    const registered = await call('POST', '/api/v1/instances', ROOT_TOKEN, { ...claim, software: theirs.id });
    expect(registered.status).toBe(409);
    expect(registered.body.detail).toContain(announced.body.iri);
    // The workload still acts as the deployment it registered.
    const me = (await call('GET', '/api/v1/whoami', await tenant.clientToken('guarded'))).body;
    expect(me.instance).toBe(announced.body.iri);
  });
});

describe('whoami names the software a listed client may register deployments of', () => {
  it('for a client of the primary issuer, before and after it announced itself', async () => {
    const sw = await created('/api/v1/software', {
      name: 'primary listing',
      registration_clients: ['own-listed'],
    });
    const token = await primary.clientToken('own-listed');
    const before = (await call('GET', '/api/v1/whoami', token)).body;
    expect(before).toMatchObject({ credential: 'oidc-workload', may_register_deployments_of: sw.iri });
    const announced = await call('PUT', '/api/v1/instances/self', token, {});
    expect(announced.status, JSON.stringify(announced.body)).toBe(201);
    const after = (await call('GET', '/api/v1/whoami', await primary.clientToken('own-listed'))).body;
    expect(after).toMatchObject({ instance: announced.body.iri, may_register_deployments_of: sw.iri });
  });

  it('names nothing for a client no software lists', async () => {
    const me = (await call('GET', '/api/v1/whoami', await primary.clientToken('drifter'))).body;
    expect(me).toMatchObject({ credential: 'oidc-workload', may_register_deployments_of: null });
  });
});
