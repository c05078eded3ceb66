import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/core/core.js';
import { listAudit } from '../../src/core/store/audit.js';
import { countDeliveriesAfter } from '../../src/core/store/deliveries.js';
import { createApp } from '../../src/http/app.js';
import { openTestCore } from '../helpers.js';
import { apiOf, artifact, type Json } from '../support/api.js';

let core: Core;
let api: ReturnType<typeof apiOf>;
const MISSING = '0190aaaa-0000-7000-8000-000000000000';
const PUBLIC_HOOK = 'https://93.184.215.14/hooks/reg';
const SUBSCRIPTION_KEYS = [
  'consecutive_failures',
  'created_at',
  'created_by',
  'cursor_seq',
  'dead_count',
  'delivery_mode',
  'delivery_state',
  'enabled',
  'failed_count',
  'filter',
  'format',
  'id',
  'instance_iri',
  'label',
  'last_error',
  'last_error_at',
  'last_match_at',
  'last_polled_at',
  'last_success_at',
  'pending_count',
  'previous_secret_until',
  'pull_url',
  'signature',
  'unacked_count',
  'updated_at',
  'webhook_signed',
  'webhook_url',
];
const DELIVERY_KEYS = [
  'artifact_iri',
  'attempts',
  'delivered_at',
  'id',
  'last_attempt_at',
  'last_error',
  'last_status',
  'matched_at',
  'next_attempt_at',
  'notification',
  'role',
  'run_iri',
  'seq',
  'status',
  'subscription_id',
];

beforeAll(async () => {
  core = await openTestCore({}, true);
  api = apiOf(createApp(core));
});
afterAll(async () => core.close());

const subscribe = (instance: Json, body: unknown, token?: string) =>
  api.call('POST', `/api/v1/instances/${instance.id}/subscriptions`, 201, body, token);
const pull = (id: string, query = '', token?: string) =>
  api.call('GET', `/api/v1/subscriptions/${id}/deliveries${query}`, 200, undefined, token);

describe('subscriptions: create, read, edit, delete', () => {
  it('creates a pull-only subscription with the default filter, and no secret', async () => {
    const { instance, token } = await api.deployment(undefined, 'puller');
    const created = await subscribe(instance, { label: 'all reports' }, token);
    expect(created.secret).toBeNull();
    expect(created.shown_once).toBe(true);
    const { subscription } = created;
    expect(Object.keys(subscription).sort()).toEqual(SUBSCRIPTION_KEYS);
    expect(subscription).toMatchObject({
      instance_iri: instance.iri,
      label: 'all reports',
      filter: {
        conforms_to: [],
        software: [],
        instance: [],
        keywords: [],
        license: [],
        availability: [],
        roles: ['produced'],
        exclude_own: true,
      },
      webhook_url: null,
      webhook_signed: false,
      enabled: true,
      delivery_state: 'active',
      consecutive_failures: 0,
      cursor_seq: 0,
      created_by: instance.iri,
      pending_count: 0,
      unacked_count: 0,
      delivery_mode: 'pull',
      pull_url: `http://registry.test/api/v1/subscriptions/${subscription.id}/deliveries`,
    });
    expect(subscription.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7/);
    const audit = listAudit(core.db, { limit: 1, action: 'subscription.create' })[0];
    expect(audit).toMatchObject({ actor: instance.iri, target: instance.iri });

    const list = await api.call(
      'GET',
      `/api/v1/instances/${instance.id}/subscriptions`,
      200,
      undefined,
      token,
    );
    expect(list).toEqual({ items: [subscription], total: 1, max_per_instance: 32 });
    const one = await api.call('GET', `/api/v1/subscriptions/${subscription.id}`, 200, undefined, token);
    expect(one).toEqual({ subscription, recent_deliveries: [] });
  });

  it('generates a webhook secret once; no later read shows it', async () => {
    const { instance } = await api.deployment(undefined, 'hooked');
    const created = await subscribe(instance, { webhook_url: PUBLIC_HOOK });
    expect(created.secret).toMatch(/^whsec_[0-9a-f]{64}$/);
    expect(created.subscription).toMatchObject({
      webhook_url: PUBLIC_HOOK,
      webhook_signed: true,
      delivery_mode: 'webhook',
      created_by: 'urn:reg:root',
    });
    const secret = created.secret.slice(6);
    for (const path of [
      `/api/v1/subscriptions/${created.subscription.id}`,
      `/api/v1/instances/${instance.id}/subscriptions`,
      '/api/v1/audit',
      '/admin/dump',
    ]) {
      const response = await api.send('GET', path);
      expect(response.status).toBe(200);
      expect(await response.text()).not.toContain(secret);
    }
    const own = await subscribe(instance, {
      webhook_url: PUBLIC_HOOK,
      webhook_secret: 'a-secret-of-my-own-choosing',
    });
    expect(own.secret).toBe('a-secret-of-my-own-choosing');
  });

  it('refuses invalid filters and webhook targets with 400, naming every field', async () => {
    const { instance } = await api.deployment(undefined, 'picky');
    const path = `/api/v1/instances/${instance.id}/subscriptions`;
    const problem = await api.call('POST', path, 400, {
      filter: {
        availability: ['public', 'secret'],
        roles: ['both'],
        conforms_to: ['not an iri'],
        license: ['MIT'],
        colour: ['blue'],
        exclude_own: 'yes',
      },
    });
    expect(problem.code).toBe('bad-request');
    expect(problem.errors.map((error: Json) => error.field).sort()).toEqual([
      'filter.availability[1]',
      'filter.colour',
      'filter.conforms_to[0]',
      'filter.exclude_own',
      'filter.license[0]',
      'filter.roles[0]',
    ]);
    for (const [url, words] of [
      ['http://93.184.215.14/hook', 'only https'],
      ['https://127.0.0.1/hook', 'loopback'],
      ['https://10.1.2.3/hook', 'private'],
      ['https://[::1]/hook', 'loopback'],
      ['https://[::ffff:169.254.169.254]/hook', 'link-local'],
      ['https://user:pass@93.184.215.14/hook', 'user name or password'],
      ['not a url', 'not an absolute URL'],
    ] as const) {
      const refused = await api.call('POST', path, 400, { webhook_url: url });
      expect(refused.errors[0].field).toBe('webhook_url');
      expect(refused.detail, url).toContain(words);
    }
    expect(
      (await api.call('POST', path, 400, { webhook_secret: 'sixteen-chars-at-least' })).detail,
    ).toContain('needs a webhook_url');
    expect(
      (await api.call('POST', path, 400, { webhook_url: PUBLIC_HOOK, webhook_secret: 'short' })).detail,
    ).toContain('16 to 512');
    expect((await api.call('POST', path, 400, { hook: PUBLIC_HOOK })).detail).toContain(
      'unknown members hook',
    );
    expect((await api.call('GET', path, 200)).total).toBe(0);
  });

  it('accepts bare ids in the filter and stores them as IRIs', async () => {
    const { instance, software } = await api.deployment(undefined, 'ids');
    const { subscription } = await subscribe(instance, {
      filter: {
        software: [software.id],
        instance: instance.id,
        q: 'Report',
        roles: ['consumed', 'produced'],
      },
    });
    expect(subscription.filter).toMatchObject({
      software: [software.iri],
      instance: [instance.iri],
      q: 'Report',
      roles: ['consumed', 'produced'],
    });
  });

  it('holds at most 32 subscriptions per deployment (409 beyond)', async () => {
    const { instance } = await api.deployment(undefined, 'greedy');
    for (let i = 0; i < 32; i++) await subscribe(instance, { label: `s${i}` });
    const refused = await api.call('POST', `/api/v1/instances/${instance.id}/subscriptions`, 409, {});
    expect(refused.detail).toContain('32 subscriptions');
    expect((await api.call('GET', `/api/v1/instances/${instance.id}/subscriptions`, 200)).total).toBe(32);
  });

  it('edits: label, filter, webhook (cleared with ""), secret rotation, enabled', async () => {
    const { instance, token } = await api.deployment(undefined, 'editor');
    const { subscription } = await subscribe(instance, {}, token);
    const path = `/api/v1/subscriptions/${subscription.id}`;
    const hooked = await api.call(
      'PATCH',
      path,
      200,
      { webhook_url: PUBLIC_HOOK, label: 'now a hook' },
      token,
    );
    expect(hooked.secret).toMatch(/^whsec_[0-9a-f]{64}$/);
    expect(hooked.subscription).toMatchObject({
      label: 'now a hook',
      delivery_mode: 'webhook',
      webhook_signed: true,
    });
    const rotated = await api.call('PATCH', path, 200, { rotate_secret: true }, token);
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(hooked.secret);
    const quiet = await api.call(
      'PATCH',
      path,
      200,
      { enabled: false, filter: { keywords: ['SHACL'] } },
      token,
    );
    expect(quiet.secret).toBeNull();
    expect(quiet.subscription).toMatchObject({ enabled: false, filter: { keywords: ['SHACL'] } });
    const pulled = await api.call('PATCH', path, 200, { webhook_url: '' }, token);
    expect(pulled.subscription).toMatchObject({
      webhook_url: null,
      webhook_signed: false,
      delivery_mode: 'pull',
    });
    expect((await api.call('PATCH', path, 400, { rotate_secret: true }, token)).detail).toContain(
      'pull-only',
    );
    expect((await api.call('PATCH', path, 400, { enabled: 'no' }, token)).detail).toContain('true or false');
    expect(listAudit(core.db, { limit: 1, action: 'subscription.update' })[0]?.detail).toContain(
      'webhook_url',
    );
  });

  it('deletes a subscription and its queue', async () => {
    const { instance, token } = await api.deployment(undefined, 'leaver');
    const producer = await api.deployment(undefined, 'left behind');
    const { subscription } = await subscribe(instance, {}, token);
    await api.advertise(producer.token, 'produced', 'leaving', [artifact('Queued, then dropped')]);
    expect(countDeliveriesAfter(core.db, subscription.id, 0)).toBe(1);
    await api.call('DELETE', `/api/v1/subscriptions/${subscription.id}`, 204, undefined, token);
    expect(countDeliveriesAfter(core.db, subscription.id, 0)).toBe(0);
    await api.call('GET', `/api/v1/subscriptions/${subscription.id}`, 404);
    await api.call('GET', `/api/v1/subscriptions/${subscription.id}`, 403, undefined, token);
    expect(listAudit(core.db, { limit: 1, action: 'subscription.delete' })[0]?.detail).toBe(
      `subscription ${subscription.id}`,
    );
  });
});

describe('subscriptions: who may manage them', () => {
  it('refuses another deployment with 403, whether the id exists or not; admins get 404 for unknown ids', async () => {
    const { instance, token } = await api.deployment(undefined, 'owner');
    const other = await api.deployment(undefined, 'stranger');
    const { subscription } = await subscribe(instance, {}, token);
    const sid = subscription.id as string;
    for (const [method, path, body] of [
      ['GET', `/api/v1/instances/${instance.id}/subscriptions`],
      ['POST', `/api/v1/instances/${instance.id}/subscriptions`, {}],
      ['GET', `/api/v1/subscriptions/${sid}`],
      ['PATCH', `/api/v1/subscriptions/${sid}`, { label: 'mine now' }],
      ['DELETE', `/api/v1/subscriptions/${sid}`],
      ['GET', `/api/v1/subscriptions/${sid}/deliveries`],
      ['POST', `/api/v1/subscriptions/${sid}/deliveries/ack`, { cursor: 1 }],
      ['GET', `/api/v1/subscriptions/${MISSING}`],
      ['PATCH', `/api/v1/subscriptions/${MISSING}`, { label: 'x' }],
      ['GET', `/api/v1/subscriptions/${MISSING}/deliveries`],
    ] as const) {
      const refused = await api.call(method, path, 403, body, other.token);
      expect(refused.code, `${method} ${path}`).toBe('forbidden');
      await api.call(method, path, 401, body, null);
    }
    const stranger = await api.call('GET', `/api/v1/subscriptions/${MISSING}`, 403, undefined, other.token);
    const mismatched = await api.call('GET', `/api/v1/subscriptions/${sid}`, 403, undefined, other.token);
    expect(stranger.detail).toBe(mismatched.detail);
    await api.call('GET', `/api/v1/subscriptions/${MISSING}`, 404);
    await api.call('GET', `/api/v1/instances/${MISSING}/subscriptions`, 404);
    await api.call('POST', `/api/v1/instances/${MISSING}/subscriptions`, 404, {});
  });

  it('lets a token that may only manage subscriptions do exactly that', async () => {
    const { instance } = await api.deployment(undefined, 'narrow');
    const minted = await api.call('POST', `/api/v1/instances/${instance.id}/tokens`, 201, {
      scopes: ['subscribe:artifacts'],
    });
    const { subscription } = await subscribe(instance, {}, minted.token);
    await pull(subscription.id, '', minted.token);
    await api.call('GET', `/api/v1/instances/${instance.id}/tokens`, 403, undefined, minted.token);
    await api.call('POST', '/api/v1/advertise/produced', 403, { artifacts: [] }, minted.token);
  });
});

describe('subscriptions: the pull queue', () => {
  it('serves deliveries oldest first with cursors; ack only advances; bodies are the anonymous artifact reads', async () => {
    const producer = await api.deployment(undefined, 'producer');
    const reader = await api.deployment(undefined, 'reader');
    const { subscription } = await subscribe(reader.instance, {}, reader.token);
    const sid = subscription.id as string;
    const answers: Json[] = [];
    for (let i = 0; i < 5; i++) {
      answers.push(await api.advertise(producer.token, 'produced', `pull-${i}`, [artifact(`Report ${i}`)]));
    }
    const iris = answers.map((answer) => answer.artifacts[0]);

    const first = await pull(sid, '?limit=2', reader.token);
    expect(first.items.map((item: Json) => item.artifact_iri)).toEqual(iris.slice(0, 2));
    expect(Object.keys(first.items[0]).sort()).toEqual(DELIVERY_KEYS);
    expect(first).toMatchObject({ cursor: 0, remaining: 3, acknowledged: 0 });
    expect(first.next_cursor).toBe(first.items[1].seq);
    const [item] = first.items;
    expect(item).toMatchObject({
      subscription_id: sid,
      run_iri: answers[0]!.run,
      role: 'produced',
      status: 'pending',
      attempts: 0,
      next_attempt_at: null,
    });
    const anonymous = await api.call(
      'GET',
      `/api/v1/artifacts/${iris[0].split('/').pop()}`,
      200,
      undefined,
      null,
    );
    expect(item.notification).toEqual({
      type: 'artifact.advertised',
      subscription: sid,
      registry: 'http://registry.test',
      role: 'produced',
      run: answers[0]!.run,
      instance: producer.instance.iri,
      software: producer.software.iri,
      artifact_iri: iris[0],
      artifact: anonymous,
    });

    // Without a cursor and without ack, a read starts at the acknowledged cursor again.
    expect((await pull(sid, '?limit=2', reader.token)).items[0].seq).toBe(item.seq);
    const acked = await pull(sid, '?limit=2&ack=true', reader.token);
    expect(acked.acknowledged).toBe(acked.next_cursor);
    const next = await pull(sid, '', reader.token);
    expect(next.items.map((entry: Json) => entry.artifact_iri)).toEqual(iris.slice(2));
    expect(next).toMatchObject({ cursor: acked.next_cursor, remaining: 0 });

    // An older cursor is a no-op; a newer one advances; a read with an explicit cursor replays.
    const ack = `/api/v1/subscriptions/${sid}/deliveries/ack`;
    expect(await api.call('POST', ack, 200, { cursor: 1 }, reader.token)).toEqual({
      cursor: acked.next_cursor,
      remaining: 3,
    });
    expect(await api.call('POST', ack, 200, { cursor: next.next_cursor }, reader.token)).toEqual({
      cursor: next.next_cursor,
      remaining: 0,
    });
    expect((await pull(sid, '?cursor=0', reader.token)).items).toHaveLength(5);
    const log = await api.call('GET', `/api/v1/subscriptions/${sid}`, 200, undefined, reader.token);
    expect(log.subscription).toMatchObject({
      cursor_seq: next.next_cursor,
      unacked_count: 0,
      pending_count: 0,
    });
    expect(log.subscription.last_polled_at).toEqual(expect.any(String));
    expect(log.recent_deliveries.map((entry: Json) => entry.status)).toEqual(Array(5).fill('delivered'));

    await api.call('GET', `/api/v1/subscriptions/${sid}/deliveries?cursor=abc`, 400, undefined, reader.token);
    await api.call('GET', `/api/v1/subscriptions/${sid}/deliveries?limit=-1`, 400, undefined, reader.token);
    await api.call('GET', `/api/v1/subscriptions/${sid}/deliveries?ack=maybe`, 400, undefined, reader.token);
    await api.call('POST', ack, 400, { cursor: '3' }, reader.token);
    expect((await pull(sid, '?cursor=0&limit=0', reader.token)).items).toHaveLength(1);
    expect((await pull(sid, '?cursor=0&limit=100000', reader.token)).items).toHaveLength(5);
  });

  it('never acknowledges past the newest delivery', async () => {
    const producer = await api.deployment(undefined, 'producer');
    const reader = await api.deployment(undefined, 'reader');
    const { subscription } = await subscribe(reader.instance, {}, reader.token);
    const ack = `/api/v1/subscriptions/${subscription.id}/deliveries/ack`;
    expect(await api.call('POST', ack, 200, { cursor: 1_000_000_000 }, reader.token)).toEqual({
      cursor: 0,
      remaining: 0,
    });
    await api.advertise(producer.token, 'produced', 'later', [artifact('Later report')]);
    expect((await pull(subscription.id, '', reader.token)).items).toHaveLength(1);
  });

  it('loses and duplicates nothing across ack boundaries while deployments advertise concurrently', async () => {
    const producers = await Promise.all([1, 2, 3].map((n) => api.deployment(undefined, `busy ${n}`)));
    const reader = await api.deployment(undefined, 'steady reader');
    const { subscription } = await subscribe(reader.instance, {}, reader.token);
    const advertised: string[] = [];
    const writing = Promise.all(
      producers.map(async ({ token }, n) => {
        for (let i = 0; i < 15; i++) {
          const answer = await api.advertise(token, 'produced', `busy-${n}-${i}`, [
            artifact(`Busy ${n}.${i} a`),
            artifact(`Busy ${n}.${i} b`),
          ]);
          advertised.push(...(answer.artifacts as string[]));
        }
      }),
    );
    const received: Json[] = [];
    let readWhileWriting = 0;
    let done = false;
    void writing.then(() => (done = true));
    // Alternate the two ways of acknowledging: ack=true on the read, and a separate POST of the cursor.
    for (let round = 0; ; round++) {
      const finished = done;
      const page = await pull(subscription.id, `?limit=7${round % 2 === 0 ? '&ack=true' : ''}`, reader.token);
      received.push(...page.items);
      if (!finished && page.items.length > 0) readWhileWriting++;
      if (round % 2 === 1) {
        await api.call(
          'POST',
          `/api/v1/subscriptions/${subscription.id}/deliveries/ack`,
          200,
          {
            cursor: page.next_cursor,
          },
          reader.token,
        );
      }
      if (finished && page.items.length === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    await writing;
    const seqs = received.map((item) => item.seq as number);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    expect(new Set(seqs).size).toBe(seqs.length);
    expect(received.map((item) => item.artifact_iri).sort()).toEqual([...advertised].sort());
    expect(received).toHaveLength(90);
    expect(readWhileWriting).toBeGreaterThan(1);
  });
});
