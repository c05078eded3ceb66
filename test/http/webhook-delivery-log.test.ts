import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { principal } from '../../src/core/access/principal.js';
import type { Core } from '../../src/core/core.js';
import { getDeliveryLog } from '../../src/core/subscriptions/delivery-log.js';
import { WebhookSender } from '../../src/core/subscriptions/webhook-sender.js';
import { verifyWebhook } from '../../src/core/subscriptions/webhook-signature.js';
import { createApp } from '../../src/http/app.js';
import { openTestCore } from '../helpers.js';
import { apiOf, artifact, type Json } from '../support/api.js';
import { startReceiver, type Received, type Receiver } from '../support/receivers.js';

/*
 * The delivery log and the repairs it supports, against real receivers on the loopback interface: every attempt
 * kept with what the receiver answered, Retry-After honoured within the backoff cap, redelivery under the same
 * id, secret rotation with an overlap in which both secrets verify, pruning after the retention, and who may
 * read the log. The sender's clock is injected, so schedules are checked exactly without waiting.
 */

interface Registry {
  core: Core;
  api: ReturnType<typeof apiOf>;
}

const SECOND = 1000;
const HOUR = 3600 * SECOND;
const LOOPBACK = { REG_SUBSCRIPTION_ALLOW_HTTP: 'true', REG_SUBSCRIPTION_ALLOW_PRIVATE_TARGETS: 'true' };
const open: Registry[] = [];
const receivers: Receiver[] = [];

async function registry(env: Record<string, string> = {}): Promise<Registry> {
  const core = await openTestCore({ ...LOOPBACK, ...env }, true);
  const entry = { core, api: apiOf(createApp(core)) };
  open.push(entry);
  return entry;
}

async function receiver(): Promise<Receiver> {
  const started = await startReceiver();
  receivers.push(started);
  return started;
}

afterEach(() => {
  vi.useRealTimers();
});
afterAll(async () => {
  for (const started of receivers) await started.close();
  for (const { core } of open) await core.close();
});

function testClock() {
  let at = Date.now() + SECOND;
  return { now: () => new Date(at), advance: (ms: number) => (at += ms) };
}

async function subscribed({ api }: Registry, webhookUrl: string | null, options: Json = {}) {
  const producer = await api.deployment(undefined, 'producer');
  const subscriber = await api.deployment(undefined, 'subscriber');
  const created = await api.call(
    'POST',
    `/api/v1/instances/${subscriber.instance.id}/subscriptions`,
    201,
    webhookUrl === null ? options : { webhook_url: webhookUrl, ...options },
    subscriber.token,
  );
  return { producer, subscriber, sid: created.subscription.id as string, secret: created.secret as string };
}

const logOf = ({ api }: Registry, sid: string, token: string, query = '') =>
  api.call('GET', `/api/v1/subscriptions/${sid}/log${query}`, 200, undefined, token);

const pulled = async ({ api }: Registry, sid: string, token: string): Promise<Json[]> =>
  (await api.call('GET', `/api/v1/subscriptions/${sid}/deliveries?cursor=0&limit=200`, 200, undefined, token))
    .items;

describe('the delivery log', () => {
  it('keeps every attempt with its status, duration, the start of the answer and the error, newest first', async () => {
    const reg = await registry({ REG_SUBSCRIPTION_MAX_ATTEMPTS: '3' });
    const hook = await receiver();
    const long = 'x'.repeat(5000);
    hook.respond = (_request, index) =>
      index === 0 ? { status: 500, body: `broken: ${long}` } : { status: 200, body: 'thanks' };
    const { producer, subscriber, sid } = await subscribed(reg, hook.url());
    await reg.api.advertise(producer.token, 'produced', 'l-1', [artifact('Logged')]);
    const clock = testClock();
    const sender = new WebhookSender(reg.core, { now: clock.now, backoff: () => 10 * SECOND });
    const firstAt = clock.now().toISOString();
    await sender.tick();
    clock.advance(10 * SECOND);
    await sender.tick();
    const [delivery] = await pulled(reg, sid, subscriber.token);
    const log = await logOf(reg, sid, subscriber.token);
    expect(log).toMatchObject({
      subscription_id: sid,
      total: 2,
      next_before: null,
      retention_seconds: 7 * 24 * 3600,
    });
    const [second, first] = log.items as [Json, Json];
    expect(first).toMatchObject({
      delivery_id: delivery!.id,
      artifact_iri: delivery!.artifact_iri,
      attempt: 1,
      at: firstAt,
      status_code: 500,
      retry_at: new Date(Date.parse(firstAt) + 10 * SECOND).toISOString(),
      delivery_status: 'delivered',
    });
    expect(first.error).toMatch(/^answered 500: broken: x+…$/);
    expect(first.response).toHaveLength(2048);
    expect(first.response.startsWith('broken: xxx')).toBe(true);
    expect(first.duration_ms).toBeGreaterThanOrEqual(0);
    expect(second).toMatchObject({
      attempt: 2,
      status_code: 200,
      response: 'thanks',
      error: null,
      retry_at: null,
    });
    expect(second.id).toBeGreaterThan(first.id);
    // Paged: one at a time, older with before=.
    const page = await logOf(reg, sid, subscriber.token, '?limit=1');
    expect(page.items.map((item: Json) => item.id)).toEqual([second.id]);
    expect(page.next_before).toBe(second.id);
    const older = await logOf(reg, sid, subscriber.token, `?limit=1&before=${page.next_before}`);
    expect(older.items.map((item: Json) => item.id)).toEqual([first.id]);
    expect(older.next_before).toBeNull();
    const bad = await reg.api.call('GET', `/api/v1/subscriptions/${sid}/log?limit=0`, 400);
    expect(bad.errors).toEqual([expect.objectContaining({ field: 'limit' })]);
  });

  it('is read by the owning deployment and administrators only', async () => {
    const reg = await registry();
    const { sid, subscriber } = await subscribed(reg, 'http://127.0.0.1:9/hook');
    const other = await reg.api.deployment(undefined, 'other');
    expect((await logOf(reg, sid, subscriber.token)).items).toEqual([]);
    await reg.api.call('GET', `/api/v1/subscriptions/${sid}/log`, 200);
    const refused = await reg.api.call(
      'GET',
      `/api/v1/subscriptions/${sid}/log`,
      403,
      undefined,
      other.token,
    );
    expect(refused.code).toBeDefined();
    // Another deployment gets the same refusal for an id that does not exist.
    await reg.api.call('GET', '/api/v1/subscriptions/no-such-subscription/log', 403, undefined, other.token);
    await reg.api.call('GET', `/api/v1/subscriptions/${sid}/log`, 401, undefined, null);
    const curator = principal({
      credential: 'oidc-human',
      actorKind: 'oidc-human',
      subject: 'https://id.example.org|curator',
      roles: ['curator'],
    });
    expect(() => getDeliveryLog(reg.core, curator, sid, {})).toThrow(/admin role required/);
  });
});

describe('Retry-After', () => {
  it('schedules the next attempt when a 429 or 503 says, in seconds or as a date, within the backoff cap', async () => {
    const reg = await registry({ REG_SUBSCRIPTION_BACKOFF_MAX: '1h' });
    const hook = await receiver();
    const clock = testClock();
    const answers = [
      { status: 429, headers: { 'retry-after': '120' } },
      {
        status: 503,
        headers: { 'retry-after': new Date(clock.now().getTime() + 120_000 + 600_000).toUTCString() },
      },
      { status: 503, headers: { 'retry-after': '86400' } },
      { status: 500, headers: { 'retry-after': '900' } },
    ];
    hook.respond = (_request, index) => answers[index] ?? { status: 204 };
    const { producer, subscriber, sid } = await subscribed(reg, hook.url());
    await reg.api.advertise(producer.token, 'produced', 'ra-1', [artifact('Busy receiver')]);
    const sender = new WebhookSender(reg.core, { now: clock.now, backoff: () => 7 * SECOND });
    const schedule: string[] = [];
    for (const wait of [0, 120 * SECOND, 600 * SECOND, HOUR]) {
      clock.advance(wait);
      expect(await sender.tick()).toBe(1);
      schedule.push((await pulled(reg, sid, subscriber.token))[0]!.next_attempt_at);
    }
    const start = Date.parse((await logOf(reg, sid, subscriber.token)).items.at(-1).at);
    const offsets = schedule.map((at) => (Date.parse(at) - start) / SECOND);
    // 120 s asked; a date 10 minutes after the second attempt (rounded to whole seconds by the HTTP date); a day
    // capped at the hour of REG_SUBSCRIPTION_BACKOFF_MAX; a 500 ignores Retry-After and takes the backoff.
    expect(offsets[0]).toBe(120);
    expect(offsets[1]).toBeGreaterThanOrEqual(120 + 599);
    expect(offsets[1]).toBeLessThanOrEqual(120 + 600);
    expect(offsets[2]).toBe(120 + 600 + 3600);
    expect(offsets[3]).toBe(120 + 600 + 3600 + 7);
    expect(hook.received).toHaveLength(4);
  });
});

describe('redelivery', () => {
  it('sends the same event again under the same id with a fresh retry budget', async () => {
    const reg = await registry({ REG_SUBSCRIPTION_MAX_ATTEMPTS: '1' });
    const hook = await receiver();
    hook.respond = (_request, index) => ({ status: index === 0 ? 500 : 204 });
    const { producer, subscriber, sid, secret } = await subscribed(reg, hook.url());
    await reg.api.advertise(producer.token, 'produced', 'rd-1', [artifact('Again')]);
    const clock = testClock();
    const sender = new WebhookSender(reg.core, { now: clock.now });
    await sender.tick();
    const [dead] = await pulled(reg, sid, subscriber.token);
    expect(dead).toMatchObject({ status: 'dead', attempts: 1, next_attempt_at: null });
    const queued = await reg.api.call(
      'POST',
      `/api/v1/subscriptions/${sid}/deliveries/${dead!.id}/redeliver`,
      202,
      undefined,
      subscriber.token,
    );
    expect(queued).toMatchObject({ id: dead!.id, status: 'pending', attempts: 1 });
    expect(queued.next_attempt_at).not.toBeNull();
    clock.advance(SECOND);
    expect(await sender.tick()).toBe(1);
    const [first, second] = hook.received as [Received, Received];
    expect(second.body).toBe(first.body);
    expect(second.headers['x-reg-delivery']).toBe(dead!.id);
    expect(second.headers['x-reg-attempt']).toBe('2');
    const valid = verifyWebhook({
      secret,
      body: second.body,
      timestamp: second.headers['x-reg-timestamp'] as string,
      signature: second.headers['x-reg-signature'] as string,
      toleranceSeconds: 0,
    });
    expect(valid.valid).toBe(true);
    expect((await pulled(reg, sid, subscriber.token))[0]).toMatchObject({ status: 'delivered', attempts: 2 });
    expect((await logOf(reg, sid, subscriber.token)).items.map((item: Json) => item.attempt)).toEqual([2, 1]);
  });

  it('does not find another subscription’s delivery, and a pull-only subscription has nothing to redeliver', async () => {
    const reg = await registry();
    const first = await subscribed(reg, 'http://127.0.0.1:9/hook');
    const second = await reg.api.call(
      'POST',
      `/api/v1/instances/${first.subscriber.instance.id}/subscriptions`,
      201,
      { webhook_url: 'http://127.0.0.1:9/other', label: 'second' },
      first.subscriber.token,
    );
    const pull = await reg.api.call(
      'POST',
      `/api/v1/instances/${first.subscriber.instance.id}/subscriptions`,
      201,
      { label: 'pull' },
      first.subscriber.token,
    );
    await reg.api.advertise(first.producer.token, 'produced', 'rd-2', [artifact('Mine')]);
    const [mine] = await pulled(reg, first.sid, first.subscriber.token);
    const missing = await reg.api.call(
      'POST',
      `/api/v1/subscriptions/${second.subscription.id}/deliveries/${mine!.id}/redeliver`,
      404,
      undefined,
      first.subscriber.token,
    );
    expect(missing.code).toBeDefined();
    const [pulledOne] = await pulled(reg, pull.subscription.id, first.subscriber.token);
    await reg.api.call(
      'POST',
      `/api/v1/subscriptions/${pull.subscription.id}/deliveries/${pulledOne!.id}/redeliver`,
      409,
      undefined,
      first.subscriber.token,
    );
    const other = await reg.api.deployment(undefined, 'other');
    await reg.api.call(
      'POST',
      `/api/v1/subscriptions/${first.sid}/deliveries/${mine!.id}/redeliver`,
      403,
      undefined,
      other.token,
    );
  });
});

describe('secret rotation', () => {
  it('signs with both secrets during the overlap and with the new one only after it (x-reg-signature)', async () => {
    const reg = await registry();
    const hook = await receiver();
    const { producer, subscriber, sid, secret: old } = await subscribed(reg, hook.url());
    const rotated = await reg.api.call(
      'POST',
      `/api/v1/subscriptions/${sid}/secret`,
      200,
      { overlap: '1h' },
      subscriber.token,
    );
    const fresh = rotated.secret as string;
    expect(fresh).not.toBe(old);
    expect(rotated.shown_once).toBe(true);
    expect(rotated.subscription.previous_secret_until).toBe(rotated.previous_secret_until);
    const clock = testClock();
    const sender = new WebhookSender(reg.core, { now: clock.now });
    await reg.api.advertise(producer.token, 'produced', 'rs-1', [artifact('During')]);
    await sender.tick();
    clock.advance(2 * HOUR);
    await reg.api.advertise(producer.token, 'produced', 'rs-2', [artifact('After')]);
    await sender.tick();
    const verdict = (request: Received, secret: string) =>
      verifyWebhook({
        secret,
        body: request.body,
        timestamp: request.headers['x-reg-timestamp'] as string,
        signature: request.headers['x-reg-signature'] as string,
        toleranceSeconds: 0,
      }).valid;
    const [during, after] = hook.received as [Received, Received];
    expect((during.headers['x-reg-signature'] as string).split(' ')).toHaveLength(2);
    expect(verdict(during, fresh)).toBe(true);
    expect(verdict(during, old)).toBe(true);
    expect((after.headers['x-reg-signature'] as string).split(' ')).toHaveLength(1);
    expect(verdict(after, fresh)).toBe(true);
    expect(verdict(after, old)).toBe(false);
  });

  it('gives two Standard Webhooks signatures during the overlap, each verifying with its secret', async () => {
    const reg = await registry();
    const hook = await receiver();
    const {
      producer,
      subscriber,
      sid,
      secret: old,
    } = await subscribed(reg, hook.url(), {
      signature: 'standard-webhooks',
    });
    const rotated = await reg.api.call(
      'POST',
      `/api/v1/subscriptions/${sid}/secret`,
      200,
      {},
      subscriber.token,
    );
    const fresh = rotated.secret as string;
    expect(fresh).toMatch(/^whsec_/);
    // The default overlap is a day.
    expect(Date.parse(rotated.previous_secret_until) - Date.now()).toBeGreaterThan(23 * HOUR);
    const clock = testClock();
    const sender = new WebhookSender(reg.core, { now: clock.now });
    await reg.api.advertise(producer.token, 'produced', 'rs-3', [artifact('Overlap')]);
    await sender.tick();
    clock.advance(25 * HOUR);
    await reg.api.advertise(producer.token, 'produced', 'rs-4', [artifact('Only new')]);
    await sender.tick();
    const [during, after] = hook.received as [Received, Received];
    const headers = (request: Received) => ({
      'webhook-id': request.headers['webhook-id'] as string,
      'webhook-timestamp': request.headers['webhook-timestamp'] as string,
      'webhook-signature': request.headers['webhook-signature'] as string,
    });
    expect(headers(during)['webhook-signature'].split(' ')).toHaveLength(2);
    vi.useFakeTimers({ now: Number(headers(during)['webhook-timestamp']) * SECOND });
    expect(() => new Webhook(fresh).verify(during.body, headers(during))).not.toThrow();
    expect(() => new Webhook(old).verify(during.body, headers(during))).not.toThrow();
    vi.setSystemTime(Number(headers(after)['webhook-timestamp']) * SECOND);
    expect(() => new Webhook(fresh).verify(after.body, headers(after))).not.toThrow();
    expect(() => new Webhook(old).verify(after.body, headers(after))).toThrow();
  });

  it('refuses a bad overlap, a pull-only subscription and other deployments', async () => {
    const reg = await registry();
    const { subscriber, sid } = await subscribed(reg, 'http://127.0.0.1:9/hook');
    const path = `/api/v1/subscriptions/${sid}/secret`;
    for (const overlap of ['8d', 'soon', -5]) {
      const refused = await reg.api.call('POST', path, 400, { overlap }, subscriber.token);
      expect(refused.errors).toEqual([expect.objectContaining({ field: 'overlap' })]);
    }
    await reg.api.call('POST', path, 400, { overlap: '1h', extra: true }, subscriber.token);
    const other = await reg.api.deployment(undefined, 'other');
    await reg.api.call('POST', path, 403, {}, other.token);
    const immediate = await reg.api.call('POST', path, 200, { overlap: 0 }, subscriber.token);
    expect(immediate.previous_secret_until).toBeNull();
    const pull = await subscribed(reg, null, { label: 'pull' });
    await reg.api.call('POST', `/api/v1/subscriptions/${pull.sid}/secret`, 409, {}, pull.subscriber.token);
  });
});

describe('retention', () => {
  it('prunes delivered and dead deliveries with their attempts once older than REG_DELIVERY_RETENTION', async () => {
    const reg = await registry({ REG_SUBSCRIPTION_MAX_ATTEMPTS: '1' });
    const hook = await receiver();
    hook.respond = (request) => ({ status: request.body.includes('Refused') ? 500 : 204 });
    const { producer, subscriber, sid } = await subscribed(reg, hook.url());
    await reg.api.advertise(producer.token, 'produced', 'p-1', [artifact('Accepted'), artifact('Refused')]);
    const clock = testClock();
    const retentionMs = 2 * HOUR;
    const sender = new WebhookSender(reg.core, { now: clock.now, retentionMs });
    expect(await sender.tick()).toBe(2);
    expect((await pulled(reg, sid, subscriber.token)).map((item) => item.status).sort()).toEqual([
      'dead',
      'delivered',
    ]);
    // A later delivery is kept while recent, and a pending one (of a pull-only subscription) is never pruned.
    const pull = await reg.api.call(
      'POST',
      `/api/v1/instances/${subscriber.instance.id}/subscriptions`,
      201,
      { label: 'pull' },
      subscriber.token,
    );
    await reg.api.advertise(producer.token, 'produced', 'p-2', [artifact('Later')]);
    clock.advance(retentionMs - SECOND);
    expect(await sender.tick()).toBe(1);
    expect(await pulled(reg, sid, subscriber.token)).toHaveLength(3);
    clock.advance(2 * SECOND + 60 * SECOND);
    await sender.tick();
    const left = await pulled(reg, sid, subscriber.token);
    expect(left.map((item) => item.notification.artifact.title)).toEqual(['Later']);
    expect(left[0]!.status).toBe('delivered');
    const waiting = await pulled(reg, pull.subscription.id, subscriber.token);
    expect(waiting.map((item) => item.status)).toEqual(['pending']);
    expect((await logOf(reg, sid, subscriber.token)).items.map((item: Json) => item.attempt)).toEqual([1]);
    expect((await logOf(reg, sid, subscriber.token)).total).toBe(1);
  });
});
