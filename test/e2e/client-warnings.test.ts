import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ROOT_TOKEN, runReg, startServe, tempDir, testEnv, type ServerProcess } from '../helpers.js';

let server: ServerProcess;
let env: Record<string, string>;

beforeAll(async () => {
  server = await startServe(testEnv());
  env = { REG_URL: server.url, REG_TOKEN: ROOT_TOKEN, XDG_CONFIG_HOME: tempDir('reg-xdg-') };
});
afterAll(async () => {
  await server.stop();
});

it('prints the members the registry ignored as warnings on standard error, and keeps them under --json', async () => {
  const file = path.join(tempDir(), 'software.json');
  fs.writeFileSync(file, JSON.stringify({ name: 'warned', kinds: ['cli'], colour: 'green' }));
  const created = await runReg(['software', 'create', '--file', file], env);
  expect(created.code, created.stderr).toBe(0);
  expect(created.stderr).toContain('warning: colour is not a field of this record and was ignored\n');
  expect(created.stdout).toMatch(/^created software [0-9a-f-]{36} /m);

  const json = await runReg(['software', 'create', '--file', file, '--json'], env);
  expect(json.code, json.stderr).toBe(0);
  expect((JSON.parse(json.stdout) as { warnings: string[] }).warnings).toEqual([
    'colour is not a field of this record and was ignored',
  ]);
});
