import { Parser } from 'n3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT_TOKEN, runReg, startServe, tempDir, testEnv, type ServerProcess } from '../helpers.js';

/* reg advertise --dry-run: the registry's check of the whole call, shown as records and Turtle, writing nothing. */

type Json = Record<string, any>;

let server: ServerProcess;
let env: Record<string, string>;

async function api(method: string, route: string, body?: unknown): Promise<Json> {
  const response = await fetch(`${server.url}${route}`, {
    method,
    headers: { authorization: `Bearer ${ROOT_TOKEN}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return (await response.json()) as Json;
}

/** How many runs, artifacts and audit entries the registry holds. */
const counts = async (): Promise<number[]> =>
  Promise.all(
    ['runs', 'artifacts', 'audit'].map(async (collection) => {
      const page = await api('GET', `/api/v1/${collection}?limit=1`);
      return (page.total ?? page.items?.length ?? -1) as number;
    }),
  );

beforeAll(async () => {
  server = await startServe(testEnv());
  const software = await api('POST', '/api/v1/software', { name: 'dry producer' });
  const instance = await api('POST', '/api/v1/instances', { software: software.iri, label: 'dry' });
  const minted = await api('POST', `/api/v1/instances/${instance.id}/tokens`, {});
  env = { REG_URL: server.url, REG_TOKEN: minted.token as string, XDG_CONFIG_HOME: tempDir('reg-xdg-') };
});

afterAll(async () => {
  await server.stop();
});

const ARTIFACT =
  'title=Dry table,type=http://edamontology.org/data_0006,url=https://data.example.org/dry.csv';

describe('reg advertise produced --dry-run', () => {
  it('prints what would be written, with the Turtle, and writes nothing', async () => {
    const before = await counts();
    const result = await runReg(
      ['advertise', 'produced', '--run-key', 'dry/cli', '--artifact', ARTIFACT, '--dry-run'],
      env,
    );
    expect(result.code, result.stderr).toBe(0);
    const [first, ...rest] = result.stdout.split('\n');
    expect(first).toMatch(/^dry run, nothing was written; would create: run \S+, 1 artifact produced: \S+$/);
    expect(rest).toEqual(
      expect.arrayContaining([expect.stringMatching(/^ {2}would write run http:\/\/registry\.test\/run\//)]),
    );
    const turtle = result.stdout.slice(result.stdout.indexOf('@prefix'));
    const triples = new Parser().parse(turtle);
    expect(triples.some((triple) => triple.object.value === 'Dry table')).toBe(true);
    expect(await counts()).toEqual(before);
  });

  it('--json gives the registry answer with the records', async () => {
    const before = await counts();
    const result = await runReg(
      ['advertise', 'produced', '--run-key', 'dry/json', '--artifact', ARTIFACT, '--dry-run', '--json'],
      env,
    );
    expect(result.code, result.stderr).toBe(0);
    const answer = JSON.parse(result.stdout) as Json;
    expect(answer.created).toBe(true);
    expect((answer.dry_run.records as Json[]).map((record) => record.kind)).toContain('artifact');
    expect(answer.dry_run.turtle).toContain('Dry table');
    expect(await counts()).toEqual(before);
  });

  it('a refused payload exits 8 with the fields at fault, as a real call would', async () => {
    const before = await counts();
    const result = await runReg(
      [
        'advertise',
        'consumed',
        '--artifact-iri',
        'http://registry.test/artifact/01JBBBBBBBBBBBBBBBBBBBBBBB',
        '--dry-run',
      ],
      env,
    );
    expect(result.code).toBe(8);
    expect(result.stderr).toMatch(/^reg: 422 /m);
    expect(result.stderr).toContain('artifacts[0].iri');
    expect(await counts()).toEqual(before);
  });

  it('cannot be combined with --spool', async () => {
    const result = await runReg(
      ['advertise', 'produced', '--artifact', ARTIFACT, '--dry-run', '--spool', tempDir('reg-spool-')],
      env,
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--spool');
  });
});
