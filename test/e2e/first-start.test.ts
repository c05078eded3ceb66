import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startServe, testEnv, type ServerProcess } from '../helpers.js';

/*
 * A new registry started without REG_ROOT_TOKEN can be administered: it creates an administrator token, keeps
 * only its hash, and shows it once with the commands that use it.
 */

const servers: ServerProcess[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.stop();
});

const TOKEN = /\n {2}(reg_admin_[0-9a-f]{64})\n/;

async function serve(env: Record<string, string>): Promise<ServerProcess> {
  const server = await startServe(env);
  servers.push(server);
  return server;
}

const whoami = async (url: string, token: string) =>
  (await fetch(`${url}/api/v1/whoami`, { headers: { authorization: `Bearer ${token}` } })).json() as Promise<{
    authenticated: boolean;
    roles: string[];
  }>;

describe('first start', () => {
  it('creates an administrator token once, shows it once and keeps only its hash', async () => {
    const { REG_ROOT_TOKEN: _root, ...env } = testEnv();
    const first = await serve(env);
    const token = TOKEN.exec(first.logs())?.[1];
    expect(token, first.logs()).toBeDefined();
    expect(first.logs()).toContain(`export REG_URL=${first.url} REG_TOKEN=${token}`);
    expect(first.logs()).not.toContain('no one can administer');
    expect(await whoami(first.url, token!)).toMatchObject({ authenticated: true, roles: ['admin'] });
    const created = await fetch(`${first.url}/api/v1/software`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'first tool' }),
    });
    expect(created.status).toBe(201);
    // A token of the right shape that was never issued is refused.
    const forged = `reg_admin_${'0'.repeat(64)}`;
    expect(
      (await fetch(`${first.url}/api/v1/whoami`, { headers: { authorization: `Bearer ${forged}` } })).status,
    ).toBe(401);
    expect(await first.stop()).toBe(0);

    // Only the digest is stored; the token appears in no file of the data directory.
    for (const name of fs.readdirSync(env.REG_DATA_DIR!)) {
      expect(fs.readFileSync(path.join(env.REG_DATA_DIR!, name)).includes(token!), name).toBe(false);
    }

    const second = await serve(env);
    expect(second.logs()).not.toContain('reg_admin_');
    expect(second.logs()).not.toContain('no one can administer');
    expect(await whoami(second.url, token!)).toMatchObject({ authenticated: true, roles: ['admin'] });
  }, 120_000);

  it('creates none when REG_ROOT_TOKEN is set', async () => {
    const server = await serve(testEnv());
    expect(server.logs()).not.toContain('reg_admin_');
    expect(server.logs()).not.toContain('no one can administer');
  }, 60_000);
});
