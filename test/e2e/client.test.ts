import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ROOT_TOKEN,
  runReg,
  runRegIn,
  startServe,
  tempDir,
  testEnv,
  type ServerProcess,
} from '../helpers.js';

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

async function json(args: string[], environment = env, input?: string): Promise<Record<string, any>> {
  const result = await runReg([...args, '--json'], environment, input);
  expect(result.code, `reg ${args.join(' ')}: ${result.stdout}${result.stderr}`).toBe(0);
  return JSON.parse(result.stdout) as Record<string, any>;
}

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

describe('reg software', () => {
  it('creates, reads, lists, updates and withdraws a record, printing the API objects under --json', async () => {
    const created = await json([
      'software',
      'create',
      '--name',
      'cli-demo',
      '--kind',
      'library',
      '--kind',
      'cli',
      '--license',
      'Apache-2.0',
      '--tagline',
      'Made by the CLI',
    ]);
    expect(created).toMatchObject({
      name: 'cli-demo',
      kinds: expect.arrayContaining(['library', 'cli']),
      license: 'https://spdx.org/licenses/Apache-2.0',
      tagline: 'Made by the CLI',
    });
    expect(created.iri).toBe(`http://registry.test/software/${created.id}`);

    expect(await json(['software', 'get', created.id])).toEqual(created);
    expect(await json(['software', 'get', created.iri])).toEqual(created);

    const list = await json(['software', 'list', '--kind', 'cli']);
    expect(list.items.map((item: { id: string }) => item.id)).toContain(created.id);
    expect(list.total).toBeGreaterThanOrEqual(1);

    const updated = await json(['software', 'update', created.id, '--unset', 'tagline', '--keyword', 'demo']);
    expect(updated.tagline).toBeUndefined();
    expect(updated.keywords).toEqual(['demo']);
    expect(updated.name).toBe('cli-demo');

    const stdin = await json(
      ['software', 'update', created.id, '--file', '-'],
      env,
      '{"description":"from stdin"}',
    );
    expect(stdin.description).toBe('from stdin');

    expect(await json(['software', 'delete', created.id])).toEqual({ id: created.id, withdrawn: true });
    expect((await json(['software', 'get', created.id])).tombstoned).toBe(true);
    const after = await json(['software', 'list', '--kind', 'cli', '--all']);
    expect(after.items.map((item: { id: string }) => item.id)).not.toContain(created.id);
  });

  it('prints readable tables and records fitted to the terminal width', async () => {
    const file = path.join(tempDir(), 'software.json');
    fs.writeFileSync(
      file,
      JSON.stringify({ name: 'table-demo', kinds: ['service'], tagline: 'x'.repeat(200) }),
    );
    const created = await runReg(['software', 'create', '--file', file], env);
    expect(created.code, created.stderr).toBe(0);
    expect(created.stdout).toMatch(
      /^created software [0-9a-f-]{36} \(http:\/\/registry\.test\/software\/[0-9a-f-]{36}\)$/m,
    );

    const table = await runReg(['software', 'list', '--kind', 'service'], { ...env, COLUMNS: '90' });
    expect(table.code).toBe(0);
    const lines = table.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^NAME\s+KINDS\s+LICENSE\s+TAGLINE\s+ID$/);
    // The tagline gives up space; the id, last, is cut to its shortest unique prefix instead.
    expect(lines.find((line) => line.includes('table-demo'))).toMatch(/x… +[0-9a-f]{8}[0-9a-f-]*$/);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(90);
    expect(table.stderr).toMatch(/^\d+ of \d+$/m);

    const id = /software ([0-9a-f-]{36})/.exec(created.stdout)![1]!;
    const record = await runReg(['software', 'get', id], env);
    expect(record.stdout).toMatch(/^name\s+table-demo$/m);
    expect(record.stdout).toMatch(/^origin\.kind\s+local$/m);
  });

  it('pages with --limit and --cursor, and follows every page with --all', async () => {
    for (const name of ['page-a', 'page-b', 'page-c']) {
      await json(['software', 'create', '--name', name, '--kind', 'workflow']);
    }
    const first = await json(['software', 'list', '--kind', 'workflow', '--limit', '2']);
    expect(first.items).toHaveLength(2);
    expect(first.total).toBe(3);
    expect(first.next_cursor).toBe(first.items[1].iri);
    const second = await json([
      'software',
      'list',
      '--kind',
      'workflow',
      '--limit',
      '2',
      '--cursor',
      first.next_cursor,
    ]);
    expect(second.items).toHaveLength(1);
    expect(second.next_cursor).toBeUndefined();
    const all = await json(['software', 'list', '--kind', 'workflow', '--limit', '2', '--all']);
    expect(all.items.map((item: { name: string }) => item.name)).toEqual(['page-c', 'page-b', 'page-a']);
    expect(all.next_cursor).toBeUndefined();

    const text = await runReg(['software', 'list', '--kind', 'workflow', '--limit', '2'], env);
    expect(text.stderr).toContain(`2 of 3; next page: --cursor ${first.next_cursor}`);
  });
});

describe('API errors', () => {
  it('prints a refusal as one line plus one indented line per field, and exits 8', async () => {
    const args = ['software', 'create', '--homepage', 'not a url', '--license', 'https://example.org/mine'];
    const result = await runReg(args, env);
    expect(result.code).toBe(8);
    const [headline, ...fields] = result.stderr.trimEnd().split('\n');
    expect(headline).toBe('reg: 422 Write rejected by SHACL validation: 3 fields were refused');
    expect(fields).toHaveLength(3);
    for (const line of fields) expect(line).toMatch(/^ {2}\S/);
    expect(fields.join('\n')).toMatch(/^ {2}name\b/m);
    expect(fields.join('\n')).toMatch(/^ {2}homepage\b/m);
    expect(fields.join('\n')).toMatch(/^ {2}license\b/m);

    const asJson = await runReg([...args, '--json'], env);
    expect(asJson.code).toBe(8);
    const { error } = JSON.parse(asJson.stdout) as { error: Record<string, any> };
    expect(error).toMatchObject({ code: 'shacl-validation-failed', status: 422, exit_code: 8 });
    expect(error.errors.map((e: { field: string }) => e.field).sort()).toEqual([
      'homepage',
      'license',
      'name',
    ]);
    expect(error.problem.type).toBe('https://w3id.org/reg/problem/shacl-validation-failed');
  });

  it('exits 7 for an unknown record and 9 without a usable credential', async () => {
    const missing = await runReg(['software', 'get', '0190aaaa-0000-7000-8000-000000000000'], env);
    expect(missing.code).toBe(7);
    expect(missing.stderr).toBe(
      'reg: 404 Not found: no software http://registry.test/software/0190aaaa-0000-7000-8000-000000000000\n',
    );
    // A word that is not an id is a name: none is the same exit, said as such.
    const unnamed = await runReg(['software', 'get', 'no-such-record'], env);
    expect(unnamed.code).toBe(7);
    expect(unnamed.stderr.split('\n')[0]).toBe('reg: no software is named "no-such-record"');

    const anonymous = await runReg(['software', 'create', '--name', 'x'], { ...env, REG_TOKEN: '' });
    expect(anonymous.code).toBe(9);
    expect(anonymous.stderr).toMatch(/^reg: 401 Authentication required: .*credential/);
    const wrong = await runReg(['software', 'create', '--name', 'x', '--json'], {
      ...env,
      REG_TOKEN: 'reg_000000000000_wrong',
    });
    expect(wrong.code).toBe(9);
    expect(JSON.parse(wrong.stdout)).toMatchObject({ error: { status: 401, exit_code: 9 } });
  });

  it('names the URL when the registry cannot be reached (exit 10), and when it does not answer in time', async () => {
    const port = await closedPort();
    const refused = await runReg(['software', 'list', '--url', `http://127.0.0.1:${port}`], env);
    expect(refused.code).toBe(10);
    expect(refused.stderr.split('\n')[0]).toBe(
      `reg: cannot reach http://127.0.0.1:${port} (from --url): connection refused`,
    );
    const asJson = await runReg(['software', 'list', '--json'], {
      ...env,
      REG_URL: `http://127.0.0.1:${port}`,
    });
    expect(asJson.code).toBe(10);
    expect(JSON.parse(asJson.stdout)).toMatchObject({ error: { code: 'unreachable', exit_code: 10 } });
    expect(JSON.parse(asJson.stdout).error.message).toContain('(from REG_URL)');

    const silent = http.createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const silentUrl = `http://127.0.0.1:${(silent.address() as net.AddressInfo).port}`;
    try {
      const slow = await runReg(['software', 'list', '--url', silentUrl, '--timeout', '1'], env);
      expect(slow.code).toBe(10);
      expect(slow.stderr.split('\n')[0]).toBe(`reg: ${silentUrl} (from --url) did not answer within 1 s`);
    } finally {
      silent.closeAllConnections();
      silent.close();
    }
  });

  it('refuses field flags the API would refuse before sending, as usage errors', async () => {
    const kind = await runReg(['software', 'create', '--kind', 'spaceship'], env);
    expect(kind.code).toBe(2);
    const nothing = await runReg(['software', 'update', 'some-id'], env);
    expect(nothing.code).toBe(2);
    expect(nothing.stderr).toMatch(/^reg: nothing to send/);
    const badFile = await runReg(['software', 'create', '--file', '-'], env, '[1, 2]');
    expect(badFile.code).toBe(5);
    expect(badFile.stderr).toBe('reg: standard input must hold one JSON object\n');
  });
});

describe('connection profiles and tokens', () => {
  it('reads the profile from a config file in the working directory; REG_* and flags override it', async () => {
    const dir = tempDir('reg-project-');
    fs.writeFileSync(path.join(dir, 'token.txt'), `${ROOT_TOKEN}\n`);
    fs.writeFileSync(
      path.join(dir, '.regrc.json'),
      JSON.stringify({
        default: 'test',
        profiles: { test: { url: server.url, token_file: 'token.txt' }, off: { url: 'http://127.0.0.1:9' } },
      }),
    );
    const base = { XDG_CONFIG_HOME: env.XDG_CONFIG_HOME! };
    const fromFile = await runRegIn(dir, ['software', 'create', '--name', 'profiled', '--json'], base);
    expect(fromFile.code, fromFile.stderr).toBe(0);
    expect(JSON.parse(fromFile.stdout).name).toBe('profiled');

    const port = await closedPort();
    const envWins = await runRegIn(dir, ['software', 'list'], {
      ...base,
      REG_URL: `http://127.0.0.1:${port}`,
    });
    expect(envWins.code).toBe(10);
    expect(envWins.stderr).toContain('(from REG_URL)');
    const flagWins = await runRegIn(dir, ['software', 'list', '--url', server.url], {
      ...base,
      REG_URL: `http://127.0.0.1:${port}`,
    });
    expect(flagWins.code, flagWins.stderr).toBe(0);

    const unknown = await runRegIn(dir, ['software', 'list', '--profile', 'prod'], base);
    expect(unknown.code).toBe(11);
    expect(unknown.stderr).toMatch(/^reg: .*\.regrc\.json has no profile "prod" \(it has: test, off\)$/m);
  });

  it('never prints the token, whether the command succeeds or fails', async () => {
    const dir = tempDir();
    const tokenFile = path.join(dir, 'token');
    fs.writeFileSync(tokenFile, ROOT_TOKEN);
    const noToken = { REG_URL: server.url, XDG_CONFIG_HOME: env.XDG_CONFIG_HOME! };
    const port = await closedPort();
    const runs = await Promise.all([
      runReg(['software', 'create', '--name', 'secret-test', '--token-file', tokenFile, '--json'], noToken),
      runReg(['software', 'create', '--name', 'secret-test', '--token', ROOT_TOKEN], noToken),
      runReg(['software', 'list', '--token-file', tokenFile], noToken),
      runReg(['software', 'get', 'missing', '--json'], { ...noToken, REG_TOKEN_FILE: tokenFile }),
      runReg(['software', 'create', '--kind', 'cli', '--json'], { ...noToken, REG_TOKEN: ROOT_TOKEN }),
      runReg(['software', 'list', '--url', `http://127.0.0.1:${port}`, '--token', ROOT_TOKEN], noToken),
      runReg(['software', 'list', '--token', ROOT_TOKEN, '--token-file', tokenFile], noToken),
      runReg(['software', 'list'], { ...noToken, REG_TOKEN: ROOT_TOKEN, REG_TOKEN_FILE: tokenFile }),
    ]);
    expect(runs.map((run) => run.code)).toEqual([0, 0, 0, 7, 8, 10, 2, 11]);
    for (const run of runs) {
      expect(run.stdout).not.toContain(ROOT_TOKEN);
      expect(run.stderr).not.toContain(ROOT_TOKEN);
    }
  });
});

describe('reg instances, types and vocab', () => {
  it('registers, lists, edits and withdraws a deployment of some software', async () => {
    const software = await json(['software', 'create', '--name', 'deployed', '--kind', 'service']);
    const created = await json([
      'instances',
      'create',
      '--software',
      software.id,
      '--label',
      'Lab deployment',
      '--endpoint-url',
      'https://deployed.example.org',
      '--availability',
      'public',
    ]);
    expect(created).toMatchObject({
      label: 'Lab deployment',
      software: software.iri,
      endpoint_url: 'https://deployed.example.org',
      availability: 'public',
    });
    expect(await json(['instances', 'get', created.id])).toMatchObject({
      iri: created.iri,
      label: 'Lab deployment',
    });
    const list = await json(['instances', 'list', '--software', software.id]);
    expect(list.items.map((item: { id: string }) => item.id)).toEqual([created.id]);
    const table = await runReg(['instances', 'list', '--software', software.iri], env);
    expect(table.stdout).toMatch(/^LABEL\s+SOFTWARE\s+HEALTH\s+AVAILABILITY\s+ENDPOINT\s+ID$/m);
    expect(table.stdout).toMatch(/Lab deployment\s+deployed/);

    const updated = await json(['instances', 'update', created.id, '--availability', 'restricted']);
    expect(updated.availability).toBe('restricted');
    expect(await json(['instances', 'delete', created.id])).toEqual({ id: created.id, withdrawn: true });
    expect((await json(['instances', 'list', '--software', software.id])).items).toEqual([]);

    const bad = await runReg(['instances', 'create', '--availability', 'secret'], env);
    expect(bad.code).toBe(2);
  });

  it('mints a type, lists and reads it, and finds it by vocabulary search', async () => {
    const minted = await json([
      'types',
      'create',
      '--label',
      'CLI test report',
      '--slug',
      'cli-test-report',
      '--default-media-type',
      'text/plain',
    ]);
    expect(minted).toMatchObject({ iri: 'http://registry.test/type/cli-test-report', adopted: false });
    const list = await json(['types', 'list']);
    expect(list.items.map((item: { iri: string }) => item.iri)).toContain(minted.iri);
    expect(await json(['types', 'get', 'cli-test-report'])).toMatchObject({ label: 'CLI test report' });

    const hits = await json(['vocab', 'search', 'CLI test report', '--branch', 'data']);
    expect(hits.items[0]).toMatchObject({ iri: minted.iri, source: 'local' });
    const table = await runReg(['vocab', 'search', 'cli test', '--branch', 'data'], env);
    expect(table.stdout).toMatch(/^LABEL\s+BRANCH\s+SOURCE\s+SCORE\s+IRI$/m);
    expect(table.stdout).toContain(minted.iri);

    const both = await runReg(
      ['types', 'create', '--label', 'x', '--slug', 'x', '--iri', 'http://x.test/t'],
      env,
    );
    expect(both.code).toBe(2);
  });
});
