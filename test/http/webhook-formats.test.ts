import fs from 'node:fs';
import path from 'node:path';
import Ajv from 'ajv';
import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import type { Core } from '../../src/core/core.js';
import { WebhookSender } from '../../src/core/subscriptions/webhook-sender.js';
import { verifyWebhook } from '../../src/core/subscriptions/webhook-signature.js';
import { createApp } from '../../src/http/app.js';
import { openTestCore, ROOT } from '../helpers.js';
import { apiOf, artifact, type Json } from '../support/api.js';
import { startReceiver, type Received, type Receiver } from '../support/receivers.js';

/*
 * The webhook bodies other systems read (CloudEvents, CDEvents) and the Standard Webhooks signature, checked by
 * real receivers on the loopback interface: the CDEvents body against the specification's own JSON Schema, the
 * signatures with the reference verifier from the npm registry. The sender's clock is injected; only the
 * verifier's clock is moved to show a replay outside its window is refused.
 */

interface Registry {
  core: Core;
  api: ReturnType<typeof apiOf>;
}

const SECOND = 1000;
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

/** A clock the test moves by hand, starting just after now (so deliveries queued now are due). */
function testClock() {
  let at = Date.now() + SECOND;
  return { now: () => new Date(at), advance: (ms: number) => (at += ms) };
}

/** A producer and a subscriber whose webhook subscription (created with `options`) takes everything produced. */
async function subscribed({ api }: Registry, webhookUrl: string, options: Json = {}) {
  const producer = await api.deployment(undefined, 'producer');
  const subscriber = await api.deployment(undefined, 'subscriber');
  const created = await api.call(
    'POST',
    `/api/v1/instances/${subscriber.instance.id}/subscriptions`,
    201,
    { webhook_url: webhookUrl, ...options },
    subscriber.token,
  );
  return { producer, subscriber, sid: created.subscription.id as string, created };
}

const pulled = async ({ api }: Registry, sid: string, token: string): Promise<Json[]> =>
  (await api.call('GET', `/api/v1/subscriptions/${sid}/deliveries?cursor=0&limit=200`, 200, undefined, token))
    .items;

/** The headers the standardwebhooks verifier reads, as a receiver got them. */
const standardHeaders = (request: Received): Record<string, string> => ({
  'webhook-id': request.headers['webhook-id'] as string,
  'webhook-timestamp': request.headers['webhook-timestamp'] as string,
  'webhook-signature': request.headers['webhook-signature'] as string,
});

/** The CDEvents artifact.published schema of the specification, with the link schemas it refers to. */
function cdeventsValidator() {
  const dir = path.join(ROOT, 'test/fixtures/webhook-cdevents');
  const load = (file: string) => JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')) as object;
  // The schemas declare draft 2020-12 but use only keywords draft-07 validators read the same way.
  const ajv = new Ajv({ validateSchema: false, allErrors: true, format: 'full', logger: false });
  for (const file of ['embeddedlinksarray', 'embeddedlinkend', 'embeddedlinkpath', 'embeddedlinkrelation'])
    ajv.addSchema(load(`links/${file}.json`));
  return ajv.compile(load('artifactpublished.json'));
}

describe('webhook payload formats', () => {
  it('sends a CloudEvents 1.0 event in structured mode, the same bytes at every attempt', async () => {
    const reg = await registry();
    const hook = await receiver();
    hook.respond = (_request, index) => ({ status: index === 0 ? 500 : 204 });
    const { producer, subscriber, sid, created } = await subscribed(reg, hook.url(), {
      format: 'cloudevents',
    });
    expect(created.subscription).toMatchObject({ format: 'cloudevents', signature: 'reg' });
    await reg.api.advertise(producer.token, 'produced', 'ce-1', [artifact('Cloud event')]);
    const clock = testClock();
    const sender = new WebhookSender(reg.core, { now: clock.now, backoff: () => 10 * SECOND });
    expect(await sender.tick()).toBe(1);
    clock.advance(10 * SECOND);
    expect(await sender.tick()).toBe(1);
    expect(hook.received).toHaveLength(2);
    const [first, second] = hook.received as [Received, Received];
    expect(second.body).toBe(first.body);
    expect(first.headers['content-type']).toBe('application/cloudevents+json');
    const [delivery] = await pulled(reg, sid, subscriber.token);
    const event = JSON.parse(first.body) as Json;
    expect(event).toEqual({
      specversion: '1.0',
      id: delivery!.id,
      source: reg.core.config.baseIri,
      type: 'org.reg.artifact.advertised',
      time: delivery!.matched_at,
      subject: delivery!.artifact_iri,
      datacontenttype: 'application/json',
      data: delivery!.notification,
    });
    expect(event.data.artifact.title).toBe('Cloud event');
    // The signature of the default scheme covers the CloudEvents body as sent.
    const check = verifyWebhook({
      secret: created.secret as string,
      body: second.body,
      timestamp: second.headers['x-reg-timestamp'] as string,
      signature: second.headers['x-reg-signature'] as string,
      toleranceSeconds: 0,
    });
    expect(check.valid).toBe(true);
  });

  it('sends a CDEvents artifact.published event that the specification’s schema accepts', async () => {
    const reg = await registry();
    const hook = await receiver();
    const { producer, subscriber, sid } = await subscribed(reg, hook.url(), { format: 'cdevents' });
    await reg.api.advertise(producer.token, 'produced', 'cd-1', [
      artifact('Packaged', { external_key: 'pkg:npm/example-data@1.2.3' }),
      artifact('Plain'),
    ]);
    expect(await new WebhookSender(reg.core, { now: testClock().now }).tick()).toBe(2);
    const validate = cdeventsValidator();
    const items = await pulled(reg, sid, subscriber.token);
    for (const [index, request] of hook.received.entries()) {
      const event = JSON.parse(request.body) as Json;
      expect(validate(event), JSON.stringify(validate.errors)).toBe(true);
      expect(event.context).toEqual({
        version: '0.4.1',
        id: items[index]!.id,
        source: reg.core.config.baseIri,
        type: 'dev.cdevents.artifact.published.0.2.0',
        timestamp: items[index]!.matched_at,
      });
      expect(event.subject.content).toEqual({ user: producer.instance.iri });
      expect(event.customData).toEqual(items[index]!.notification);
      expect(request.headers['ce-type']).toBe('dev.cdevents.artifact.published.0.2.0');
      expect(request.headers['ce-id']).toBe(items[index]!.id);
    }
    const subjects = hook.received.map((request) => (JSON.parse(request.body) as Json).subject.id as string);
    expect(subjects).toContain('pkg:npm/example-data@1.2.3');
    expect(subjects).toContain(
      items.find((item) => item.notification.artifact.title === 'Plain')!.artifact_iri,
    );
    // The schema refuses what the specification does not allow: the check can fail.
    expect(validate({ context: {}, subject: { id: 'x', type: 'artifact', content: { title: 'no' } } })).toBe(
      false,
    );
  });

  it('refuses an unknown format or signature scheme, naming the field', async () => {
    const reg = await registry();
    const subscriber = await reg.api.deployment(undefined, 'subscriber');
    const url = `/api/v1/instances/${subscriber.instance.id}/subscriptions`;
    const format = await reg.api.call('POST', url, 400, {
      webhook_url: 'http://127.0.0.1:9/h',
      format: 'xml',
    });
    expect(format.errors).toEqual([expect.objectContaining({ field: 'format' })]);
    const scheme = await reg.api.call('POST', url, 400, {
      webhook_url: 'http://127.0.0.1:9/h',
      signature: 'pgp',
    });
    expect(scheme.errors).toEqual([expect.objectContaining({ field: 'signature' })]);
    const secret = await reg.api.call('POST', url, 400, {
      webhook_url: 'http://127.0.0.1:9/h',
      signature: 'standard-webhooks',
      webhook_secret: 'not-base64-at-all!!!!',
    });
    expect(secret.errors).toEqual([expect.objectContaining({ field: 'webhook_secret' })]);
  });
});

describe('changing the format and the signature scheme', () => {
  it('switches an existing subscription, keeping a secret the new scheme can use and refusing one it cannot', async () => {
    const reg = await registry();
    const hook = await receiver();
    const { producer, subscriber, sid, created } = await subscribed(reg, hook.url());
    const path = `/api/v1/subscriptions/${sid}`;
    // A generated secret (whsec_ and hex) is also valid base64, so it signs under Standard Webhooks unchanged.
    const switched = await reg.api.call(
      'PATCH',
      path,
      200,
      { format: 'cdevents', signature: 'standard-webhooks' },
      subscriber.token,
    );
    expect(switched.subscription).toMatchObject({ format: 'cdevents', signature: 'standard-webhooks' });
    expect(switched.secret).toBeNull();
    await reg.api.advertise(producer.token, 'produced', 'sw-3', [artifact('Switched')]);
    const clock = testClock();
    await new WebhookSender(reg.core, { now: clock.now }).tick();
    const [request] = hook.received as [Received];
    vi.useFakeTimers({ now: clock.now() });
    const verified = new Webhook(created.secret as string).verify(
      request.body,
      standardHeaders(request),
    ) as Json;
    expect(verified.context.type).toBe('dev.cdevents.artifact.published.0.2.0');
    vi.useRealTimers();
    const refused = await reg.api.call(
      'PATCH',
      path,
      400,
      { webhook_secret: 'a-secret-of-my-own-choosing' },
      subscriber.token,
    );
    expect(refused.errors).toEqual([expect.objectContaining({ field: 'signature' })]);
    const back = await reg.api.call(
      'PATCH',
      path,
      200,
      { format: 'reg', signature: 'reg' },
      subscriber.token,
    );
    expect(back.subscription).toMatchObject({ format: 'reg', signature: 'reg' });
  });
});

describe('Standard Webhooks signatures', () => {
  it('verifies with the reference verifier, and a replay outside five minutes is refused', async () => {
    const reg = await registry();
    const hook = await receiver();
    const { producer, subscriber, sid, created } = await subscribed(reg, hook.url(), {
      signature: 'standard-webhooks',
    });
    const secret = created.secret as string;
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    expect(created.subscription.signature).toBe('standard-webhooks');
    await reg.api.advertise(producer.token, 'produced', 'sw-1', [artifact('Standard')]);
    const clock = testClock();
    expect(await new WebhookSender(reg.core, { now: clock.now }).tick()).toBe(1);
    const [request] = hook.received as [Received];
    const [delivery] = await pulled(reg, sid, subscriber.token);
    expect(request.headers['webhook-id']).toBe(delivery!.id);
    expect(request.headers['webhook-timestamp']).toBe(String(Math.floor(clock.now().getTime() / SECOND)));
    expect(request.headers['x-reg-signature']).toBeUndefined();
    const verifier = new Webhook(secret);
    expect(verifier.verify(request.body, standardHeaders(request))).toEqual(delivery!.notification);
    expect(() => verifier.verify(`${request.body} `, standardHeaders(request))).toThrow();
    expect(() =>
      new Webhook(`whsec_${Buffer.alloc(32, 7).toString('base64')}`).verify(
        request.body,
        standardHeaders(request),
      ),
    ).toThrow();
    vi.useFakeTimers({ now: clock.now().getTime() + 6 * 60 * SECOND });
    expect(() => verifier.verify(request.body, standardHeaders(request))).toThrow(/timestamp/i);
    vi.setSystemTime(clock.now().getTime() + 4 * 60 * SECOND);
    expect(verifier.verify(request.body, standardHeaders(request))).toEqual(delivery!.notification);
  });

  it('keeps the same webhook-id on every attempt, with a fresh timestamp', async () => {
    const reg = await registry();
    const hook = await receiver();
    hook.respond = (_request, index) => ({ status: index === 0 ? 502 : 200 });
    const { producer, created } = await subscribed(reg, hook.url(), { signature: 'standard-webhooks' });
    await reg.api.advertise(producer.token, 'produced', 'sw-2', [artifact('Twice')]);
    const clock = testClock();
    const sender = new WebhookSender(reg.core, { now: clock.now, backoff: () => 30 * SECOND });
    await sender.tick();
    clock.advance(30 * SECOND);
    await sender.tick();
    const [first, second] = hook.received as [Received, Received];
    expect(second.headers['webhook-id']).toBe(first.headers['webhook-id']);
    expect(Number(second.headers['webhook-timestamp']) - Number(first.headers['webhook-timestamp'])).toBe(30);
    vi.useFakeTimers({ now: clock.now() });
    expect(() =>
      new Webhook(created.secret as string).verify(second.body, standardHeaders(second)),
    ).not.toThrow();
  });
});
