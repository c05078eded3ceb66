import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT_TOKEN, runReg, startServe, tempDir, testEnv, type ServerProcess } from '../helpers.js';

let server: ServerProcess;
/** The client's environment: the registry's URL and the root token, and no config file of the developer's. */
let env: Record<string, string>;

beforeAll(async () => {
  server = await startServe(testEnv());
  env = { REG_URL: server.url, REG_TOKEN: ROOT_TOKEN, XDG_CONFIG_HOME: tempDir('reg-xdg-') };
});
afterAll(async () => {
  await server.stop();
});

const as = (token: string | undefined): Record<string, string> => {
  const { REG_TOKEN: _root, ...rest } = env;
  return token === undefined ? rest : { ...rest, REG_TOKEN: token };
};

async function json(args: string[], environment = env): Promise<Record<string, any>> {
  const result = await runReg([...args, '--json'], environment);
  expect(result.code, `reg ${args.join(' ')}: ${result.stdout}${result.stderr}`).toBe(0);
  return JSON.parse(result.stdout) as Record<string, any>;
}

async function deployment(): Promise<{ software: Record<string, any>; instance: Record<string, any> }> {
  const software = await json(['software', 'create', '--name', 'token-cli']);
  const instance = await json(['instances', 'create', '--software', software.id, '--label', 'token node']);
  return { software, instance };
}

describe('reg tokens and reg whoami', () => {
  it('issues a deployment token once, authenticates with it, lists it and revokes it', async () => {
    const { instance } = await deployment();
    const created = await runReg(
      ['tokens', 'create', '--instance', instance.id, '--label', 'ci runner', '--expires-in', '90d'],
      env,
    );
    expect(created.code, created.stderr).toBe(0);
    // The token alone on standard output, so TOKEN=$(reg tokens create ...) keeps it.
    expect(created.stdout).toMatch(/^reg_[0-9a-f]{12}_[0-9a-f]{64}\n$/);
    expect(created.stderr).toContain('shown only this once');
    const token = created.stdout.trim();

    const me = await json(['whoami'], as(token));
    expect(me).toMatchObject({
      authenticated: true,
      credential: 'local-token',
      subject: instance.iri,
      instance: instance.iri,
      display_name: 'ci runner',
      scopes: ['advertise:produce', 'advertise:consume'],
    });
    const plainMe = await runReg(['whoami'], as(token));
    expect(plainMe.code).toBe(0);
    expect(plainMe.stdout).toMatch(/^credential +local-token$/m);

    const list = await json(['tokens', 'list', '--instance', instance.id]);
    expect(list.total).toBe(1);
    const [record] = list.items;
    expect(record).toMatchObject({ label: 'ci runner', prefix: token.slice(4, 16), revoked_at: null });
    expect(record.last_used_at).toEqual(expect.any(String));
    const table = await runReg(['tokens', 'list', '--instance', instance.iri], env);
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/^LABEL +PREFIX +STATE +SCOPES/);
    expect(table.stdout).toMatch(new RegExp(`^ci runner  ${record.prefix}  active  .*  ${record.id}$`, 'm'));
    expect(`${table.stdout}${JSON.stringify(list)}`).not.toContain(token.slice(17));

    // The deployment itself may revoke its own token; then the token is refused (exit 9).
    expect(await json(['tokens', 'revoke', record.id, '--instance', instance.id], as(token))).toEqual({
      id: record.id,
      revoked: true,
    });
    const refused = await runReg(['whoami', '--json'], as(token));
    expect(refused.code).toBe(9);
    expect(JSON.parse(refused.stdout).error.message).toContain('token is unknown, revoked or expired');
    const after = await runReg(['tokens', 'list', '--instance', instance.id], env);
    expect(after.stdout).toMatch(new RegExp(`^ci runner  ${record.prefix}  revoked  .*  ${record.id}$`, 'm'));
  });

  it('issues a software token with its usage under --json, and answers anonymous callers', async () => {
    const { software } = await deployment();
    const minted = await json([
      'tokens',
      'create',
      '--software',
      software.id,
      '--scope',
      'register:instance',
      '--scope',
      'advertise:produce',
    ]);
    expect(minted).toMatchObject({
      shown_once: true,
      record: { software_iri: software.iri, scopes: ['register:instance', 'advertise:produce'] },
    });
    expect(minted.usage).toContain('/api/v1/instances/self');
    expect((await json(['whoami'], as(minted.token))).may_register_deployments_of).toBe(software.iri);
    expect((await json(['tokens', 'list', '--software', software.id])).items[0].id).toBe(minted.record.id);
    expect(await json(['whoami'], as(undefined))).toMatchObject({ authenticated: false, credential: 'none' });
  });

  it('exits with the documented codes for refusals', async () => {
    const { instance, software } = await deployment();
    const both = await runReg(['tokens', 'list', '--instance', instance.id, '--software', software.id], env);
    expect(both.code).toBe(2);
    const neither = await runReg(['tokens', 'list'], env);
    expect(neither.code).toBe(2);
    const badScope = await runReg(
      ['tokens', 'create', '--instance', instance.id, '--scope', 'read:all'],
      env,
    );
    expect(badScope.code).toBe(2);
    const badExpiry = await runReg(
      ['tokens', 'create', '--instance', instance.id, '--expires-in', 'soon', '--json'],
      env,
    );
    expect(badExpiry.code).toBe(8);
    expect(JSON.parse(badExpiry.stdout).error.message).toContain('expires_in');
    const missing = await runReg(
      ['tokens', 'revoke', '0190aaaa-0000-7000-8000-000000000000', '--instance', instance.id],
      env,
    );
    expect(missing.code).toBe(7);
    const anonymous = await runReg(['tokens', 'create', '--instance', instance.id], as(undefined));
    expect(anonymous.code).toBe(9);
  });
});
