import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/core/core.js';
import { createApp } from '../../src/http/app.js';
import { openTestCore } from '../helpers.js';
import { apiOf, artifact, type Json } from '../support/api.js';

/* A deployment's allowed_scopes bound its registry API tokens: when they are issued and at every use. */

let core: Core;
let api: ReturnType<typeof apiOf>;

beforeAll(async () => {
  core = await openTestCore({}, true);
  api = apiOf(createApp(core));
});
afterAll(async () => core.close());

async function deployment(allowed?: string[]): Promise<Json> {
  const software = await api.call('POST', '/api/v1/software', 201, { name: 'scoped' });
  return api.call('POST', '/api/v1/instances', 201, {
    software: software.id,
    label: 'scoped deployment',
    ...(allowed === undefined ? {} : { allowed_scopes: allowed }),
  });
}

const tokensOf = (instance: Json) => `/api/v1/instances/${instance.id}/tokens`;
const whoami = (token: string) => api.call('GET', '/api/v1/whoami', 200, undefined, token);
const advertise = (token: string, role: 'produced' | 'consumed') =>
  api.send('POST', `/api/v1/advertise/${role}`, { run: {}, artifacts: [artifact(`${role} item`)] }, token);

describe('issuing tokens within allowed_scopes', () => {
  it('narrows the default scopes to what the deployment allows', async () => {
    const instance = await deployment(['advertise:consume']);
    const minted = await api.call('POST', tokensOf(instance), 201, {});
    expect(minted.record.scopes).toEqual(['advertise:consume']);
    expect((await whoami(minted.token as string)).scopes).toEqual(['advertise:consume']);
  });

  it('refuses a scope outside them, naming it, and issues nothing', async () => {
    const instance = await deployment(['advertise:consume']);
    const refused = await api.call('POST', tokensOf(instance), 422, {
      scopes: ['advertise:produce', 'advertise:consume'],
    });
    expect(refused.code).toBe('scope-not-allowed');
    expect(refused.detail).toContain('advertise:produce');
    expect(refused.errors).toEqual([expect.objectContaining({ field: 'scopes' })]);
    expect((await api.call('GET', tokensOf(instance), 200)).total).toBe(0);
  });

  it('refuses an empty default when the deployment allows none of the default scopes', async () => {
    const instance = await deployment(['subscribe:artifacts']);
    const refused = await api.call('POST', tokensOf(instance), 422, {});
    expect(refused.detail).toContain('subscribe:artifacts');
    const named = await api.call('POST', tokensOf(instance), 201, { scopes: ['subscribe:artifacts'] });
    expect(named.record.scopes).toEqual(['subscribe:artifacts']);
  });

  it('leaves a deployment that lists no allowed_scopes to the request', async () => {
    const instance = await deployment();
    const minted = await api.call('POST', tokensOf(instance), 201, {
      scopes: ['advertise:produce', 'register:instance'],
    });
    expect(minted.record.scopes).toEqual(['advertise:produce', 'register:instance']);
  });
});

describe('using tokens within allowed_scopes', () => {
  it('stops a scope the moment allowed_scopes drops it, and restores it when widened again', async () => {
    const instance = await deployment(['advertise:produce', 'advertise:consume']);
    const minted = await api.call('POST', tokensOf(instance), 201, {});
    const token = minted.token as string;
    expect((await advertise(token, 'produced')).status).toBe(201);
    await api.call('PATCH', `/api/v1/instances/${instance.id}`, 200, {
      allowed_scopes: ['advertise:consume'],
    });
    const refused = await advertise(token, 'produced');
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as Json).detail).toContain('advertise:produce');
    expect((await whoami(token)).scopes).toEqual(['advertise:consume']);
    expect((await advertise(token, 'consumed')).status).toBe(201);
    // The token keeps what it was issued with; widening the deployment brings it back.
    expect((await api.call('GET', tokensOf(instance), 200)).items[0].scopes).toEqual([
      'advertise:produce',
      'advertise:consume',
    ]);
    await api.call('PATCH', `/api/v1/instances/${instance.id}`, 200, {
      allowed_scopes: ['advertise:produce', 'advertise:consume'],
    });
    expect((await advertise(token, 'produced')).status).toBe(201);
  });

  it('never lets a token use a scope it was not issued with, whatever allowed_scopes says', async () => {
    const instance = await deployment(['advertise:produce', 'advertise:consume']);
    const minted = await api.call('POST', tokensOf(instance), 201, { scopes: ['advertise:consume'] });
    expect((await advertise(minted.token as string, 'produced')).status).toBe(403);
  });
});
