import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT_TOKEN, runReg, startServe, tempDir, testEnv, type ServerProcess } from '../helpers.js';
import { startFakeForge, type FakeForge } from '../support/fake-forge.js';

/*
 * `reg software sync` against a `reg serve` child process whose forge APIs point at the loopback fake forge.
 */

const TOKEN = 'forge-secret-e2e-0123456789';
let forge: FakeForge;
let server: ServerProcess;
let env: Record<string, string>;

beforeAll(async () => {
  forge = await startFakeForge();
  forge.token = TOKEN;
  server = await startServe(
    testEnv({
      REG_FORGE_GITHUB_API: forge.githubApi,
      REG_FORGE_GITLAB_API: forge.gitlabApi,
      REG_FORGE_TOKEN: TOKEN,
    }),
  );
  env = { REG_URL: server.url, REG_TOKEN: ROOT_TOKEN, XDG_CONFIG_HOME: tempDir('reg-xdg-') };
});
afterAll(async () => {
  await server?.stop();
  await forge?.stop();
});

async function create(record: Record<string, unknown>): Promise<string> {
  const result = await runReg(['software', 'create', '--file', '-', '--json'], env, JSON.stringify(record));
  expect(result.code, result.stdout + result.stderr).toBe(0);
  return (JSON.parse(result.stdout) as { id: string }).id;
}

describe('reg software sync', () => {
  it('syncs a record now, printing what changed, or the API record under --json', async () => {
    forge.github.set('acme/cli', {
      repo: { description: 'Synced from the command line', topics: ['sparql'] },
      private: true,
      readme: '# cli\n',
    });
    const id = await create({
      name: 'cli-sync',
      sync: { source: 'github', repo: 'acme/cli', fields: ['tagline', 'keywords', 'readme'] },
    });

    const text = await runReg(['software', 'sync', id], env);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout.trim()).toBe(
      `synced software ${id}: changed keywords, readme, readme_base_url, tagline`,
    );
    // The wait for the registry ends with a line on stderr saying how long it took.
    expect(text.stderr).toMatch(/^sync: the registry answered in [\d.]+ s$/m);

    forge.github.get('acme/cli')!.repo.description = 'Changed upstream';
    const json = await runReg(['software', 'sync', id, '--json'], env);
    expect(json.code, json.stderr).toBe(0);
    expect(json.stderr).toBe('');
    const record = JSON.parse(json.stdout) as Record<string, any>;
    expect(record).toMatchObject({
      id,
      tagline: 'Changed upstream',
      keywords: ['SPARQL query'],
      readme: '# cli\n',
      sync: { source: 'github', repo: 'acme/cli', last_status: 'ok', last_changed: ['tagline'] },
    });
    expect(json.stdout + json.stderr + text.stdout + text.stderr).not.toContain(TOKEN);
    expect(server.logs()).not.toContain(TOKEN);
  });

  it('exits 1 with the recorded error when the run fails, and 8 when the record is not connected', async () => {
    const id = await create({
      name: 'cli-missing',
      sync: { source: 'gitlab', repo: 'lab/sub/missing', fields: ['tagline'] },
    });
    const failed = await runReg(['software', 'sync', id], env);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toMatch(/sync of software .* failed: GitLab has no project lab\/sub\/missing/);

    const json = await runReg(['software', 'sync', id, '--json'], env);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toMatchObject({ id, sync: { last_status: 'error' } });

    const plain = await create({ name: 'cli-plain' });
    const refused = await runReg(['software', 'sync', plain, '--json'], env);
    expect(refused.code).toBe(8);
    expect(JSON.parse(refused.stdout)).toMatchObject({
      error: { status: 400, message: expect.stringMatching(/not connected to a repository/) },
    });

    const anonymous = await runReg(['software', 'sync', id], { ...env, REG_TOKEN: '' });
    expect(anonymous.code).toBe(9);
  });
});
