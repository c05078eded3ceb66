import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { runReg, tempDir, testEnv } from '../helpers.js';

describe('start-up refusals', () => {
  const cases: [string, Record<string, string>, RegExp][] = [
    ['missing base IRI', { REG_BASE_IRI: '' }, /^reg: REG_BASE_IRI is required/],
    ['non-http base IRI', { REG_BASE_IRI: 'urn:x:registry' }, /^reg: REG_BASE_IRI must be an http\(s\) URL/],
    ['placeholder root token', { REG_ROOT_TOKEN: 'changeme' }, /^reg: REG_ROOT_TOKEN is a placeholder/],
    ['short root token', { REG_ROOT_TOKEN: 'short-token' }, /^reg: REG_ROOT_TOKEN is 11 characters long/],
    [
      'two credential forms',
      {
        REG_SPARQL_ENDPOINT: 'http://127.0.0.1:1/sparql',
        REG_SPARQL_BEARER_TOKEN: 'x',
        REG_SPARQL_USERNAME: 'u',
        REG_SPARQL_PASSWORD: 'p',
      },
      /use one credential form only/,
    ],
    [
      'username without password',
      { REG_SPARQL_ENDPOINT: 'http://127.0.0.1:1/sparql', REG_SPARQL_USERNAME: 'u' },
      /must be set together/,
    ],
  ];
  for (const [name, env, message] of cases) {
    it(`serve and config refuse a ${name} with one sentence and exit 3`, async () => {
      for (const command of ['serve', 'config']) {
        const result = await runReg([command], testEnv(env));
        expect(result.code, `${command}: ${result.stderr}`).toBe(3);
        expect(result.stderr).toMatch(message);
        expect(result.stderr.trim().split('\n')).toHaveLength(1);
      }
    });
  }
});

describe('an unusable data directory', () => {
  it('is refused at start by serve, seed and dump with one line naming REG_DATA_DIR, the cause and the fix', async () => {
    const blocker = path.join(tempDir(), 'a-file');
    fs.writeFileSync(blocker, 'not a directory\n');
    const dataDir = path.join(blocker, 'data');
    for (const command of [['serve'], ['seed'], ['dump']]) {
      const result = await runReg(command, testEnv({ REG_DATA_DIR: dataDir }));
      expect(result.code, `${command[0]}: ${result.stderr}`).toBe(3);
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
      expect(result.stderr).toMatch(
        new RegExp(`^reg: REG_DATA_DIR ${dataDir} cannot be used \\(a file is in the way .*set REG_DATA_DIR`),
      );
    }
  });
});

describe('one set of defaults', () => {
  it('serve, seed, dump and config agree with no settings but a data directory: localhost:8080, this machine only', async () => {
    const env = { REG_DATA_DIR: testEnv().REG_DATA_DIR! };
    const config = await runReg(['config', '--json'], env);
    expect(config.code, config.stderr).toBe(0);
    const view = JSON.parse(config.stdout) as { settings: { name: string; source: string }[] };
    expect(view).toMatchObject({ baseIri: 'http://localhost:8080', listen: '127.0.0.1:8080' });
    const source = (name: string) => view.settings.find((setting) => setting.name === name);
    expect(source('REG_BASE_IRI')).toMatchObject({ value: 'http://localhost:8080', source: 'derived' });
    expect(source('REG_LISTEN')).toMatchObject({ value: '127.0.0.1:8080', source: 'default' });
    expect(source('REG_DATA_DIR')).toMatchObject({ value: env.REG_DATA_DIR, source: 'environment' });
    expect(source('REG_ROOT_TOKEN')).toMatchObject({ source: 'unset' });
    const seeded = await runReg(['seed', '--with-runs=false'], env);
    expect(seeded.code, seeded.stderr).toBe(0);
    const dump = await runReg(['dump', '--graph', 'urn:reg:local'], env);
    expect(dump.code, dump.stderr).toBe(0);
    expect(dump.stdout).toContain('<http://localhost:8080/software/');
  });
});

describe('reg config', () => {
  it('prints the effective configuration with secrets redacted', async () => {
    const env = testEnv({
      REG_BASE_IRI: 'https://registry.example.org/',
      REG_OPERATOR: 'Lab',
      REG_FORGE_TOKEN: 'forge-secret-abc',
    });
    const json = await runReg(['config', '--json'], env);
    expect(json.code).toBe(0);
    const view = JSON.parse(json.stdout) as Record<string, unknown>;
    expect(view).toMatchObject({
      baseIri: 'https://registry.example.org',
      dataDir: env.REG_DATA_DIR,
      operator: 'Lab',
      root_token_set: true,
      forge_token_set: true,
      publicRead: true,
    });
    expect(json.stdout).not.toContain(env.REG_ROOT_TOKEN);
    expect(json.stdout).not.toContain('forge-secret-abc');
    const text = await runReg(['config'], env);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^REG_BASE_IRI\s+https:\/\/registry\.example\.org\/\s+environment$/m);
    expect(text.stdout).toMatch(/^REG_ROOT_TOKEN\s+\(set\)\s+environment$/m);
    expect(text.stdout).toMatch(/^REG_PUBLIC_READ\s+true\s+default$/m);
    expect(text.stdout).toMatch(/^REG_LOG_LEVEL\s+warn\s+environment$/m);
    expect(text.stdout).not.toContain(env.REG_ROOT_TOKEN);
  });

  it('warns about unknown REG_ variables', async () => {
    const result = await runReg(['config'], testEnv({ REG_PUBLC_READ: 'false' }));
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/REG_PUBLC_READ is not a known setting/);
  });

  it('answers errors as JSON under --json', async () => {
    const result = await runReg(['config', '--json'], testEnv({ REG_BASE_IRI: '' }));
    expect(result.code).toBe(3);
    expect(JSON.parse(result.stdout)).toMatchObject({ error: { code: 'config', exit_code: 3 } });
  });
});

describe('reg healthcheck', () => {
  it('refuses a malformed REG_LISTEN naming the variable', async () => {
    const result = await runReg(['healthcheck'], { REG_LISTEN: 'localhost:http' });
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(/^reg: REG_LISTEN must be host:port/);
  });
});
