import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { BIN, ROOT_TOKEN, runReg, startServe, tempDir, testEnv, type ServerProcess } from '../helpers.js';

let server: ServerProcess;
/** The client's environment: the registry's URL and the root token, and no config file of the developer's. */
let env: Record<string, string>;
const LONG =
  'aligns short reads against a reference genome, fast, with a small memory footprint and many options';

beforeAll(async () => {
  server = await startServe(testEnv());
  env = { REG_URL: server.url, REG_TOKEN: ROOT_TOKEN, XDG_CONFIG_HOME: tempDir('reg-xdg-') };
  await json([
    'software',
    'create',
    '--name',
    'Alpha aligner',
    '--kind',
    'cli',
    '--license',
    'Apache-2.0',
    '--tagline',
    LONG,
  ]);
  await json([
    'software',
    'create',
    '--name',
    'Beta browser',
    '--kind',
    'service',
    '--license',
    'MIT',
    '--tagline',
    'browses genomes "in place"',
  ]);
  for (const lab of ['A', 'B', 'C']) {
    await json([
      'software',
      'create',
      '--name',
      'Validation report',
      '--kind',
      'library',
      '--license',
      'MIT',
      '--tagline',
      `the validation report of the shapes graph that lab ${lab} submitted`,
    ]);
  }
  await json([
    'instances',
    'create',
    '--software',
    'Alpha aligner',
    '--label',
    'Alpha on the cluster',
    '--availability',
    'restricted',
    '--endpoint-url',
    'https://alpha.cluster.example.org/services/aligner/v2/endpoint',
  ]);
});
afterAll(async () => {
  await server.stop();
});

async function json(args: string[]): Promise<Record<string, any>> {
  const result = await runReg([...args, '--json'], env);
  expect(result.code, `reg ${args.join(' ')}: ${result.stdout}${result.stderr}`).toBe(0);
  return JSON.parse(result.stdout) as Record<string, any>;
}

async function table(args: string[], extra: Record<string, string> = {}): Promise<string> {
  const result = await runReg(args, { ...env, ...extra });
  expect(result.code, `reg ${args.join(' ')}: ${result.stderr}`).toBe(0);
  return result.stdout;
}

/** Ids (whole or a prefix of 8 or more) as <id>, and dates as <date>. */
const normalise = (text: string): string =>
  text
    .replace(/\b[0-9a-f]{8}(?:-[0-9a-f]{1,12})*\b/g, '<id>')
    .replace(/\d{4}-\d\d-\d\dT[\d:.]+Z/g, '<date>')
    .replace(/ +$/gm, '');

/** A fitted table as its cells, cut cells as <cut>: what a width keeps, whatever length the ids take. */
const cellsOf = (text: string): string =>
  normalise(text)
    .split('\n')
    .map((line) =>
      line
        .split(/ {2,}/)
        .map((cell) => (cell.endsWith('…') ? '<cut>' : cell))
        .join(' | '),
    )
    .join('\n');

const ESC = '\u001b[';

describe('tables for humans', () => {
  it('fits software and deployment lists to 80 and 200 columns, names first and ids last', async () => {
    const narrow = await table(['software', 'list'], { COLUMNS: '80' });
    for (const line of narrow.trimEnd().split('\n')) expect(line.length).toBeLessThanOrEqual(80);
    expect(cellsOf(narrow)).toMatchInlineSnapshot(`
      "NAME | TAGLINE
      Validation report | <cut>
      Validation report | <cut>
      Validation report | <cut>
      Beta browser | browses genomes "in place"
      Alpha aligner | <cut>
      "
    `);
    const wide = await table(['software', 'list'], { COLUMNS: '200' });
    expect(normalise(wide)).toMatchInlineSnapshot(`
      "NAME               KINDS    LICENSE     TAGLINE                                                                                              ID
      Validation report  library  MIT         the validation report of the shapes graph that lab C submitted                                       <id>
      Validation report  library  MIT         the validation report of the shapes graph that lab B submitted                                       <id>
      Validation report  library  MIT         the validation report of the shapes graph that lab A submitted                                       <id>
      Beta browser       service  MIT         browses genomes "in place"                                                                           <id>
      Alpha aligner      cli      Apache-2.0  aligns short reads against a reference genome, fast, with a small memory footprint and many options  <id>
      "
    `);

    const deployments = await table(['instances', 'list'], { COLUMNS: '80' });
    expect(cellsOf(deployments)).toMatchInlineSnapshot(`
      "LABEL | SOFTWARE | HEALTH | AVAILABILITY | ENDPOINT | ID
      Alpha on the cluster | <cut> | unknown | restricted | <cut> | <id>
      "
    `);
    // The status words are whole, whatever the width.
    expect(cellsOf(await table(['instances', 'list'], { COLUMNS: '40' }))).toMatchInlineSnapshot(`
      "LABEL | HEALTH | ID
      Alpha on the cluster | unknown | <id>
      "
    `);
  });

  it('prints the columns asked for, whole values with --no-truncate, and refuses an unknown column', async () => {
    const chosen = await table(['software', 'list', '--columns', 'id,name'], { COLUMNS: '80' });
    expect(chosen.split('\n')[0]).toMatch(/^ID +NAME$/);
    expect(chosen).toMatch(/^[0-9a-f]{8}[0-9a-f-]* +Alpha aligner$/m);

    const whole = await table(['software', 'list', '--no-truncate'], { COLUMNS: '80' });
    expect(whole).toContain(LONG);
    expect(whole).toMatch(/ [0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/m);

    const unknown = await runReg(['software', 'list', '--columns', 'name,colour'], env);
    expect(unknown.code).toBe(2);
    expect(unknown.stdout).toBe('');
    expect(unknown.stderr.trim()).toBe(
      'reg: --columns: no column "colour" (this table has name, kinds, license, tagline, registry, id)',
    );
    const badFormat = await runReg(['software', 'list', '--output', 'xml'], env);
    expect(badFormat.code).toBe(2);
  });

  it('prints JSON, YAML and CSV with --output', async () => {
    const asJson = await json(['software', 'list', '--all']);
    const viaOutput = JSON.parse(await table(['software', 'list', '--all', '--output', 'json']));
    expect(viaOutput).toEqual(asJson);
    const asYaml = parseYaml(await table(['software', 'list', '--all', '--output', 'yaml'])) as Record<
      string,
      any
    >;
    expect(asYaml).toEqual(asJson);

    const csv = await table(['software', 'list', '--all', '--output', 'csv'], { COLUMNS: '40' });
    const lines = csv.replace(/\r?\n$/, '').split('\r\n');
    expect(lines[0]).toBe('name,kinds,license,tagline,id');
    expect(lines).toHaveLength(asJson.items.length + 1);
    const beta = asJson.items.find((item: { name: string }) => item.name === 'Beta browser');
    expect(lines).toContain(`Beta browser,service,MIT,"browses genomes ""in place""",${beta.id}`);
    const alpha = asJson.items.find((item: { name: string }) => item.name === 'Alpha aligner');
    expect(lines).toContain(`Alpha aligner,cli,Apache-2.0,"${LONG}",${alpha.id}`);
    const some = await table(['software', 'list', '--output', 'csv', '--columns', 'id,name']);
    expect(some.split('\r\n')[0]).toBe('id,name');
  });

  it('never prints two search hits alike', async () => {
    const found = await table(['search', 'validation report'], { COLUMNS: '80' });
    const rows = found.trimEnd().split('\n').slice(1);
    expect(rows, found).toHaveLength(3);
    // Set the ids aside: the rest of each row must still tell the hits apart.
    const shown = rows.map((row) => row.replace(/ +[0-9a-f]{8}[0-9a-f-]*$/, ''));
    expect(new Set(shown).size).toBe(3);
    expect(cellsOf(found)).toMatchInlineSnapshot(`
      "TITLE | SNIPPET
      Validation report | <cut>
      Validation report | <cut>
      Validation report | <cut>
      "
    `);
  });

  it('prints no colour to a pipe, nor with NO_COLOR', async () => {
    expect(await table(['software', 'list'])).not.toContain(ESC);
    expect(await table(['software', 'list'], { NO_COLOR: '1' })).not.toContain(ESC);
    expect(await table(['instances', 'list'], { COLUMNS: '80' })).not.toContain(ESC);
  });

  it('colours the header and status words on a terminal, and not with NO_COLOR=1', async () => {
    // A deployment without an endpoint stays "unknown": the one above gets probed (and found down) once the
    // health prober's first pass comes, 30 s after the start, which a slow run of this file reaches.
    await json(['instances', 'create', '--software', 'Beta browser', '--label', 'Beta without an endpoint']);
    const onTty = await underScript(['instances', 'list'], { COLUMNS: '120', TERM: 'xterm' });
    expect(onTty).toContain(`${ESC}1mLABEL${ESC}0m`);
    expect(onTty, JSON.stringify(onTty)).toContain(`${ESC}33munknown${ESC}0m`);
    const noColour = await underScript(['instances', 'list'], {
      COLUMNS: '120',
      TERM: 'xterm',
      NO_COLOR: '1',
    });
    expect(noColour).toContain('Alpha on the cluster');
    expect(noColour).not.toContain(ESC);
    const dumb = await underScript(['instances', 'list'], { COLUMNS: '120', TERM: 'dumb' });
    expect(dumb).toContain('Alpha on the cluster');
    expect(dumb).not.toContain(ESC);
  });
});

/** Runs `reg <args>` on a pseudo-terminal (util-linux script) and returns what it printed. */
function underScript(args: string[], extra: Record<string, string>): Promise<string> {
  const quote = (word: string) => `'${word.replace(/'/g, `'\\''`)}'`;
  const command = [process.execPath, BIN, ...args].map(quote).join(' ');
  return new Promise((resolve, reject) => {
    const child = spawn('script', ['-qfc', command, '/dev/null'], {
      env: { PATH: process.env.PATH ?? '', ...env, ...extra },
    });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve(out) : reject(new Error(`script exited ${code}: ${out}`)),
    );
    child.stdin.end();
  });
}
