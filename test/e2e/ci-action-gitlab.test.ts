/**
 * The GitLab CI/CD component (templates/advertise.yml): its declaration, then its job run as GitLab runs it.
 * GitLab's part is played here: the `$[[ inputs.x ]]` expressions are interpolated with the inputs given (the
 * defaults filling the rest, a missing required input refused), the job's variables and GitLab's own CI_*
 * variables make the environment, an `id_tokens:` entry becomes a variable holding a token signed for its
 * audience, and the script lines run in one bash in the project directory. The command line is the built one
 * (bin/run.js) as the image's `reg`, with the install input false; installing is tested in
 * ci-action-install.test.ts.
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, ROOT, startServe, tempDir, testEnv, type ServerProcess } from '../helpers.js';
import { ciClaims, startProvider, type TestProvider } from '../support/oidc.js';
import {
  callApi,
  idOf,
  runnerNpmSettings,
  sha256,
  startCiRegistry,
  workspaceWith,
} from '../support/ci-jobs.js';

interface ComponentInput {
  readonly description?: string;
  readonly default?: string;
  readonly options?: string[];
  readonly type?: string;
}

interface Job {
  readonly stage: string;
  readonly image: string;
  readonly id_tokens: Record<string, { aud: string }>;
  readonly variables: Record<string, string>;
  readonly script: string[];
  readonly artifacts: { paths: string[]; reports: { dotenv: string } };
}

const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
  name: string;
  version: string;
};
const text = fs.readFileSync(path.join(ROOT, 'templates/advertise.yml'), 'utf8');
const [header, body] = parseAllDocuments(text).map((document) => document.toJS() as Record<string, unknown>);
const inputs = (header!.spec as { inputs: Record<string, ComponentInput> }).inputs;
const INPUT = /\$\[\[\s*inputs\.([\w-]+)\s*\]\]/g;

/** What GitLab makes of the component for these inputs: every `$[[ inputs.x ]]` replaced, keys included. */
function interpolate(given: Record<string, string>): Record<string, unknown> {
  for (const name of Object.keys(given))
    if (inputs[name] === undefined) throw new Error(`unknown input ${name}`);
  const values = Object.fromEntries(
    Object.entries(inputs).map(([name, input]) => {
      const value = given[name] ?? input.default;
      if (value === undefined) throw new Error(`\`${name}\` input: required value has not been provided`);
      if (input.options !== undefined && !input.options.includes(value))
        throw new Error(
          `\`${name}\` input: \`${value}\` cannot be used because it is not in the list of options`,
        );
      return [name, value];
    }),
  );
  const walk = (node: unknown): unknown => {
    if (typeof node === 'string') return node.replace(INPUT, (_, name: string) => values[name]!);
    if (Array.isArray(node)) return node.map(walk);
    if (node !== null && typeof node === 'object')
      return Object.fromEntries(
        Object.entries(node).map(([key, value]) => [walk(key) as string, walk(value)]),
      );
    return node;
  };
  return walk(body) as Record<string, unknown>;
}

/** What one simulated job left: its exit code and log, and the dotenv report and JSON file it wrote. */
interface JobResult {
  readonly code: number | null;
  readonly log: string;
  readonly dotenv: Record<string, string> | undefined;
  readonly summary: Record<string, any> | undefined;
  readonly job: Job;
}

let pipelineId = 5000;

/**
 * Runs the component's job for `given` inputs in `projectDir`, as a GitLab runner with a bash image would: the
 * job's variables, GitLab's CI_* variables, `extra` (project variables), and each `id_tokens:` variable holding
 * what `signIdToken` gives for its audience (left unset without it).
 */
async function runJob(
  given: Record<string, string>,
  projectDir: string,
  extra: Record<string, string> = {},
  signIdToken?: (audience: string) => Promise<string>,
): Promise<JobResult> {
  const jobs = interpolate(given);
  const [name, job] = Object.entries(jobs)[0] as [string, Job];
  pipelineId += 1;
  const tokens: Record<string, string> = {};
  if (signIdToken !== undefined)
    for (const [variable, { aud }] of Object.entries(job.id_tokens))
      tokens[variable] = await signIdToken(aud);
  const script = path.join(tempDir('reg-gitlab-'), 'script.sh');
  fs.writeFileSync(script, job.script.join('\n'));
  const env = {
    PATH: `${regBin}${path.delimiter}${process.env.PATH ?? ''}`,
    HOME: tempDir('reg-home-'),
    XDG_CONFIG_HOME: tempDir('reg-xdg-'),
    TMPDIR: tempDir('reg-tmp-'),
    CI: 'true',
    GITLAB_CI: 'true',
    CI_PIPELINE_ID: String(pipelineId),
    CI_JOB_ID: String(pipelineId * 10),
    CI_JOB_NAME: name,
    CI_JOB_STARTED_AT: '2026-11-27T02:00:00Z',
    CI_PROJECT_DIR: projectDir,
    ...extra,
    ...job.variables,
    ...tokens,
  };
  const { code, log } = await new Promise<{ code: number | null; log: string }>((resolve, reject) => {
    const child = spawn('bash', ['-eo', 'pipefail', script], { env, cwd: projectDir });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (output += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (output += d));
    child.on('error', reject);
    child.on('close', (exit) => resolve({ code: exit, log: output }));
    child.stdin.end();
  });
  const dotenvFile = path.join(projectDir, job.artifacts.reports.dotenv);
  const dotenv = fs.existsSync(dotenvFile)
    ? Object.fromEntries(
        fs
          .readFileSync(dotenvFile, 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
      )
    : undefined;
  const summaryFile = path.join(projectDir, 'reg-advertise.json');
  const summary = fs.existsSync(summaryFile)
    ? (JSON.parse(fs.readFileSync(summaryFile, 'utf8')) as Record<string, any>)
    : undefined;
  return { code, log, dotenv, summary, job };
}

let server: ServerProcess;
let token: string;
let regBin: string;

const api = (method: string, route: string, body?: unknown, base = server.url) =>
  callApi(base, method, route, body);

beforeAll(async () => {
  ({ server, token, regBin } = await startCiRegistry('component-user', 'pipeline'));
});
afterAll(async () => {
  await server.stop();
});

describe('templates/advertise.yml', () => {
  it('is one job whose variables carry every input, with the ID token for the registry', () => {
    expect(Object.keys(body!)).toEqual(['$[[ inputs.job-name ]]']);
    const job = body!['$[[ inputs.job-name ]]'] as Job;
    expect(job.id_tokens).toEqual({ REG_ID_TOKEN: { aud: '$[[ inputs.registry ]]' } });
    expect(job.artifacts.reports.dotenv).toBe('reg-advertise.env');
    expect(job.artifacts.paths).toEqual(['reg-advertise.json']);
    const used = new Set([...JSON.stringify(body).matchAll(INPUT)].map((match) => match[1]!));
    expect([...used].sort()).toEqual(Object.keys(inputs).sort());
    for (const [name, input] of Object.entries(inputs)) expect(input.description, name).toMatch(/\w/);
    expect(inputs.registry?.default, 'registry is required').toBeUndefined();
    // The script never holds an expression: inputs reach it only as the values of variables.
    for (const line of job.script) expect(line).not.toMatch(/\$\[\[/);
    for (const [variable, value] of Object.entries(job.variables))
      expect(value, variable).toMatch(/^\$\[\[ inputs\.[\w-]+ \]\]$/);
  });

  it('is documented: docs/ci/gitlab-ci.md lists every input', () => {
    const doc = fs.readFileSync(path.join(ROOT, 'docs/ci/gitlab-ci.md'), 'utf8');
    const table = doc.slice(doc.indexOf('## Inputs'), doc.indexOf('## Outputs'));
    const rows = [...table.matchAll(/^\| `([\w-]+)` \|/gm)].map((match) => match[1]!);
    expect(rows.sort()).toEqual(Object.keys(inputs).sort());
  });

  it("installs this package, at this package's version unless told otherwise", () => {
    expect(inputs.version?.default).toBe(pkg.version);
    const script = (body!['$[[ inputs.job-name ]]'] as Job).script.join('\n');
    expect(script).toContain(`spec="${pkg.name}@$REG_INPUT_VERSION"`);
  });

  it('is refused by GitLab without the registry, or with an install that is not true or false', () => {
    expect(() => interpolate({})).toThrow('`registry` input: required value has not been provided');
    expect(() => interpolate({ registry: 'https://r.example.org', install: 'yes' })).toThrow(
      'not in the list of options',
    );
  });
});

describe('the component in a GitLab CI pipeline', () => {
  it('advertises consumed and produced files from globs on one run, and hands the IRIs to later jobs', async () => {
    const project = workspaceWith(['public/index.ttl', 'public/data/part 1.ttl', 'vendor/input.csv']);
    const result = await runJob(
      {
        registry: server.url,
        token,
        install: 'false',
        produced: 'public/**/*.ttl',
        consumed: 'vendor/input.csv\n',
        'run-label': 'Publish pages',
      },
      project,
    );
    expect(result.code, result.log).toBe(0);
    expect(result.summary).toBeDefined();
    const { run, produced_artifacts: produced, consumed_artifacts: consumed } = result.summary!;
    expect(produced).toHaveLength(2);
    expect(consumed).toHaveLength(1);
    expect(result.dotenv).toEqual({
      REG_ADVERTISED_RUN: run,
      REG_ADVERTISED_SPOOLED: 'false',
      REG_ADVERTISED_ARTIFACTS: JSON.stringify([...produced, ...consumed]),
    });

    const read = await api('GET', `/api/v1/runs/${idOf(run)}`);
    expect(read.body).toMatchObject({
      iri: run,
      external_key: `gitlab/${pipelineId}/${pipelineId * 10}`,
      label: 'Publish pages',
    });
    expect((read.body.generated as { iri: string }[]).map((a) => a.iri).sort()).toEqual([...produced].sort());
    expect((read.body.used as { iri: string }[]).map((a) => a.iri)).toEqual(consumed);
    const input = (await api('GET', `/api/v1/artifacts/${idOf(consumed[0])}`)).body;
    expect(input.title).toBe('input.csv');
    expect(input.distributions[0].checksum.value).toBe(sha256(path.join(project, 'vendor/input.csv')));
  });

  it('gives jobs that advertise for one run the same key through run-key', async () => {
    const project = workspaceWith(['a.ttl', 'b.ttl']);
    const key = `gitlab/${pipelineId}/build`;
    const first = await runJob(
      { registry: server.url, token, install: 'false', produced: 'a.ttl', 'run-key': key },
      project,
    );
    const second = await runJob(
      {
        registry: server.url,
        token,
        install: 'false',
        produced: 'b.ttl',
        'run-key': key,
        'job-name': 'again',
      },
      project,
    );
    expect(first.code, first.log).toBe(0);
    expect(second.code, second.log).toBe(0);
    expect(second.summary!.run).toBe(first.summary!.run);
    expect((await api('GET', `/api/v1/runs/${idOf(first.summary!.run)}`)).body.generated_count).toBe(2);
  });

  it('passes inputs to the command line as data, never as shell code', async () => {
    const name = 'x $(touch pwned) `touch pwned2` "q" \'s\'; | & name.txt';
    const project = workspaceWith([name]);
    const label = "'; touch pwned3; echo '$(touch pwned4)";
    const result = await runJob(
      { registry: server.url, token, install: 'false', produced: name, 'run-label': label },
      project,
    );
    expect(result.code, result.log).toBe(0);
    expect(fs.readdirSync(project).filter((file) => file.startsWith('pwned'))).toEqual([]);
    expect((await api('GET', `/api/v1/runs/${idOf(result.summary!.run)}`)).body.label).toBe(label);
    const [artifact] = result.summary!.artifacts as string[];
    expect((await api('GET', `/api/v1/artifacts/${idOf(artifact!)}`)).body.title).toBe(name);
  });

  it('fails on a path or glob that matches no file, naming it, and sends nothing', async () => {
    const before = (await api('GET', '/api/v1/runs')).body.total as number;
    const project = workspaceWith(['a.ttl']);
    const result = await runJob(
      { registry: server.url, token, install: 'false', produced: 'a.ttl\nbuild/**/*.whl' },
      project,
    );
    expect(result.code).toBe(1);
    expect(result.log).toContain('reg-advertise: no file matches "build/**/*.whl"');
    expect(result.dotenv).toBeUndefined();
    expect((await api('GET', '/api/v1/runs')).body.total).toBe(before);
  });

  it("fails with the command line's exit code when the registry refuses the credential", async () => {
    const project = workspaceWith(['a.ttl']);
    const result = await runJob(
      { registry: server.url, token: 'reg_unknown_token', install: 'false', produced: 'a.ttl' },
      project,
    );
    expect(result.code).toBe(9);
    expect(result.dotenv).toBeUndefined();
  });
});

describe('the component with the ID token of the job', () => {
  // GitLab's example claims; the provider fills in its own issuer and fresh times, and the audience is the job's.
  const claims = ciClaims('gitlab-ci');
  let provider: TestProvider;
  let registry: ServerProcess;
  let base: string;

  beforeAll(async () => {
    // The registry's URL is its base IRI, so that the registry input is the ID token's audience too.
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    provider = await startProvider({ audience: base, clients: [] });
    registry = await startServe(
      testEnv({ REG_LISTEN: `127.0.0.1:${port}`, REG_BASE_IRI: base, REG_WORKLOAD_ISSUERS: provider.issuer }),
    );
    const software = await api('POST', '/api/v1/software', { name: 'my-project' }, registry.url);
    const deployment = await api(
      'POST',
      '/api/v1/instances',
      {
        software: software.body.id,
        label: 'feature branch',
        oidc_client_id: claims.sub,
        oidc_issuer: provider.issuer,
      },
      registry.url,
    );
    expect(deployment.status, JSON.stringify(deployment.body)).toBe(201);
  });
  afterAll(async () => {
    await registry?.stop();
    await provider?.stop();
  });

  it('advertises with no stored token, the registry being the audience of the ID token', async () => {
    const project = workspaceWith(['dist/tool.whl']);
    const audiences: string[] = [];
    const result = await runJob(
      { registry: base, install: 'false', produced: 'dist/*.whl' },
      project,
      {},
      (audience) => {
        audiences.push(audience);
        return provider.signToken({ ...claims, aud: audience });
      },
    );
    expect(result.code, result.log).toBe(0);
    expect(audiences).toEqual([base]);
    expect(result.log).toContain('GitLab CI ID token');
    const run = await api('GET', `/api/v1/runs/${idOf(result.summary!.run)}`, undefined, registry.url);
    expect(run.body.instance_label).toBe('feature branch');
  });

  it('is refused when the ID token was made for another audience', async () => {
    const project = workspaceWith(['dist/tool.whl']);
    const result = await runJob(
      { registry: base, install: 'false', produced: 'dist/*.whl' },
      project,
      {},
      () => provider.signToken({ ...claims, aud: 'https://elsewhere.example.org' }),
    );
    expect(result.code).toBe(9);
    expect(result.dotenv).toBeUndefined();
  });
});

describe('the install part of the job', () => {
  it("asks npm for this package at the component's version, or the version given", async () => {
    // npm offline with an empty cache: it names what it was asked for and fails at once.
    const offline = { npm_config_offline: 'true', npm_config_cache: tempDir('reg-npm-cache-') };
    const own = await runJob({ registry: server.url, token }, workspaceWith([]), offline);
    expect(own.code).not.toBe(0);
    expect(own.log).toContain(`Installing ${pkg.name}@${pkg.version}\n`);
    expect(own.dotenv).toBeUndefined();
    const given = await runJob({ registry: server.url, token, version: '0.0.9' }, workspaceWith([]), offline);
    expect(given.code).not.toBe(0);
    expect(given.log).toContain(`Installing ${pkg.name}@0.0.9\n`);
  });

  it('installs the package from a tarball of the project into a prefix of the job and advertises with it', async () => {
    const project = workspaceWith(['public/index.ttl']);
    // --ignore-scripts: the tests have just built, and the prepack build would rebuild dist/ under others.
    const packed = JSON.parse(
      execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', project], {
        cwd: ROOT,
        encoding: 'utf8',
      }),
    ) as { filename: string }[];
    const result = await runJob(
      { registry: server.url, token, package: packed[0]!.filename, produced: 'public/*.ttl' },
      project,
      {
        // No reg in the image: only what the job installs. The machine's npm cache and settings, as on a runner.
        PATH: process.env.PATH ?? '',
        ...runnerNpmSettings(),
      },
    );
    expect(result.code, result.log).toBe(0);
    expect(result.log).toContain(`Installing ${path.join(project, packed[0]!.filename)}`);
    expect(result.log).toContain(`${pkg.name} ${pkg.version} `);
    expect(fs.readdirSync(project).filter((file) => file.startsWith('reg-cli'))).toEqual([]);
    const run = await api('GET', `/api/v1/runs/${idOf(result.summary!.run)}`);
    expect(run.body.generated_count).toBe(1);
  }, 600_000);
});
