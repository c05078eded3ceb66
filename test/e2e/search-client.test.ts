import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT_TOKEN, runReg, startServe, tempDir, testEnv, type ServerProcess } from '../helpers.js';

let server: ServerProcess;
/** The client's environment: the registry's URL and the root token, and no config file of the developer's. */
let env: Record<string, string>;

async function json(args: string[]): Promise<Record<string, any>> {
  const result = await runReg([...args, '--json'], env);
  expect(result.code, `reg ${args.join(' ')}: ${result.stdout}${result.stderr}`).toBe(0);
  return JSON.parse(result.stdout) as Record<string, any>;
}

beforeAll(async () => {
  server = await startServe(testEnv());
  env = { REG_URL: server.url, REG_TOKEN: ROOT_TOKEN, XDG_CONFIG_HOME: tempDir('reg-xdg-') };
  const software = await json([
    'software',
    'create',
    '--name',
    'seqkit',
    '--tagline',
    `Fast toolkit for FASTA and FASTQ files ${'and more '.repeat(20)}`,
  ]);
  await json(['software', 'create', '--name', 'seqkit-extras']);
  await json(['instances', 'create', '--software', software.id, '--label', 'seqkit on the cluster']);
});
afterAll(async () => {
  await server.stop();
});

describe('reg search', () => {
  it('prints the API answer under --json, best hit first', async () => {
    const found = await json(['search', 'seqkit']);
    expect(found).toMatchObject({ query: 'seqkit', total: 3, partial: false });
    expect((found.hits as any[]).map((hit) => [hit.entity_type, hit.title, hit.score])).toEqual([
      ['software', 'seqkit', 1],
      ['software', 'seqkit-extras', 0.8],
      ['instance', 'seqkit on the cluster', 0.8],
    ]);
  });

  it('narrows by --type (repeatable) and --limit', async () => {
    const instances = await json(['search', 'seqkit', '--type', 'instance']);
    expect((instances.hits as any[]).map((hit) => hit.title)).toEqual(['seqkit on the cluster']);
    const both = await json(['search', 'seqkit', '--type', 'instance', '--type', 'software', '--limit', '2']);
    expect((both.hits as any[]).map((hit) => hit.title)).toEqual(['seqkit', 'seqkit-extras']);
    const none = await json(['search', 'no such thing anywhere']);
    expect(none).toMatchObject({ hits: [], total: 0 });
  });

  it('prints a table fitted to the terminal, with the count on stderr', async () => {
    const result = await runReg(['search', 'fastq'], { ...env, COLUMNS: '100' });
    expect(result.code, result.stderr).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^TITLE\s+TYPE\s+SCORE\s+SNIPPET\s+ID$/);
    expect(lines[1]).toMatch(/^seqkit\s+software\s+0\.3\s+Fast toolkit.*…\s+[0-9a-f]{8}$/);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(100);
    expect(result.stderr.trim()).toBe('1 hit');
  });

  it('refuses an unknown --type as a usage error, and reports an unreachable registry', async () => {
    const usage = await runReg(['search', 'seqkit', '--type', 'tool'], env);
    expect(usage.code).toBe(2);
    const down = await runReg(['search', 'seqkit', '--url', 'http://127.0.0.1:9', '--timeout', '2'], env);
    expect(down.code).toBe(10);
  });
});
