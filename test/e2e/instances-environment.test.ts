import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT_TOKEN, runReg, startServe, tempDir, testEnv, type ServerProcess } from '../helpers.js';

/*
 * `reg instances create` and `reg instances update` with --environment, against a real `reg serve`: the field is
 * kept, read back, grouped by `reg software deployments`, cleared with --unset, and changed afterwards by a
 * deployment event naming another environment; an edit is not an event, so the history stays empty until one.
 */

let server: ServerProcess;
let env: Record<string, string>;

beforeAll(async () => {
  server = await startServe(testEnv());
  env = { REG_URL: server.url, REG_TOKEN: ROOT_TOKEN, XDG_CONFIG_HOME: tempDir('reg-xdg-') };
});
afterAll(async () => {
  await server?.stop();
});

async function json(args: string[]): Promise<Record<string, any>> {
  const result = await runReg([...args, '--json'], env);
  expect(result.code, `reg ${args.join(' ')}: ${result.stdout}${result.stderr}`).toBe(0);
  return JSON.parse(result.stdout) as Record<string, any>;
}

/** The environments `reg software deployments` groups the software's running deployments into, by label. */
async function environments(software: string): Promise<Record<string, string[]>> {
  const view = await json(['software', 'deployments', software]);
  const labels = new Map<string, string>(
    (view.items as Record<string, any>[]).map((item) => [item.iri as string, item.label as string]),
  );
  return Object.fromEntries(
    (view.environments as Record<string, any>[]).map((group) => [
      group.environment,
      (group.deployments as string[]).map((iri) => labels.get(iri) ?? iri).sort(),
    ]),
  );
}

describe('reg instances create and update --environment', () => {
  it('sets, changes and clears the environment a deployment runs in, which what-runs-where groups by', async () => {
    const software = await json(['software', 'create', '--name', 'ledger']);
    const eu = await json([
      'instances',
      'create',
      '--software',
      software.id,
      '--label',
      'ledger eu',
      '--environment',
      'prod',
    ]);
    expect(eu).toMatchObject({ label: 'ledger eu', software: software.iri, environment: 'prod' });
    const printed = await runReg(
      ['instances', 'create', '--software', software.iri, '--label', 'ledger us', '--environment', 'prod'],
      env,
    );
    expect(printed.code, printed.stderr).toBe(0);
    expect(printed.stdout).toMatch(/^created instance \S+ \(http:\/\/registry\.test\/instance\/\S+\)\n$/);
    const us = (await json(['instances', 'list', '--software', software.id])).items.find(
      (item: Record<string, any>) => item.label === 'ledger us',
    ) as Record<string, any>;
    expect(us.environment).toBe('prod');
    expect(await environments(software.id)).toEqual({ prod: ['ledger eu', 'ledger us'] });

    const moved = await json(['instances', 'update', us.id, '--environment', 'staging']);
    expect(moved).toMatchObject({ id: us.id, environment: 'staging', label: 'ledger us' });
    expect((await json(['instances', 'get', us.id])).environment).toBe('staging');
    expect(await environments(software.id)).toEqual({ prod: ['ledger eu'], staging: ['ledger us'] });
    // An edit is not a deployment event: the history records none.
    expect((await json(['instances', 'history', us.id])).total).toBe(0);

    const cleared = await json(['instances', 'update', us.id, '--unset', 'environment']);
    expect(cleared).not.toHaveProperty('environment');
    expect(await environments(software.id)).toEqual({ prod: ['ledger eu'] });

    // A deployment event that names an environment moves the deployment there, and the history says so.
    const token = await runReg(['tokens', 'create', '--instance', eu.id, '--label', 'deployer'], env);
    expect(token.code, token.stderr).toBe(0);
    const event = {
      context: {
        specversion: '0.4.1',
        id: 'ledger-1',
        source: '/cd/deployer',
        type: 'dev.cdevents.environment.modified.0.1.1',
        timestamp: '2026-05-01T10:00:00Z',
      },
      subject: { id: 'canary', content: {} },
    };
    const response = await fetch(`${server.url}/api/v1/deployment-events`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token.stdout.trim()}`, 'content-type': 'application/json' },
      body: JSON.stringify(event),
    });
    expect(response.status, await response.clone().text()).toBe(201);
    expect((await json(['instances', 'get', eu.id])).environment).toBe('canary');
    const history = await json(['instances', 'history', eu.id]);
    expect(history.items[0]).toMatchObject({
      type: 'environment.modified',
      previous: { environment: 'prod' },
      current: { environment: 'canary' },
    });
  });

  it('refuses an edit of a deployment the registry does not hold with one line and exit 7', async () => {
    const missing = await runReg(
      ['instances', 'update', '0190aaaa-0000-7000-8000-000000000000', '--environment', 'prod'],
      env,
    );
    expect(missing.code).toBe(7);
    expect(missing.stderr.trim().split('\n')).toHaveLength(1);
    const bare = await runReg(
      ['instances', 'update', '0190aaaa-0000-7000-8000-000000000000', '--environment'],
      env,
    );
    expect(bare.code).toBe(2);
  });
});
