/**
 * `reg audit` against a running registry: the log as a table and as the API's page, the action filter and
 * paging, refusals of non-administrators, and --follow, which prints new entries as they are written and ends
 * with exit 0 on SIGINT.
 */
import { spawn } from 'node:child_process';
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

let server: ServerProcess;
let env: Record<string, string>;

beforeAll(async () => {
  server = await startServe(testEnv());
  env = { REG_URL: server.url, REG_TOKEN: ROOT_TOKEN, XDG_CONFIG_HOME: tempDir('reg-xdg-') };
});
afterAll(async () => {
  await server.stop();
});

async function json(args: string[], environment = env): Promise<Record<string, any>> {
  const result = await runReg([...args, '--json'], environment);
  expect(result.code, `reg ${args.join(' ')}: ${result.stdout}${result.stderr}`).toBe(0);
  return JSON.parse(result.stdout) as Record<string, any>;
}

/** A `reg audit --follow` child whose standard output is read as it comes. */
function follow(args: string[]) {
  const child = spawn(process.execPath, [BIN, 'audit', '--follow', ...args], {
    env: { PATH: process.env.PATH ?? '', ...env },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return { child, exited, stdout: () => stdout, stderr: () => stderr };
}

describe('reg audit', () => {
  it('prints the log newest first as a table, filters by action and pages with --cursor', async () => {
    const first = await json(['software', 'create', '--name', 'audited one']);
    const second = await json(['software', 'create', '--name', 'audited two']);
    const page = await json(['audit', '--action', 'software.create', '--limit', '1']);
    expect(page.items).toEqual([
      expect.objectContaining({ action: 'software.create', actor_kind: 'root-token', target: second.iri }),
    ]);
    expect(page.next_cursor).toEqual(expect.any(Number));
    const older = await json(['audit', '--action', 'software.create', '--cursor', String(page.next_cursor)]);
    expect(older.items.map((item: any) => item.target)).toContain(first.iri);
    expect(older.items.every((item: any) => item.action === 'software.create')).toBe(true);

    const table = await runReg(['audit', '--action', 'software.create', '--limit', '2'], env);
    expect(table.code, table.stderr).toBe(0);
    const lines = table.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^AT +ACTION +ACTOR +KIND +TARGET/);
    expect(lines).toHaveLength(3);
    expect(lines[1]).toContain(second.iri);
    expect(lines[2]).toContain(first.iri);
    expect(lines[1]).toMatch(/^\d{4}-\d\d-\d\dT\S+ +software\.create +urn:reg:root +root-token/);
    expect(table.stderr).toBe('2 entries\n');
    const paged = await runReg(['audit', '--action', 'software.create', '--limit', '1'], env);
    expect(paged.stderr).toBe(`1 entry; older: --cursor ${page.next_cursor}\n`);

    const every = await json(['audit', '--all', '--action', 'software.create', '--limit', '1']);
    expect(every.items.length).toBeGreaterThanOrEqual(2);
    expect(every.next_cursor).toBeUndefined();
  });

  it('refuses callers that are not administrators, and bad flags', async () => {
    const software = await json(['software', 'create', '--name', 'not an admin']);
    const instance = await json(['instances', 'create', '--software', software.id, '--label', 'node']);
    const minted = await json(['tokens', 'create', '--instance', instance.id]);
    const refused = await runReg(['audit'], { ...env, REG_TOKEN: minted.token });
    expect(refused.code).toBe(9);
    expect(refused.stderr.trim().split('\n')[0]).toMatch(/^reg: 403 /);
    const { REG_TOKEN: _root, ...anonymous } = env;
    expect((await runReg(['audit', '--json'], anonymous)).code).toBe(9);
    expect((await runReg(['audit', '--limit', '0'], env)).code).toBe(2);
    expect((await runReg(['audit', '--interval', '5'], env)).code).toBe(2);
    expect((await runReg(['audit', '--all', '--follow'], env)).code).toBe(2);
  });

  it('follows the log under --json, one object per line, and ends with exit 0 on SIGINT', async () => {
    const before = await json(['software', 'create', '--name', 'followed before']);
    const watcher = follow(['--json', '--interval', '1', '--action', 'software.create', '--limit', '1']);
    try {
      await waitFor(() => watcher.stdout().includes(before.iri));
      const later = await json(['software', 'create', '--name', 'followed later']);
      const last = await json(['software', 'create', '--name', 'followed last']);
      await waitFor(() => watcher.stdout().includes(last.iri));
      const entries = watcher
        .stdout()
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line) as Record<string, any>);
      // Each entry once, oldest first, nothing but the new ones after the first.
      expect(entries.map((entry) => entry.target)).toEqual([before.iri, later.iri, last.iri]);
      expect(entries.every((entry) => entry.action === 'software.create')).toBe(true);
    } finally {
      watcher.child.kill('SIGINT');
    }
    expect(await watcher.exited).toBe(0);
    expect(watcher.stderr()).toBe('');
  });

  it('follows the log as lines, printing entries written by other actions too', async () => {
    const watcher = follow(['--interval', '1', '--limit', '1']);
    try {
      await waitFor(() => watcher.stdout().trim() !== '');
      const software = await json(['software', 'create', '--name', 'followed as lines']);
      const instance = await json(['instances', 'create', '--software', software.id, '--label', 'watched']);
      await waitFor(() => watcher.stdout().includes(`instance.create`));
      const lines = watcher.stdout().trimEnd().split('\n');
      const created = lines.findIndex((line) =>
        line.includes(`software.create  urn:reg:root  root-token  ${software.iri}`),
      );
      expect(created).toBeGreaterThan(0);
      expect(lines.slice(created + 1).some((line) => line.includes(instance.iri))).toBe(true);
    } finally {
      watcher.child.kill('SIGINT');
    }
    expect(await watcher.exited).toBe(0);
  });
});
