import { afterAll, beforeAll, expect, it } from 'vitest';
import { ROOT_TOKEN, runReg, startServe, tempDir, testEnv, type ServerProcess } from '../helpers.js';

const TYPE = 'http://edamontology.org/data_0006';
let server: ServerProcess;
let env: Record<string, string>;
const deployments: Record<string, string> = {};

async function api(method: string, route: string, body: unknown, bearer = ROOT_TOKEN) {
  const response = await fetch(`${server.url}${route}`, {
    method,
    headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return (await response.json()) as Record<string, any>;
}

beforeAll(async () => {
  server = await startServe(testEnv());
  const software = await api('POST', '/api/v1/software', { name: 'replicated' });
  const minted = await api('POST', `/api/v1/software/${software.id}/tokens`, { label: 'every replica' });
  for (const key of ['node-a', 'node-b']) {
    const announced = await api(
      'PUT',
      '/api/v1/instances/self',
      { instance_key: key, label: key },
      minted.token,
    );
    deployments[key] = announced.iri;
  }
  env = { REG_URL: server.url, REG_TOKEN: minted.token, XDG_CONFIG_HOME: tempDir('reg-xdg-') };
});
afterAll(async () => {
  await server.stop();
});

/** The deployment that performed the run an advertisement answered with. */
async function performer(stdout: string): Promise<unknown> {
  const id = String((JSON.parse(stdout) as { run: string }).run)
    .split('/')
    .pop();
  return ((await (await fetch(`${server.url}/api/v1/runs/${id}`)).json()) as { instance?: unknown }).instance;
}

const advertise = (extra: string[], environment = env) =>
  runReg(
    [
      'advertise',
      'produced',
      '--run-key',
      `shared-${extra.join('-')}`,
      '--title',
      'report',
      '--type',
      TYPE,
      ...extra,
    ],
    environment,
  );

it('advertises as the replica named by --instance-key or REG_INSTANCE_KEY when a software token is shared', async () => {
  const flagged = await advertise(['--instance-key', 'node-b', '--json']);
  expect(flagged.code, flagged.stderr).toBe(0);
  expect(await performer(flagged.stdout)).toBe(deployments['node-b']);

  const fromEnv = await advertise(['--json'], { ...env, REG_INSTANCE_KEY: 'node-a' });
  expect(fromEnv.code, fromEnv.stderr).toBe(0);
  expect(await performer(fromEnv.stdout)).toBe(deployments['node-a']);
});

it('refuses to guess between replicas, naming them and how to choose', async () => {
  const refused = await advertise([]);
  expect(refused.code).not.toBe(0);
  expect(refused.stderr).toContain('node-a');
  expect(refused.stderr).toContain('node-b');
  expect(refused.stderr.toLowerCase()).toContain('instance-key');
});
