import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT_TOKEN, runReg, startServe, tempDir, testEnv, type ServerProcess } from '../helpers.js';

type Json = Record<string, any>;
const TYPE = 'http://edamontology.org/data_0006';

let server: ServerProcess;
let env: Record<string, string>;
let a: string[] = [];
let one: Json;
let two: Json;

/** A call of the registry's API, as a deployment or a curator would make it. */
async function call(method: string, path: string, body: unknown, token = ROOT_TOKEN): Promise<Json> {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const answer = (await response.json()) as Json;
  expect(response.status, JSON.stringify(answer)).toBeLessThan(300);
  return answer;
}

async function deployment(software: Json, label: string, release: string): Promise<Json> {
  const instance = await call('POST', '/api/v1/instances', { software: software.iri, label, release });
  const { token } = await call('POST', `/api/v1/instances/${instance.id}/tokens`, {});
  return { ...instance, token };
}

/** One run of `d` that used `input` and generated an artifact called `title`; returns that artifact. */
async function step(d: Json, key: string, input: string, title: string): Promise<string> {
  await call(
    'POST',
    '/api/v1/advertise/consumed',
    { run: { external_key: key }, artifacts: [{ iri: input }] },
    d.token,
  );
  const made = await call(
    'POST',
    '/api/v1/advertise/produced',
    { run: { external_key: key }, artifacts: [{ title, conforms_to: TYPE }] },
    d.token,
  );
  return made.artifacts[0];
}

beforeAll(async () => {
  server = await startServe(testEnv());
  env = { REG_URL: server.url, REG_TOKEN: ROOT_TOKEN, XDG_CONFIG_HOME: tempDir('reg-xdg-') };
  const software = await call('POST', '/api/v1/software', { name: 'impact-cli' });
  const r1 = await call('POST', `/api/v1/software/${software.id}/releases`, { version: '1.0' });
  const r2 = await call('POST', `/api/v1/software/${software.id}/releases`, { version: '2.0' });
  one = await deployment(software, 'first', r1.iri);
  two = await deployment(software, 'second', r1.iri);
  const a0 = await call('POST', '/api/v1/artifacts', { title: 'Source', conforms_to: TYPE });
  const a1 = await step(one, 'k1', a0.iri, 'Level one');
  const a2 = await step(two, 'k2', a1, 'Level two');
  const a3 = await step(one, 'k3', a2, 'Level three');
  a = [a0.iri, a1, a2, a3];
  await call('PATCH', `/api/v1/instances/${two.id}`, { release: r2.iri });
});
afterAll(async () => {
  await server.stop();
});

describe('reg impact', () => {
  it('returns the impact under --json: three generations, one deployment moved off the release', async () => {
    const result = await runReg(['impact', a[0]!.split('/').pop()!, '--json'], env);
    expect(result.code, result.stderr).toBe(0);
    const answer = JSON.parse(result.stdout) as Json;
    expect(answer.artifacts.map((x: Json) => x.iri)).toEqual(a);
    expect(answer.runs.map((run: Json) => run.depth)).toEqual([1, 2, 3]);
    const still = Object.fromEntries(answer.deployments.map((d: Json) => [d.label, d.still_on_release]));
    expect(still).toEqual({ first: true, second: false });
  });

  it('prints a tree under the artifact, then the deployments', async () => {
    const result = await runReg(['impact', a[0]!], { ...env, COLUMNS: '400' });
    expect(result.code, result.stderr).toBe(0);
    const lines = result.stdout.split('\n');
    expect(lines[0]).toBe(`artifact "Source" <${a[0]}>`);
    expect(lines[1]).toMatch(/^└─ used by run <[^>]+> by first$/);
    expect(lines[2]).toBe(`   └─ generated artifact "Level one" <${a[1]}>`);
    expect(lines[3]).toMatch(/^ {6}└─ used by run <[^>]+> by second$/);
    expect(result.stdout).toContain(`generated artifact "Level three" <${a[3]}>`);
    expect(result.stdout).toContain('3 runs (1 direct), 4 artifacts, 2 deployments (1 still on the release)');
    expect(result.stdout).toMatch(
      /^ {2}second <[^>]+>: health unknown, runs 2\.0, moved off the release; 1 runs/m,
    );
    expect(result.stdout).toMatch(
      /^ {2}first <[^>]+>: health unknown, runs 1\.0, still on the release; 2 runs/m,
    );
  });

  it('cuts lines to the terminal width', async () => {
    const result = await runReg(['impact', a[0]!], { ...env, COLUMNS: '40' });
    expect(result.code, result.stderr).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines.length).toBeGreaterThan(8);
    for (const line of lines) expect(line.length, line).toBeLessThanOrEqual(40);
    expect(lines[0]!.endsWith('…')).toBe(true);
  });

  it('pages with --max-nodes and merges every page with --all', async () => {
    const first = await runReg(['impact', a[0]!, '--max-nodes', '2', '--json'], env);
    expect(first.code, first.stderr).toBe(0);
    const page = JSON.parse(first.stdout) as Json;
    expect(page.partial).toBe(true);
    expect(first.stderr).toContain('--cursor');
    const all = await runReg(['impact', a[0]!, '--max-nodes', '2', '--all', '--json'], env);
    expect(all.code, all.stderr).toBe(0);
    const merged = JSON.parse(all.stdout) as Json;
    expect(merged.artifacts.map((x: Json) => x.iri).sort()).toEqual([...a].sort());
    expect(merged.runs).toHaveLength(3);
    expect(merged.summary.deployments).toBe(2);
  });

  it('refuses what names nothing (exit 7) and what is in no form it takes (exit 8), in one line', async () => {
    const missing = await runReg(['impact', '0190f5d2-8a1b-7c3d-9e4f-0123456789ab'], env);
    expect(missing.code).toBe(7);
    expect(missing.stderr.trim().split('\n')).toHaveLength(1);
    const malformed = await runReg(['impact', 'ni:///sha-256;short'], env);
    expect(malformed.code).toBe(8);
    // The one-line refusal, then the field it concerns.
    expect(malformed.stderr).toMatch(/^reg: 400 /);
    expect(malformed.stderr).toMatch(/^ {2}of ".*" is in none of the forms it takes/m);
    const json = await runReg(['impact', 'ni:///sha-256;short', '--json'], env);
    expect(json.code).toBe(8);
  });
});
