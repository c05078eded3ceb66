import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT_PRINCIPAL } from '../../src/core/access/principal.js';
import type { Core } from '../../src/core/core.js';
import type { Resolver } from '../../src/core/net/outbound-target.js';
import { createSubscription } from '../../src/core/subscriptions/subscriptions.js';
import { verifyWebhook } from '../../src/core/subscriptions/webhook-signature.js';
import { WebhookWorker, type WebhookWorkerOptions } from '../../src/core/workers/webhook-worker.js';
import { createApp } from '../../src/http/app.js';
import { openTestCore } from '../helpers.js';
import { apiOf, artifact, type Json } from '../support/api.js';
import {
  makeTestCa,
  startReceiver,
  type Receiver,
  type Received,
  type TestCa,
} from '../support/receivers.js';
import { actOf } from '../../src/core/stored/write-path.js';

/*
 * Webhook delivery against real receivers on the loopback interface (HTTP, and HTTPS with a CA made for the
 * run), with the worker's clock injected so the retry schedule is checked to the millisecond without waiting,
 * and DNS injected so host names resolve to whatever a case needs.
 */

interface Registry {
  core: Core;
  api: ReturnType<typeof apiOf>;
}

const SECOND = 1000;
const LOOPBACK = { REG_SUBSCRIPTION_ALLOW_HTTP: 'true', REG_SUBSCRIPTION_ALLOW_PRIVATE_TARGETS: 'true' };
const open: Registry[] = [];
const receivers: Receiver[] = [];
let testCa: TestCa;

async function registry(env: Record<string, string>): Promise<Registry> {
  const core = await openTestCore(env, true);
  const entry = { core, api: apiOf(createApp(core)) };
  open.push(entry);
  return entry;
}

async function receiver(tls?: { key: string; cert: string }): Promise<Receiver> {
  const started = await startReceiver(tls);
  receivers.push(started);
  return started;
}

beforeAll(() => {
  testCa = makeTestCa('hooks.test');
});
afterAll(async () => {
  for (const started of receivers) await started.close();
  for (const { core } of open) await core.close();
});

/** A clock the test moves by hand, starting just after now (so deliveries queued now are due). */
function testClock() {
  let at = Date.now() + SECOND;
  return {
    now: () => new Date(at),
    set: (iso: string) => (at = Date.parse(iso)),
    advance: (ms: number) => (at += ms),
  };
}

/** A producer and a subscriber with a webhook subscription to everything the producer makes. */
async function subscribed({ api }: Registry, webhookUrl: string) {
  const producer = await api.deployment(undefined, 'producer');
  const subscriber = await api.deployment(undefined, 'subscriber');
  const created = await api.call(
    'POST',
    `/api/v1/instances/${subscriber.instance.id}/subscriptions`,
    201,
    { webhook_url: webhookUrl },
    subscriber.token,
  );
  return { producer, subscriber, sid: created.subscription.id as string, secret: created.secret as string };
}

/** Checks a received request the way a receiver must: an independent HMAC over exactly the bytes received. */
function expectSigned(request: Received, secret: string, sid: string): Json {
  const timestamp = request.headers['x-reg-timestamp'] as string;
  const expected = createHmac('sha256', secret).update(`${timestamp}.${request.body}`).digest('hex');
  expect(request.headers['x-reg-signature']).toBe(`sha256=${expected}`);
  expect(request.headers['x-reg-subscription']).toBe(sid);
  expect(request.headers['content-type']).toBe('application/json');
  expect(request.method).toBe('POST');
  const verdict = verifyWebhook({
    secret,
    body: request.body,
    timestamp,
    signature: request.headers['x-reg-signature'] as string,
    toleranceSeconds: 0,
  });
  expect(verdict.valid).toBe(true);
  return JSON.parse(request.body) as Json;
}

const deliveries = async ({ api }: Registry, sid: string, token: string): Promise<Json[]> =>
  (await api.call('GET', `/api/v1/subscriptions/${sid}/deliveries?cursor=0&limit=200`, 200, undefined, token))
    .items;
const detail = async ({ api }: Registry, sid: string): Promise<Json> =>
  api.call('GET', `/api/v1/subscriptions/${sid}`, 200);

describe('webhook delivery', () => {
  it('posts each matching artifact once, signed, with the headers of spec §6, over HTTP', async () => {
    const reg = await registry({ ...LOOPBACK, REG_SUBSCRIPTION_TIMEOUT: '1s' });
    const hook = await receiver();
    const { producer, subscriber, sid, secret } = await subscribed(reg, hook.url());
    await reg.api.advertise(producer.token, 'produced', 'h-1', [artifact('First'), artifact('Second')]);
    const clock = testClock();
    const worker = new WebhookWorker(reg.core, { now: clock.now });
    expect(await worker.tick()).toBe(2);
    expect(hook.received).toHaveLength(2);
    const pulled = await deliveries(reg, sid, subscriber.token);
    for (const [index, request] of hook.received.entries()) {
      const body = expectSigned(request, secret, sid);
      expect(request.headers['x-reg-timestamp']).toBe(String(Math.floor(clock.now().getTime() / SECOND)));
      expect(request.headers['x-reg-attempt']).toBe('1');
      expect(request.headers['x-reg-delivery']).toBe(pulled[index]!.id);
      // The webhook body and the pull queue's notification are the same event.
      expect(body).toEqual(pulled[index]!.notification);
      expect(body).toMatchObject({ type: 'artifact.advertised', subscription: sid, role: 'produced' });
    }
    expect(pulled.map((item) => item.status)).toEqual(['delivered', 'delivered']);
    expect(pulled[0]).toMatchObject({
      attempts: 1,
      last_status: 204,
      next_attempt_at: null,
      last_error: null,
    });
    expect(pulled[0]!.delivered_at).toBe(clock.now().toISOString());
    expect((await detail(reg, sid)).subscription.last_success_at).toBe(clock.now().toISOString());
    clock.advance(3600 * SECOND);
    expect(await worker.tick()).toBe(0);
    expect(hook.received).toHaveLength(2);
  });

  it('delivers over HTTPS to exactly the approved address, verifying the certificate against the host name', async () => {
    const reg = await registry(LOOPBACK);
    const hook = await receiver({ key: testCa.key, cert: testCa.cert });
    const asked: string[] = [];
    // Neither name exists in real DNS: a delivery that arrives went to the address this resolver approved.
    const resolve: Resolver = (hostname) => {
      asked.push(hostname);
      return Promise.resolve([{ address: '127.0.0.1', family: 4 }]);
    };
    const producer = await reg.api.deployment(undefined, 'tls producer');
    const subscriber = await reg.api.deployment(undefined, 'tls subscriber');
    const good = await createSubscription(
      reg.core,
      actOf(ROOT_PRINCIPAL),
      subscriber.instance.id,
      {
        webhook_url: hook.url('/hook', 'hooks.test'),
      },
      { resolve },
    );
    const wrong = await createSubscription(
      reg.core,
      actOf(ROOT_PRINCIPAL),
      subscriber.instance.id,
      {
        webhook_url: hook.url('/hook', 'wrong.test'),
      },
      { resolve },
    );
    await reg.api.advertise(producer.token, 'produced', 't-1', [artifact('Over TLS')]);
    const worker = new WebhookWorker(reg.core, { now: testClock().now, resolve, ca: testCa.ca });
    expect(await worker.tick()).toBe(2);
    expect(hook.received).toHaveLength(1);
    expect(hook.received[0]!.headers.host).toBe(`hooks.test:${hook.port}`);
    expectSigned(hook.received[0]!, good.secret!, good.subscription.id);
    expect(asked.filter((name) => name === 'hooks.test')).toHaveLength(2);
    const [refused] = await deliveries(reg, wrong.subscription.id, subscriber.token);
    expect(refused).toMatchObject({ status: 'failed', attempts: 1, last_status: null });
    expect(refused!.last_error).toMatch(/altname|does not match/i);
    // Without the test CA the certificate is not trusted at all.
    const untrusting = new WebhookWorker(reg.core, {
      now: () => new Date(Date.now() + 3600 * SECOND),
      resolve,
    });
    await reg.api.advertise(producer.token, 'produced', 't-2', [artifact('Untrusted')]);
    await untrusting.tick();
    const latest = (await deliveries(reg, good.subscription.id, subscriber.token)).at(-1)!;
    expect(latest.status).toBe('failed');
    expect(latest.last_error).toMatch(/certificate|issuer/i);
  });

  it('retries a failing receiver after base × 2^(attempts−1), capped, then delivers; every attempt is signed', async () => {
    const reg = await registry({ ...LOOPBACK, REG_SUBSCRIPTION_BACKOFF_MAX: '4m' });
    const hook = await receiver();
    hook.respond = (_request, index) =>
      index < 5 ? { status: 500, body: `broken ${'!'.repeat(3000)}` } : { status: 200 };
    const { producer, subscriber, sid, secret } = await subscribed(reg, hook.url());
    await reg.api.advertise(producer.token, 'produced', 'r-1', [artifact('Eventually')]);
    const clock = testClock();
    const worker = new WebhookWorker(reg.core, { now: clock.now });
    const delays: number[] = [];
    for (let attempt = 1; attempt <= 5; attempt++) {
      expect(await worker.tick()).toBe(1);
      const [item] = await deliveries(reg, sid, subscriber.token);
      expect(item).toMatchObject({ status: 'failed', attempts: attempt, last_status: 500 });
      expect(item!.last_attempt_at).toBe(clock.now().toISOString());
      expect(item!.last_error.length).toBeLessThan(260);
      delays.push(Date.parse(item!.next_attempt_at) - Date.parse(item!.last_attempt_at));
      // Not due a millisecond early.
      clock.set(item!.next_attempt_at);
      clock.advance(-1);
      expect(await worker.tick()).toBe(0);
      clock.advance(1);
    }
    expect(delays).toEqual([30, 60, 120, 240, 240].map((s) => s * SECOND));
    expect((await detail(reg, sid)).subscription).toMatchObject({ consecutive_failures: 5, failed_count: 1 });
    expect(await worker.tick()).toBe(1);
    const [done] = await deliveries(reg, sid, subscriber.token);
    expect(done).toMatchObject({ status: 'delivered', attempts: 6, last_status: 200, next_attempt_at: null });
    expect(hook.received.map((request) => request.headers['x-reg-attempt'])).toEqual([
      '1',
      '2',
      '3',
      '4',
      '5',
      '6',
    ]);
    expect(new Set(hook.received.map((request) => request.headers['x-reg-delivery']))).toEqual(
      new Set([done!.id]),
    );
    expect(new Set(hook.received.map((request) => request.body)).size).toBe(1);
    for (const request of hook.received) expectSigned(request, secret, sid);
    expect((await detail(reg, sid)).subscription).toMatchObject({ consecutive_failures: 0, failed_count: 0 });
  });

  it('gives up after the last attempt (dead), and the pull queue still serves the delivery', async () => {
    const reg = await registry({ ...LOOPBACK, REG_SUBSCRIPTION_MAX_ATTEMPTS: '8' });
    const hook = await receiver();
    hook.respond = () => ({ status: 503 });
    const { producer, subscriber, sid } = await subscribed(reg, hook.url());
    await reg.api.advertise(producer.token, 'produced', 'd-1', [artifact('Never accepted')]);
    const clock = testClock();
    const worker = new WebhookWorker(reg.core, { now: clock.now });
    const delays: number[] = [];
    for (;;) {
      expect(await worker.tick()).toBe(1);
      const [item] = await deliveries(reg, sid, subscriber.token);
      if (item!.next_attempt_at === null) break;
      delays.push(Date.parse(item!.next_attempt_at) - Date.parse(item!.last_attempt_at));
      clock.set(item!.next_attempt_at);
    }
    expect(delays).toEqual([30, 60, 120, 240, 480, 960, 1920].map((s) => s * SECOND));
    const [dead] = await deliveries(reg, sid, subscriber.token);
    expect(dead).toMatchObject({ status: 'dead', attempts: 8, last_status: 503 });
    clock.advance(86_400 * SECOND);
    expect(await worker.tick()).toBe(0);
    expect(hook.received).toHaveLength(8);
    expect((await detail(reg, sid)).subscription).toMatchObject({ dead_count: 1, unacked_count: 1 });
  });

  it('takes its retry schedule from an injected backoff', async () => {
    const reg = await registry(LOOPBACK);
    const hook = await receiver();
    hook.respond = () => ({ status: 500 });
    const { producer, subscriber, sid } = await subscribed(reg, hook.url());
    await reg.api.advertise(producer.token, 'produced', 'b-1', [artifact('Custom schedule')]);
    const clock = testClock();
    const options: WebhookWorkerOptions = { now: clock.now, backoff: (attempts) => attempts * 7 * SECOND };
    await new WebhookWorker(reg.core, options).tick();
    const [item] = await deliveries(reg, sid, subscriber.token);
    expect(Date.parse(item!.next_attempt_at) - clock.now().getTime()).toBe(7 * SECOND);
  });

  it('suspends a webhook after consecutive failures; pull keeps working; resume re-arms failed and dead deliveries', async () => {
    const reg = await registry({
      ...LOOPBACK,
      REG_SUBSCRIPTION_MAX_ATTEMPTS: '1',
      REG_SUBSCRIPTION_SUSPEND_AFTER: '3',
    });
    const hook = await receiver();
    hook.respond = () => ({ status: 500 });
    const { producer, subscriber, sid, secret } = await subscribed(reg, hook.url());
    for (let i = 1; i <= 5; i++)
      await reg.api.advertise(producer.token, 'produced', `s-${i}`, [artifact(`S${i}`)]);
    const clock = testClock();
    const worker = new WebhookWorker(reg.core, { now: clock.now });
    expect(await worker.tick()).toBe(3);
    const suspended = (await detail(reg, sid)).subscription;
    expect(suspended).toMatchObject({ delivery_state: 'suspended', consecutive_failures: 3, dead_count: 3 });
    expect(suspended.last_error).toBe('answered 500');
    clock.advance(86_400 * SECOND);
    await reg.api.advertise(producer.token, 'produced', 's-6', [artifact('S6')]);
    expect(await worker.tick()).toBe(0);
    expect(hook.received).toHaveLength(3);
    // Pull delivery is unaffected by the suspension.
    const pulled = await deliveries(reg, sid, subscriber.token);
    expect(pulled.map((item) => [item.notification.artifact.title, item.status])).toEqual([
      ['S1', 'dead'],
      ['S2', 'dead'],
      ['S3', 'dead'],
      ['S4', 'pending'],
      ['S5', 'pending'],
      ['S6', 'pending'],
    ]);

    hook.respond = () => ({ status: 200 });
    const resumed = await reg.api.call(
      'PATCH',
      `/api/v1/subscriptions/${sid}`,
      200,
      { resume: true },
      subscriber.token,
    );
    expect(resumed.subscription).toMatchObject({
      delivery_state: 'active',
      consecutive_failures: 0,
      dead_count: 0,
    });
    expect(await worker.tick()).toBe(6);
    const after = await deliveries(reg, sid, subscriber.token);
    expect(after.map((item) => item.status)).toEqual(Array(6).fill('delivered'));
    expect(
      hook.received
        .slice(3)
        .map((request) => request.headers['x-reg-attempt'])
        .sort(),
    ).toEqual(['1', '1', '1', '2', '2', '2']);
    for (const request of hook.received) expectSigned(request, secret, sid);
  });

  it('does not follow redirects, and gives up on a receiver that does not answer in time', async () => {
    const reg = await registry({ ...LOOPBACK, REG_SUBSCRIPTION_TIMEOUT: '1s' });
    const hook = await receiver();
    hook.respond = (request) =>
      request.path === '/slow' ? 'hang' : { status: 302, headers: { location: hook.url('/elsewhere') } };
    const redirected = await subscribed(reg, hook.url('/moved'));
    const slow = await reg.api.deployment(undefined, 'slow subscriber');
    const slowSid = (
      await reg.api.call('POST', `/api/v1/instances/${slow.instance.id}/subscriptions`, 201, {
        webhook_url: hook.url('/slow'),
      })
    ).subscription.id as string;
    await reg.api.advertise(redirected.producer.token, 'produced', 'x-1', [artifact('Moved or slow')]);
    const worker = new WebhookWorker(reg.core, { now: testClock().now });
    const started = Date.now();
    expect(await worker.tick()).toBe(2);
    expect(Date.now() - started).toBeLessThan(5 * SECOND);
    expect(hook.received.map((request) => request.path).sort()).toEqual(['/moved', '/slow']);
    const [moved] = await deliveries(reg, redirected.sid, redirected.subscriber.token);
    expect(moved).toMatchObject({ status: 'failed', last_status: 302 });
    expect(moved!.last_error).toBe(`redirect (302) to ${hook.url('/elsewhere')} not followed`);
    const [late] = await deliveries(reg, slowSid, slow.token);
    expect(late).toMatchObject({ status: 'failed', last_status: null });
    expect(late!.last_error).toContain('no answer within 1 s');
  });
});

describe('webhook targets are checked again at send time', () => {
  it('refuses a host that resolves to a non-public address now, though it resolved to a public one before', async () => {
    const reg = await registry({ REG_SUBSCRIPTION_ALLOW_HTTP: 'true' });
    const hook = await receiver();
    let answers: string[] = ['93.184.215.14'];
    const resolve: Resolver = () =>
      Promise.resolve(answers.map((address) => ({ address, family: 4 as const })));
    const producer = await reg.api.deployment(undefined, 'rebind producer');
    const subscriber = await reg.api.deployment(undefined, 'rebind subscriber');
    const created = await createSubscription(
      reg.core,
      actOf(ROOT_PRINCIPAL),
      subscriber.instance.id,
      {
        webhook_url: hook.url('/hook', 'rebind.test'),
      },
      { resolve },
    );
    await reg.api.advertise(producer.token, 'produced', 'rb-1', [artifact('Rebound')]);
    const clock = testClock();
    const worker = new WebhookWorker(reg.core, { now: clock.now, resolve });
    for (const [now, kind] of [
      [['127.0.0.1'], 'loopback'],
      [['93.184.215.14', '10.0.0.7'], 'private'],
      [['169.254.169.254'], 'link-local'],
    ] as const) {
      answers = [...now];
      expect(await worker.tick()).toBe(1);
      const [item] = await deliveries(reg, created.subscription.id, subscriber.token);
      expect(item!.status).toBe('failed');
      expect(item!.last_error).toContain('target refused: rebind.test resolves to');
      expect(item!.last_error).toContain(kind);
      clock.set(item!.next_attempt_at);
    }
    expect(hook.received).toHaveLength(0);
  });
});
