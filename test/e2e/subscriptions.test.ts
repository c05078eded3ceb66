import { spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BIN,
  ROOT_TOKEN,
  runReg,
  startServe,
  tempDir,
  testEnv,
  waitFor,
  type ServerProcess,
} from '../helpers.js';
import { artifact, type Json } from '../support/api.js';
import { startReceiver, type Receiver } from '../support/receivers.js';

/*
 * Subscriptions through a real `reg serve` and the `reg subscribe` / `reg webhook` commands: deliveries queued
 * before a crash are all delivered after the restart, the pull queue and its cursor survive, `--follow` prints
 * deliveries live and stops cleanly on SIGINT, and `reg webhook verify` accepts exactly what the registry sent.
 */

let server: ServerProcess;
let receiver: Receiver;
let env: Record<string, string>;
let serveEnv: Record<string, string>;
let url: string;

async function api(method: string, pathname: string, body?: unknown, token = ROOT_TOKEN): Promise<Json> {
  const response = await fetch(`${url}${pathname}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  expect(response.status, `${method} ${pathname}: ${text}`).toBeLessThan(300);
  return text === '' ? {} : (JSON.parse(text) as Json);
}

async function deployment(label: string): Promise<{ instance: Json; token: string }> {
  const software = await api('POST', '/api/v1/software', { name: `software of ${label}` });
  const instance = await api('POST', '/api/v1/instances', { software: software.id, label });
  const minted = await api('POST', `/api/v1/instances/${instance.id}/tokens`, {
    scopes: ['advertise:produce', 'subscribe:artifacts'],
  });
  return { instance, token: minted.token as string };
}

const advertise = async (token: string, key: string, title: string): Promise<string> =>
  (
    (
      await api(
        'POST',
        '/api/v1/advertise/produced',
        { run: { external_key: key }, artifacts: [artifact(title)] },
        token,
      )
    ).artifacts as string[]
  )[0]!;

async function json(args: string[], environment = env): Promise<Json> {
  const result = await runReg([...args, '--json'], environment);
  expect(result.code, `reg ${args.join(' ')}: ${result.stdout}${result.stderr}`).toBe(0);
  return JSON.parse(result.stdout) as Json;
}

const signatureOk = (secret: string, headers: Record<string, unknown>, body: string): boolean =>
  headers['x-reg-signature'] ===
  `sha256=${createHmac('sha256', secret)
    .update(`${String(headers['x-reg-timestamp'])}.${body}`)
    .digest('hex')}`;

beforeAll(async () => {
  receiver = await startReceiver();
  serveEnv = testEnv({
    REG_SUBSCRIPTION_ALLOW_HTTP: 'true',
    REG_SUBSCRIPTION_ALLOW_PRIVATE_TARGETS: 'true',
    REG_SUBSCRIPTION_TICK: '200ms',
    REG_SUBSCRIPTION_WEBHOOKS: 'false',
  });
  server = await startServe(serveEnv);
  url = server.url;
  env = { REG_URL: url, REG_TOKEN: ROOT_TOKEN, XDG_CONFIG_HOME: tempDir('reg-xdg-') };
});
afterAll(async () => {
  await server?.stop();
  await receiver?.close();
});

describe('subscriptions across a restart', () => {
  it('delivers every delivery queued before a kill -9, by webhook and by pull, after the restart', async () => {
    const producer = await deployment('crash producer');
    const subscriber = await deployment('crash subscriber');
    const hooked = await json([
      'subscribe',
      'create',
      '--instance',
      subscriber.instance.id,
      '--webhook-url',
      receiver.url('/crash'),
      '--label',
      'crash hook',
    ]);
    const pulled = await json([
      'subscribe',
      'create',
      '--instance',
      subscriber.instance.id,
      '--label',
      'crash pull',
    ]);
    const advertised: string[] = [];
    for (let i = 0; i < 12; i++) advertised.push(await advertise(producer.token, `crash-${i}`, `Crash ${i}`));
    // Half the pull queue is acknowledged before the crash; the cursor must survive it.
    const first = await json(['subscribe', 'pull', pulled.subscription.id, '--limit', '6', '--ack']);
    expect(first.items).toHaveLength(6);
    expect(await server.stop('SIGKILL')).toBeNull();

    server = await startServe({
      ...serveEnv,
      REG_SUBSCRIPTION_WEBHOOKS: 'true',
      REG_LISTEN: new URL(url).host,
    });
    expect(server.url).toBe(url);
    await waitFor(
      () => receiver.received.filter((request) => request.path === '/crash').length >= 12,
      20_000,
    );
    const bodies = receiver.received.filter((request) => request.path === '/crash');
    expect(bodies).toHaveLength(12);
    for (const request of bodies)
      expect(signatureOk(hooked.secret, request.headers, request.body)).toBe(true);
    expect(bodies.map((request) => JSON.parse(request.body).artifact_iri).sort()).toEqual(
      [...advertised].sort(),
    );

    const rest = await json(['subscribe', 'pull', pulled.subscription.id, '--limit', '200']);
    expect(rest.items.map((item: Json) => item.artifact_iri)).toEqual(advertised.slice(6));
    expect(rest).toMatchObject({ acknowledged: first.next_cursor, remaining: 0 });
    const list = await json(['subscribe', 'list', '--instance', subscriber.instance.id]);
    const hook = list.items.find((item: Json) => item.id === hooked.subscription.id);
    expect(hook).toMatchObject({
      pending_count: 0,
      failed_count: 0,
      dead_count: 0,
      delivery_state: 'active',
    });
  });
});

describe('reg subscribe and reg webhook', () => {
  it('follows the queue live, acknowledging as it goes, and stops cleanly on SIGINT', async () => {
    const producer = await deployment('follow producer');
    const subscriber = await deployment('follow subscriber');
    const asSubscriber = { ...env, REG_TOKEN: subscriber.token };
    const { subscription } = await json(
      ['subscribe', 'create', '--instance', subscriber.instance.iri, '--from-instance', producer.instance.id],
      asSubscriber,
    );
    expect(subscription.filter.instance).toEqual([producer.instance.iri]);
    const early = await advertise(producer.token, 'follow-1', 'Before following');
    const child = spawn(
      process.execPath,
      [BIN, 'subscribe', 'pull', subscription.id, '--follow', '--interval', '1'],
      {
        env: { PATH: process.env.PATH ?? '', ...asSubscriber },
      },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    const lines = () =>
      stdout
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line) as Json);
    let late: string;
    try {
      await waitFor(() => lines().length === 1, 20_000);
      late = await advertise(producer.token, 'follow-2', 'While following');
      await waitFor(() => lines().length === 2, 20_000);
    } catch (error) {
      child.kill('SIGKILL');
      throw error;
    }
    child.kill('SIGINT');
    expect(await exited, stderr).toBe(0);
    expect(lines().map((line) => line.artifact_iri)).toEqual([early, late]);
    expect(lines()[1]!.notification.artifact.title).toBe('While following');
    expect(stderr).toContain('stopped by SIGINT: 2 deliveries received');
    const after = await json(['subscribe', 'pull', subscription.id], asSubscriber);
    expect(after).toMatchObject({ items: [], remaining: 0, acknowledged: lines()[1]!.seq });
  });

  it('resumes and deletes a subscription; refuses another deployment (exit 9)', async () => {
    const owner = await deployment('cli owner');
    const stranger = await deployment('cli stranger');
    const { subscription } = await json([
      'subscribe',
      'create',
      '--instance',
      owner.instance.id,
      '--keyword',
      'shacl',
    ]);
    const table = await runReg(['subscribe', 'list', '--instance', owner.instance.id], env);
    expect(table.stdout).toMatch(/^LABEL +MODE +STATE +UNACKED/);
    expect(table.stdout).toContain(`${subscription.id}`);
    const resumed = await json(['subscribe', 'resume', subscription.id], { ...env, REG_TOKEN: owner.token });
    expect(resumed.subscription.delivery_state).toBe('active');
    const refused = await runReg(['subscribe', 'delete', subscription.id], {
      ...env,
      REG_TOKEN: stranger.token,
    });
    expect(refused.code).toBe(9);
    expect(await json(['subscribe', 'delete', subscription.id])).toEqual({
      id: subscription.id,
      deleted: true,
    });
    const gone = await runReg(['subscribe', 'pull', subscription.id], env);
    expect(gone.code).toBe(7);
  });

  it('verifies a delivery exactly as received, and refuses tampering and stale timestamps with one line', async () => {
    const producer = await deployment('verify producer');
    const subscriber = await deployment('verify subscriber');
    const created = await json([
      'subscribe',
      'create',
      '--instance',
      subscriber.instance.id,
      '--webhook-url',
      receiver.url('/verify'),
      '--from-instance',
      producer.instance.id,
    ]);
    await advertise(producer.token, 'verify-1', 'To verify');
    await waitFor(() => receiver.received.some((request) => request.path === '/verify'), 20_000);
    const request = receiver.received.find((entry) => entry.path === '/verify')!;
    const dir = tempDir('reg-verify-');
    const file = (name: string, content: string) => {
      fs.writeFileSync(path.join(dir, name), content);
      return path.join(dir, name);
    };
    const secret = file('secret', `${created.secret}\n`);
    const body = file('body.json', request.body);
    const headers = file(
      'headers.txt',
      Object.entries(request.headers)
        .map(([name, value]) => `${name}: ${String(value)}`)
        .join('\r\n'),
    );
    const valid = await json([
      'webhook',
      'verify',
      '--secret-file',
      secret,
      '--body',
      body,
      '--headers',
      headers,
    ]);
    expect(valid).toMatchObject({
      valid: true,
      timestamp: Number(request.headers['x-reg-timestamp']),
      delivery: request.headers['x-reg-delivery'],
      subscription: created.subscription.id,
    });
    const plain = await runReg(
      [
        'webhook',
        'verify',
        '--secret',
        created.secret,
        '--body',
        '-',
        '--timestamp',
        String(request.headers['x-reg-timestamp']),
        '--signature',
        String(request.headers['x-reg-signature']),
      ],
      {},
      request.body,
    );
    expect(plain.code, plain.stderr).toBe(0);
    expect(plain.stdout).toMatch(/^valid: signed -?\d+ s ago\n$/);

    const tampered = await runReg(
      [
        'webhook',
        'verify',
        '--secret-file',
        secret,
        '--body',
        file('tampered.json', request.body.replace('To verify', 'To forge')),
        '--headers',
        headers,
      ],
      {},
    );
    expect(tampered.code).toBe(1);
    expect(tampered.stderr).toBe('reg: the signature does not match the body, timestamp and secret\n');
    const stale = Number(request.headers['x-reg-timestamp']) - 3600;
    const old = await runReg(
      [
        'webhook',
        'verify',
        '--secret-file',
        secret,
        '--body',
        body,
        '--timestamp',
        String(stale),
        '--signature',
        `sha256=${createHmac('sha256', created.secret).update(`${stale}.${request.body}`).digest('hex')}`,
        '--tolerance',
        '60',
      ],
      {},
    );
    expect(old.code).toBe(1);
    expect(old.stderr).toMatch(/^reg: the timestamp is 36\d\d s old, beyond the tolerance of 60 s\n$/);
    const missing = await runReg(['webhook', 'verify', '--secret-file', secret, '--body', body], {});
    expect(missing.code).toBe(2);
  });
});

describe('reg webhook verify --scheme standard-webhooks', () => {
  /** Writes a file of the test's own and returns its path. */
  const writer = () => {
    const dir = tempDir('reg-verify-standard-');
    return (name: string, content: string) => {
      fs.writeFileSync(path.join(dir, name), content);
      return path.join(dir, name);
    };
  };
  const headerBlock = (headers: Record<string, unknown>) =>
    Object.entries(headers)
      .map(([name, value]) => `${name}: ${String(value)}`)
      .join('\r\n');
  /** A Standard Webhooks signature computed here from the scheme's definition, not by the registry's code. */
  const standardSignature = (secret: string, id: string, timestamp: number | string, body: string) =>
    `v1,${createHmac('sha256', Buffer.from(secret.replace(/^whsec_/, ''), 'base64'))
      .update(`${id}.${timestamp}.${body}`)
      .digest('base64')}`;

  it('accepts what the registry sent, as the reference verifier does, and refuses tampering, replays and the wrong scheme', async () => {
    const producer = await deployment('standard producer');
    const subscriber = await deployment('standard subscriber');
    const created = await json([
      'subscribe',
      'create',
      '--instance',
      subscriber.instance.id,
      '--webhook-url',
      receiver.url('/standard'),
      '--from-instance',
      producer.instance.id,
      '--format',
      'cloudevents',
      '--signature',
      'standard-webhooks',
    ]);
    expect(created.secret).toMatch(/^whsec_/);
    await advertise(producer.token, 'standard-1', 'Standard delivery');
    await waitFor(() => receiver.received.some((request) => request.path === '/standard'), 20_000);
    const request = receiver.received.find((entry) => entry.path === '/standard')!;
    const id = String(request.headers['webhook-id']);
    const timestamp = String(request.headers['webhook-timestamp']);
    const signature = String(request.headers['webhook-signature']);
    // The reference verifier of the scheme accepts the delivery: the command must agree with it.
    const event = new Webhook(created.secret as string).verify(request.body, {
      'webhook-id': id,
      'webhook-timestamp': timestamp,
      'webhook-signature': signature,
    }) as Json;
    expect(event.type).toBe('org.reg.artifact.advertised');
    const file = writer();
    const secret = file('secret', `${created.secret}\n`);
    const body = file('body.json', request.body);
    const headers = file('headers.txt', headerBlock(request.headers));
    const standard = ['webhook', 'verify', '--scheme', 'standard-webhooks', '--secret-file', secret];
    expect(await json([...standard, '--body', body, '--headers', headers])).toEqual({
      valid: true,
      scheme: 'standard-webhooks',
      timestamp: Number(timestamp),
      age_seconds: expect.any(Number),
      delivery: id,
      subscription: created.subscription.id,
    });
    const plain = await runReg(
      [
        'webhook',
        'verify',
        '--scheme',
        'standard-webhooks',
        '--secret',
        created.secret,
        '--body',
        '-',
        '--id',
        id,
        '--timestamp',
        timestamp,
        '--signature',
        signature,
      ],
      {},
      request.body,
    );
    expect(plain.code, plain.stderr).toBe(0);
    expect(plain.stdout).toMatch(/^valid: signed -?\d+ s ago\n$/);

    const tampered = await runReg(
      [
        ...standard,
        '--body',
        file('tampered.json', request.body.replace('Standard', 'Forged')),
        '--headers',
        headers,
      ],
      {},
    );
    expect(tampered.code).toBe(1);
    expect(tampered.stderr).toBe('reg: the signature does not match the id, timestamp, body and secret\n');
    const otherId = await runReg(
      [
        ...standard,
        '--body',
        body,
        '--id',
        'another-delivery',
        '--timestamp',
        timestamp,
        '--signature',
        signature,
      ],
      {},
    );
    expect(otherId.code).toBe(1);
    const stale = Number(timestamp) - 3600;
    const old = await runReg(
      [
        ...standard,
        '--body',
        body,
        '--id',
        id,
        '--timestamp',
        String(stale),
        '--signature',
        standardSignature(created.secret as string, id, stale, request.body),
        '--tolerance',
        '60',
      ],
      {},
    );
    expect(old.code).toBe(1);
    expect(old.stderr).toMatch(/^reg: the timestamp is 36\d\d s old, beyond the tolerance of 60 s\n$/);
    const replayed = await runReg(
      [
        ...standard,
        '--body',
        body,
        '--id',
        id,
        '--timestamp',
        String(stale),
        '--signature',
        standardSignature(created.secret as string, id, stale, request.body),
      ],
      {},
    );
    expect(replayed.code).toBe(1);
    expect(replayed.stderr).toMatch(/beyond the tolerance of 300 s\n$/);
    const malformed = await runReg(
      [...standard, '--body', body, '--id', id, '--timestamp', timestamp, '--signature', 'sha256=abc'],
      {},
    );
    expect(malformed.code).toBe(1);
    expect(malformed.stderr).toBe('reg: the signature holds no "v1," followed by a base64 signature\n');

    const wrongScheme = await runReg(
      ['webhook', 'verify', '--secret-file', secret, '--body', body, '--headers', headers],
      {},
    );
    expect(wrongScheme.code).toBe(2);
    expect(wrongScheme.stderr).toMatch(
      /the headers hold webhook-signature, not x-reg-signature: give --scheme standard-webhooks/,
    );
    const noId = await runReg(
      [...standard, '--body', body, '--timestamp', timestamp, '--signature', signature],
      {},
    );
    expect(noId.code).toBe(2);
    const badSecret = await runReg(
      [...standard.slice(0, 4), '--secret', 'not a secret!', '--body', body, '--headers', headers],
      {},
    );
    expect(badSecret.code).toBe(2);
    const badScheme = await runReg(
      [...standard.slice(0, 2), '--scheme', 'pgp', '--secret', 'x', '--body', body],
      {},
    );
    expect(badScheme.code).toBe(2);
  });

  it('verifies with the old secret and the new one while a rotation overlaps, and only with the new one after', async () => {
    const producer = await deployment('rotating producer');
    const subscriber = await deployment('rotating subscriber');
    const created = await json([
      'subscribe',
      'create',
      '--instance',
      subscriber.instance.id,
      '--webhook-url',
      receiver.url('/rotating'),
      '--from-instance',
      producer.instance.id,
      '--signature',
      'standard-webhooks',
    ]);
    const rotated = await json(['subscribe', 'rotate-secret', created.subscription.id, '--overlap', '1h']);
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(created.secret);
    await advertise(producer.token, 'rotating-1', 'Rotating delivery');
    await waitFor(() => receiver.received.some((request) => request.path === '/rotating'), 20_000);
    const request = receiver.received.find((entry) => entry.path === '/rotating')!;
    expect(String(request.headers['webhook-signature']).split(' ')).toHaveLength(2);
    const file = writer();
    const body = file('body.json', request.body);
    const headers = file('headers.txt', headerBlock(request.headers));
    const verify = (secret: string) =>
      runReg(
        [
          'webhook',
          'verify',
          '--scheme',
          'standard-webhooks',
          '--secret',
          secret,
          '--body',
          body,
          '--headers',
          headers,
        ],
        {},
      );
    expect((await verify(created.secret as string)).code).toBe(0);
    expect((await verify(rotated.secret as string)).code).toBe(0);
    const stranger = await verify(`whsec_${Buffer.alloc(32, 7).toString('base64')}`);
    expect(stranger.code).toBe(1);

    // A rotation without overlap: from now on only its secret signs.
    const last = await json(['subscribe', 'rotate-secret', created.subscription.id, '--overlap', '0']);
    await advertise(producer.token, 'rotating-2', 'After the overlap');
    await waitFor(
      () => receiver.received.filter((request) => request.path === '/rotating').length === 2,
      20_000,
    );
    const after = receiver.received.filter((entry) => entry.path === '/rotating')[1]!;
    expect(String(after.headers['webhook-signature']).split(' ')).toHaveLength(1);
    const afterBody = file('after.json', after.body);
    const afterHeaders = file('after.txt', headerBlock(after.headers));
    const check = (secret: string) =>
      runReg(
        [
          'webhook',
          'verify',
          '--scheme',
          'standard-webhooks',
          '--secret',
          secret,
          '--body',
          afterBody,
          '--headers',
          afterHeaders,
        ],
        {},
      );
    expect((await check(last.secret as string)).code).toBe(0);
    expect((await check(rotated.secret as string)).code).toBe(1);
    expect((await check(created.secret as string)).code).toBe(1);
  });
});
