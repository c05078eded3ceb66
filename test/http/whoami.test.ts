import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCOPES } from '../../src/core/access/scopes.js';
import type { Core } from '../../src/core/core.js';
import { createApp } from '../../src/http/app.js';
import { openTestCore, ROOT_TOKEN } from '../helpers.js';

let core: Core;
let app: ReturnType<typeof createApp>;

beforeAll(async () => {
  // Anonymous reads are off: whoami must answer anyway.
  core = await openTestCore({ REG_PUBLIC_READ: 'false' }, true);
  app = createApp(core);
});
afterAll(async () => core.close());

type Json = Record<string, any>;
const bearer = (token: string) => ({ authorization: `Bearer ${token}`, 'content-type': 'application/json' });
const whoami = (headers: Record<string, string> = {}) => app.request('/api/v1/whoami', { headers });

async function post(path: string, body: unknown): Promise<Json> {
  const response = await app.request(path, {
    method: 'POST',
    headers: bearer(ROOT_TOKEN),
    body: JSON.stringify(body),
  });
  const result = (await response.json()) as Json;
  expect(response.status, JSON.stringify(result)).toBe(201);
  return result;
}

describe('GET /api/v1/whoami', () => {
  it('answers an anonymous caller even when anonymous reads are off', async () => {
    expect((await app.request('/api/v1/software')).status).toBe(401);
    const response = await whoami();
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      authenticated: false,
      credential: 'none',
      subject: 'anonymous',
      display_name: null,
      instance: null,
      may_register_deployments_of: null,
      issuer: null,
      scopes: [],
      roles: [],
      is_curator: false,
      is_admin: false,
    });
  });

  it('describes the root token as the bootstrap administrator with every scope', async () => {
    const response = await whoami(bearer(ROOT_TOKEN));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      authenticated: true,
      credential: 'root-token',
      subject: 'urn:reg:root',
      display_name: 'bootstrap admin',
      instance: null,
      may_register_deployments_of: null,
      issuer: null,
      scopes: [...SCOPES],
      roles: ['admin'],
      is_curator: true,
      is_admin: true,
    });
  });

  it('describes a deployment token as its deployment, and a software token by its binding', async () => {
    const software = await post('/api/v1/software', { name: 'whoami-test' });
    const instance = await post('/api/v1/instances', { label: 'who', software: software.iri });
    const deployment = await post(`/api/v1/instances/${instance.id}/tokens`, { label: 'node 1' });
    expect(await (await whoami(bearer(deployment.token))).json()).toMatchObject({
      authenticated: true,
      credential: 'local-token',
      subject: instance.iri,
      instance: instance.iri,
      display_name: 'node 1',
      may_register_deployments_of: null,
      is_curator: false,
    });
    const shared = await post(`/api/v1/software/${software.id}/tokens`, {});
    expect(await (await whoami(bearer(shared.token))).json()).toMatchObject({
      credential: 'local-token',
      subject: `urn:reg:token:${shared.record.id}`,
      instance: null,
      display_name: null,
      may_register_deployments_of: software.iri,
    });
  });

  it('refuses a credential it cannot verify rather than answering as anonymous', async () => {
    const unknown = await whoami(bearer(`reg_${'a'.repeat(12)}_${'b'.repeat(64)}`));
    expect(unknown.status).toBe(401);
    expect(((await unknown.json()) as Json).detail).toContain('token is unknown, revoked or expired');
    const malformed = await whoami({ authorization: 'Basic dXNlcjpwYXNz' });
    expect(malformed.status).toBe(401);
    expect(((await malformed.json()) as Json).detail).toContain('unrecognised credential format');
  });
});
