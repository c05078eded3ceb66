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

async function json(args: string[]): Promise<Record<string, any>> {
  const result = await runReg([...args, '--json'], env);
  expect(result.code, `reg ${args.join(' ')}: ${result.stdout}${result.stderr}`).toBe(0);
  return JSON.parse(result.stdout) as Record<string, any>;
}

const digest = (n: number) => `sha256:${String(n).repeat(64)}`;

/** Sends a CDEvent in binary mode, as a deployment tool's CloudEvents client does, with a deployment's token. */
async function deployed(
  token: string,
  id: string,
  kind: string,
  environment: string,
  n: number,
  minute: number,
) {
  const type = `dev.cdevents.service.${kind}.0.3.0`;
  const timestamp = `2026-04-01T08:${String(minute).padStart(2, '0')}:00Z`;
  const event = {
    context: { specversion: '0.5.1', id, source: '/cd/argo', type, timestamp },
    subject: {
      id: 'checkout',
      content: {
        environment: { id: environment },
        artifactId: `pkg:oci/checkout@${digest(n).replace(':', '%3A')}`,
      },
    },
  };
  const response = await fetch(`${server.url}/api/v1/deployment-events`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      'ce-specversion': '1.0',
      'ce-id': id,
      'ce-source': '/cd/argo',
      'ce-type': type,
      'ce-time': timestamp,
    },
    body: JSON.stringify(event),
  });
  expect(response.status, await response.clone().text()).toBe(201);
}

/** A deployment of `software` and a token it acts with. */
async function deployment(software: string, label: string): Promise<{ id: string; token: string }> {
  const instance = await json(['instances', 'create', '--software', software, '--label', label]);
  const minted = await runReg(['tokens', 'create', '--instance', instance.id, '--label', label], env);
  expect(minted.code, minted.stderr).toBe(0);
  return { id: instance.id as string, token: minted.stdout.trim() };
}

describe('reg instances history and reg software deployments', () => {
  it('print what a deployment ran over time and what runs where, as tables and as JSON', async () => {
    const software = await json(['software', 'create', '--name', 'checkout']);
    for (const [version, n, day] of [
      ['1.0.0', 1, '2026-01-10'],
      ['1.1.0', 2, '2026-02-10'],
    ] as const) {
      await json([
        'releases',
        'create',
        software.id,
        '--version',
        version,
        '--image-digest',
        digest(n),
        '--date-published',
        day,
      ]);
    }
    const eu = await deployment(software.id, 'checkout eu');
    const us = await deployment(software.id, 'checkout us');
    await deployed(eu.token, 'e1', 'deployed', 'production', 1, 1);
    await deployed(eu.token, 'e2', 'upgraded', 'production', 2, 2);
    await deployed(us.token, 'u1', 'deployed', 'production', 1, 3);

    const history = await json(['instances', 'history', eu.id]);
    expect(history.total).toBe(2);
    expect(history.items.map((entry: Record<string, any>) => [entry.type, entry.current.version])).toEqual([
      ['service.upgraded', '1.1.0'],
      ['service.deployed', '1.0.0'],
    ]);
    const table = await runReg(['instances', 'history', eu.id], env);
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).toMatch(/^AT +TYPE +VERSION +ENVIRONMENT/);
    expect(table.stdout).toMatch(
      /^2026-04-01T08:02:00\.000Z +service\.upgraded +1\.0\.0 → 1\.1\.0 +production/m,
    );
    expect(table.stderr).toContain('2 of 2');
    const paged = await runReg(['instances', 'history', eu.id, '--limit', '1'], env);
    expect(paged.stderr).toMatch(/1 of 2; next page: --cursor \S+/);
    const all = await json(['instances', 'history', eu.id, '--limit', '1', '--all']);
    expect(all.items).toHaveLength(2);

    const view = await json(['software', 'deployments', software.id]);
    expect(view.latest_release.version).toBe('1.1.0');
    expect(view.drift).toEqual({ behind_latest: 1, environments_with_differing_versions: ['production'] });
    const rows = await runReg(['software', 'deployments', software.id], env);
    expect(rows.code, rows.stderr).toBe(0);
    expect(rows.stdout).toMatch(/^ENVIRONMENT +LABEL +VERSION/);
    expect(rows.stdout).toMatch(/^production +checkout us +1\.0\.0 .*behind latest, versions differ/m);
    expect(rows.stdout).toMatch(/^production +checkout eu +1\.1\.0 .*versions differ/m);
    expect(rows.stderr).toContain(
      '2 deployments; latest release 1.1.0; 1 behind it; versions differ in production',
    );
  });

  it('exits 7 for a deployment or software the registry does not hold', async () => {
    const missing = '0190aaaa-0000-7000-8000-000000000000';
    const history = await runReg(['instances', 'history', missing], env);
    expect(history.code).toBe(7);
    expect(history.stderr.trim().split('\n')).toHaveLength(1);
    const view = await runReg(['software', 'deployments', missing, '--json'], env);
    expect(view.code).toBe(7);
    expect(JSON.parse(view.stdout).error).toBeDefined();
  });
});
