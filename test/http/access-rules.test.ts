import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/core/core.js';
import { createApp } from '../../src/http/app.js';
import { openTestCore } from '../helpers.js';
import { apiOf, artifact, type Json } from '../support/api.js';

/*
 * Who may act for a deployment: a shared software token advertising as the deployment it registered, the
 * deployable rule on self-registration, what a deployment's own credential may edit, and one live deployment
 * per identity-provider client.
 */

let core: Core;
let app: ReturnType<typeof createApp>;
let api: ReturnType<typeof apiOf>;

beforeAll(async () => {
  core = await openTestCore({}, true);
  app = createApp(core);
  api = apiOf(app);
});
afterAll(async () => core.close());

/** A request with a bearer token and any extra headers, answered as status and JSON body. */
async function send(
  method: string,
  path: string,
  token: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: Json }> {
  const response = await app.request(path, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, body: text === '' ? {} : (JSON.parse(text) as Json) };
}

const software = (name: string, extra: Json = {}) =>
  api.call('POST', '/api/v1/software', 201, { name, ...extra });
const softwareToken = async (sw: Json): Promise<string> =>
  (await api.call('POST', `/api/v1/software/${sw.id}/tokens`, 201, {})).token as string;
const produced = (title: string) => ({ run: {}, artifacts: [artifact(title)] });

describe('a software token advertises as the deployment it registered', () => {
  it('acts as its one self-registered deployment', async () => {
    const sw = await software('shared-one');
    const token = await softwareToken(sw);
    const before = await send('POST', '/api/v1/advertise/produced', token, produced('too early'));
    expect(before.status).toBe(403);
    expect(before.body.detail).toContain('PUT /api/v1/instances/self');
    const announced = await send('PUT', '/api/v1/instances/self', token, { instance_key: 'only' });
    expect(announced.status).toBe(201);
    const advertised = await send('POST', '/api/v1/advertise/produced', token, produced('from the one'));
    expect(advertised.status, JSON.stringify(advertised.body)).toBe(201);
    const runs = await api.call('GET', `/api/v1/instances/${announced.body.id}/runs`, 200);
    expect(runs.items.map((run: Json) => run.iri)).toEqual([advertised.body.run]);
  });

  it('with several deployments refuses to guess, names them, and takes X-Reg-Instance-Key', async () => {
    const sw = await software('shared-two');
    const token = await softwareToken(sw);
    const a = await send('PUT', '/api/v1/instances/self', token, { instance_key: 'node-a' });
    const b = await send('PUT', '/api/v1/instances/self', token, { instance_key: 'node-b' });
    expect([a.status, b.status]).toEqual([201, 201]);
    const ambiguous = await send('POST', '/api/v1/advertise/produced', token, produced('whose?'));
    expect(ambiguous.status).toBe(403);
    expect(ambiguous.body.code).toBe('forbidden');
    for (const text of [a.body.iri, b.body.iri, 'node-a', 'node-b', 'X-Reg-Instance-Key'])
      expect(ambiguous.body.detail).toContain(text);
    const chosen = await send('POST', '/api/v1/advertise/produced', token, produced('from b'), {
      'x-reg-instance-key': 'node-b',
    });
    expect(chosen.status, JSON.stringify(chosen.body)).toBe(201);
    expect((await api.call('GET', `/api/v1/instances/${b.body.id}/runs`, 200)).total).toBe(1);
    expect((await api.call('GET', `/api/v1/instances/${a.body.id}/runs`, 200)).total).toBe(0);
    const unknown = await send('POST', '/api/v1/advertise/produced', token, produced('nobody'), {
      'x-reg-instance-key': 'node-z',
    });
    expect(unknown.status).toBe(403);
    expect(unknown.body.detail).toContain('node-z');
  });

  it('never takes the deployment from the body', async () => {
    const sw = await software('shared-body');
    const token = await softwareToken(sw);
    const x = await send('PUT', '/api/v1/instances/self', token, { instance_key: 'x' });
    await send('PUT', '/api/v1/instances/self', token, { instance_key: 'y' });
    const refused = await send('POST', '/api/v1/advertise/produced', token, {
      ...produced('body'),
      instance_key: 'x',
    });
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toContain('X-Reg-Instance-Key');
    expect((await api.call('GET', `/api/v1/instances/${x.body.id}/runs`, 200)).total).toBe(0);
  });

  it('ingests OpenLineage events as that deployment too', async () => {
    const sw = await software('shared-lineage');
    const token = await softwareToken(sw);
    const announced = await send('PUT', '/api/v1/instances/self', token, { instance_key: 'lineage' });
    const event = JSON.parse(
      fs.readFileSync(new URL('../fixtures/openlineage/airflow-start.json', import.meta.url), 'utf8'),
    ) as Json;
    const ingested = await send('POST', '/api/v1/openlineage', token, event);
    expect(ingested.status, JSON.stringify(ingested.body)).toBeLessThan(300);
    expect((await api.call('GET', `/api/v1/instances/${announced.body.id}/runs`, 200)).total).toBe(1);
  });
});

describe('self-registration follows the deployment rules', () => {
  it('refuses an endpoint on software that cannot be hosted, as POST and PATCH do', async () => {
    const sw = await software('library only', { deployable: false });
    const token = await softwareToken(sw);
    const refused = await send('PUT', '/api/v1/instances/self', token, {
      instance_key: 'lib',
      endpoint_url: 'https://lib.example.org',
    });
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({ code: 'not-deployable', field: 'endpoint_url' });
    const posted = await api.call('POST', '/api/v1/instances', 422, {
      software: sw.id,
      label: 'posted',
      endpoint_url: 'https://lib.example.org',
    });
    expect(refused.body.type).toBe(posted.type);
    expect((await api.call('GET', `/api/v1/instances?software=${sw.id}`, 200)).total).toBe(0);
    const accepted = await send('PUT', '/api/v1/instances/self', token, { instance_key: 'lib' });
    expect(accepted.status).toBe(201);
    const later = await send('PUT', '/api/v1/instances/self', token, {
      instance_key: 'lib',
      endpoint_url: 'https://lib.example.org',
    });
    expect(later.status).toBe(422);
    expect(later.body.code).toBe('not-deployable');
  });

  it('stores availability and jurisdiction, availability held to its four values', async () => {
    const sw = await software('announces place');
    const token = await softwareToken(sw);
    const announced = await send('PUT', '/api/v1/instances/self', token, {
      instance_key: 'eu-1',
      availability: 'restricted',
      jurisdiction: 'NL',
    });
    expect(announced.status, JSON.stringify(announced.body)).toBe(201);
    expect(announced.body).toMatchObject({ availability: 'restricted', jurisdiction: 'NL' });
    const bad = await send('PUT', '/api/v1/instances/self', token, {
      instance_key: 'eu-1',
      availability: 'everyone',
    });
    expect(bad.status).toBe(422);
    expect(JSON.stringify(bad.body.errors)).toContain('availability');
    expect((await api.call('GET', `/api/v1/instances/${announced.body.id}`, 200)).availability).toBe(
      'restricted',
    );
  });
});

describe("a deployment's own credential", () => {
  const mint = async (id: string, scopes: string[]) =>
    (await api.call('POST', `/api/v1/instances/${id}/tokens`, 201, { scopes })).token as string;

  it('with only subscribe:artifacts manages subscriptions and nothing else', async () => {
    const { instance } = await api.deployment(undefined, 'subscriber only');
    const token = await mint(instance.id, ['subscribe:artifacts']);
    const path = `/api/v1/instances/${instance.id}`;
    for (const [method, target, body] of [
      ['PATCH', path, { label: 'taken over' }],
      ['PATCH', path, { endpoint_url: 'https://elsewhere.example.org' }],
      ['PUT', `${path}/capability`, { produces: [], consumes: [] }],
      ['PUT', '/api/v1/instances/self', { label: 'announced' }],
      ['GET', `${path}/tokens`, undefined],
    ] as const) {
      const refused = await send(method, target, token, body);
      expect(refused.status, `${method} ${target}`).toBe(403);
    }
    expect((await api.call('GET', path, 200)).label).toBe('subscriber only');
    await api.call('POST', `${path}/subscriptions`, 201, { label: 'mine' }, token);
  });

  it('with the default advertise scopes keeps its own record but does not announce', async () => {
    const { instance } = await api.deployment(undefined, 'advertiser');
    const token = (await api.call('POST', `/api/v1/instances/${instance.id}/tokens`, 201, {}))
      .token as string;
    const path = `/api/v1/instances/${instance.id}`;
    expect((await send('PATCH', path, token, { label: 'renamed' })).status).toBe(200);
    expect((await send('PUT', `${path}/capability`, token, { produces: [], consumes: [] })).status).toBe(200);
    const announce = await send('PUT', '/api/v1/instances/self', token, { label: 'announced' });
    expect(announce.status).toBe(403);
    expect(announce.body.detail).toContain('register:instance');
    const registering = await mint(instance.id, ['register:instance']);
    expect((await send('PUT', '/api/v1/instances/self', registering, { label: 'announced' })).status).toBe(
      200,
    );
  });
});

describe('one live deployment per identity-provider client', () => {
  it('refuses a second deployment claiming a client id, on POST and PATCH, until the first is withdrawn', async () => {
    const mine = await software('tenant a');
    const theirs = await software('tenant b');
    const first = await api.call('POST', '/api/v1/instances', 201, {
      software: theirs.id,
      label: 'owner',
      oidc_client_id: 'tenant-b-workload',
    });
    const bound = await api.call('POST', `/api/v1/software/${mine.id}/tokens`, 201, {
      scopes: ['register:instance'],
    });
    const claimed = await send('POST', '/api/v1/instances', bound.token as string, {
      label: 'claim',
      oidc_client_id: 'tenant-b-workload',
    });
    expect(claimed.status).toBe(409);
    expect(claimed.body).toMatchObject({ code: 'conflict', field: 'oidc_client_id' });
    expect(claimed.body.detail).toContain(first.iri);
    const curated = await api.call('POST', '/api/v1/instances', 409, {
      software: mine.id,
      label: 'curated claim',
      oidc_client_id: 'tenant-b-workload',
    });
    expect(curated.errors).toEqual([expect.objectContaining({ field: 'oidc_client_id' })]);
    const other = await api.call('POST', '/api/v1/instances', 201, { software: mine.id, label: 'other' });
    await api.call('PATCH', `/api/v1/instances/${other.id}`, 409, { oidc_client_id: 'tenant-b-workload' });
    // Another issuer's client of the same name is another client.
    await api.call('PATCH', `/api/v1/instances/${other.id}`, 200, {
      oidc_client_id: 'tenant-b-workload',
      oidc_issuer: 'https://other-idp.example.org',
    });
    // The owner may be edited without its own client id counting against it.
    await api.call('PATCH', `/api/v1/instances/${first.id}`, 200, { label: 'owner, renamed' });
    await api.call('DELETE', `/api/v1/instances/${first.id}`, 204);
    await api.call('POST', '/api/v1/instances', 201, {
      software: mine.id,
      label: 'successor',
      oidc_client_id: 'tenant-b-workload',
    });
  });
});
