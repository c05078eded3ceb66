import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT_TOKEN, runReg, startServe, tempDir, testEnv, type ServerProcess } from '../helpers.js';
import { artifact, type Json } from '../support/api.js';

/*
 * The repair commands of webhook subscriptions through the built CLI against a real `reg serve`: a subscription
 * created with a payload format and a signature scheme, its delivery log, redelivery of one delivery and secret
 * rotation, with the exit codes and one-line messages of every refusal.
 */

let server: ServerProcess;
let env: Record<string, string>;
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

async function json(args: string[], environment = env): Promise<Json> {
  const result = await runReg([...args, '--json'], environment);
  expect(result.code, `reg ${args.join(' ')}: ${result.stdout}${result.stderr}`).toBe(0);
  return JSON.parse(result.stdout) as Json;
}

/** Runs a command expected to fail: checks its exit code and the form of its message, and returns it. */
async function refused(args: string[], code: number, environment = env): Promise<string> {
  const result = await runReg(args, environment);
  expect(result.code, `reg ${args.join(' ')}: ${result.stdout}${result.stderr}`).toBe(code);
  // One line of message, then the refused fields and remediation hints, each on an indented line of its own.
  const [message, ...details] = result.stderr.trim().split('\n');
  expect(message).toMatch(/^reg: /);
  for (const detail of details) expect(detail).toMatch(/^ {2}\S/);
  return result.stderr;
}

beforeAll(async () => {
  // The webhook worker is off: deliveries stay queued, so what the commands change is seen exactly.
  server = await startServe(
    testEnv({
      REG_SUBSCRIPTION_ALLOW_HTTP: 'true',
      REG_SUBSCRIPTION_ALLOW_PRIVATE_TARGETS: 'true',
      REG_SUBSCRIPTION_WEBHOOKS: 'false',
    }),
  );
  url = server.url;
  env = { REG_URL: url, REG_TOKEN: ROOT_TOKEN, XDG_CONFIG_HOME: tempDir('reg-xdg-') };
});
afterAll(async () => {
  await server?.stop();
});

describe('reg subscribe create, log, redeliver and rotate-secret', () => {
  it('creates a CloudEvents subscription signed the Standard Webhooks way, and rotates its secret', async () => {
    const subscriber = await deployment('repair subscriber');
    const created = await json([
      'subscribe',
      'create',
      '--instance',
      subscriber.instance.id,
      '--webhook-url',
      'http://127.0.0.1:9/hook',
      '--format',
      'cloudevents',
      '--signature',
      'standard-webhooks',
      '--label',
      'standard',
    ]);
    expect(created.subscription).toMatchObject({ format: 'cloudevents', signature: 'standard-webhooks' });
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    const sid = created.subscription.id as string;

    const rotated = await json(['subscribe', 'rotate-secret', sid, '--overlap', '2h']);
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(created.secret);
    const overlap = Date.parse(rotated.previous_secret_until as string) - Date.now();
    expect(overlap).toBeGreaterThan(7000 * 1000);
    expect(overlap).toBeLessThanOrEqual(7200 * 1000);
    // The table form prints the new secret and says until when the old one signs.
    const printed = await runReg(
      ['subscribe', 'rotate-secret', 'standard', '--instance', subscriber.instance.id],
      env,
    );
    expect(printed.code, printed.stderr).toBe(0);
    expect(printed.stdout).toMatch(/whsec_/);
    expect(printed.stderr).toMatch(/also signs until/);

    expect(await refused(['subscribe', 'rotate-secret', sid, '--overlap', '9d'], 8)).toMatch(/overlap/);
    const usage = await runReg(
      [
        'subscribe',
        'create',
        '--instance',
        subscriber.instance.id,
        '--webhook-url',
        'http://127.0.0.1:9/h',
        '--format',
        'xml',
      ],
      env,
    );
    expect(usage.code).toBe(2);
    expect(usage.stderr).toMatch(/--format=xml to be one of: reg, cloudevents, cdevents/);
    const other = await deployment('repair other');
    expect(await refused(['subscribe', 'rotate-secret', sid], 9, { ...env, REG_TOKEN: other.token })).toMatch(
      /subscription/,
    );
  });

  it('shows the delivery log, redelivers one delivery under its id and refuses what cannot be redelivered', async () => {
    const producer = await deployment('repair producer');
    const subscriber = await deployment('repair hooked');
    const hooked = await json([
      'subscribe',
      'create',
      '--instance',
      subscriber.instance.id,
      '--webhook-url',
      'http://127.0.0.1:9/hook',
    ]);
    const pulled = await json([
      'subscribe',
      'create',
      '--instance',
      subscriber.instance.id,
      '--label',
      'pulled',
    ]);
    await api(
      'POST',
      '/api/v1/advertise/produced',
      { run: { external_key: 'repair-1' }, artifacts: [artifact('Repairable')] },
      producer.token,
    );
    const sid = hooked.subscription.id as string;
    const [delivery] = (await json(['subscribe', 'pull', sid])).items as Json[];
    expect(delivery).toBeDefined();

    const log = await json(['subscribe', 'log', sid, '--limit', '10']);
    expect(log).toMatchObject({ subscription_id: sid, total: 0, items: [], next_before: null });
    expect(log.retention_seconds).toBe(7 * 24 * 3600);
    const table = await runReg(['subscribe', 'log', sid], env);
    expect(table.code, table.stderr).toBe(0);
    expect(table.stderr).toMatch(/0 of 0 attempts/);
    const subscriberEnv = { ...env, REG_TOKEN: subscriber.token };
    expect((await json(['subscribe', 'log', sid], subscriberEnv)).subscription_id).toBe(sid);
    const other = await deployment('repair stranger');
    expect(await refused(['subscribe', 'log', sid], 9, { ...env, REG_TOKEN: other.token })).toMatch(
      /admin role|deployment/,
    );

    const queued = await json(['subscribe', 'redeliver', sid, delivery!.id as string], subscriberEnv);
    expect(queued).toMatchObject({ id: delivery!.id, subscription_id: sid, status: 'pending' });
    expect(queued.next_attempt_at).not.toBeNull();
    expect(await refused(['subscribe', 'redeliver', sid, '0190ffff-0000-7000-8000-000000000000'], 7)).toMatch(
      /no delivery/,
    );
    const [pulledDelivery] = (await json(['subscribe', 'pull', pulled.subscription.id])).items as Json[];
    expect(
      await refused(['subscribe', 'redeliver', pulled.subscription.id, pulledDelivery!.id as string], 8),
    ).toMatch(/pull-only/);
  });
});
