/**
 * The GitHub Action (action.yml at the repository root): its declaration, then its shell steps run by bash as
 * a GitHub Actions runner runs a composite action. The runner's part is played here: `${{ inputs.x }}` and
 * `${{ steps.id.outputs.x }}` in a step's `env:` are replaced by their values, each step gets its own
 * GITHUB_OUTPUT and GITHUB_PATH files, and the script runs as `bash --noprofile --norc -eo pipefail <file>` in the
 * workspace. The command line is the built one (bin/run.js), put on the PATH as `reg` with the install input
 * false; the install step itself is run against the packed tarball in ci-action-install.test.ts.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type net from 'node:net';
import path from 'node:path';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, ROOT_TOKEN, startServe, tempDir, testEnv, type ServerProcess } from '../helpers.js';
import { ciClaims, startProvider, type TestProvider } from '../support/oidc.js';
import {
  callApi,
  idOf,
  runnerNpmSettings,
  sha256,
  spawnBash,
  startCiRegistry,
  workspaceWith,
} from '../support/ci-jobs.js';

interface ActionStep {
  readonly id?: string;
  readonly name?: string;
  readonly shell?: string;
  readonly env?: Record<string, string>;
  readonly run?: string;
}

interface ActionFile {
  readonly name: string;
  readonly description: string;
  readonly inputs: Record<string, { description: string; required?: boolean; default?: string }>;
  readonly outputs: Record<string, { description: string; value: string }>;
  readonly runs: { using: string; steps: ActionStep[] };
}

const action = parse(fs.readFileSync(path.join(ROOT, 'action.yml'), 'utf8')) as ActionFile;
const EXPRESSION = /\$\{\{\s*(.*?)\s*\}\}/g;

/** What one simulated use of the action left: the failing step's exit code, the logs, the outputs. */
interface ActionResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly outputs: Record<string, string>;
  /** The folders the steps added to GITHUB_PATH. */
  readonly path: string[];
}

/** Reads a GITHUB_OUTPUT file: `name=value` lines and `name<<DELIMITER` blocks. */
function readOutputFile(file: string): Record<string, string> {
  const lines = fs.readFileSync(file, 'utf8').split('\n');
  const outputs: Record<string, string> = {};
  for (let at = 0; at < lines.length; at++) {
    const line = lines[at]!;
    const block = /^([^=<]+)<<(.+)$/.exec(line);
    if (block !== null) {
      const end = lines.indexOf(block[2]!, at + 1);
      outputs[block[1]!] = lines.slice(at + 1, end).join('\n');
      at = end;
    } else if (line.includes('=')) {
      outputs[line.slice(0, line.indexOf('='))] = line.slice(line.indexOf('=') + 1);
    }
  }
  return outputs;
}

/** Evaluates the expressions a composite action's `env:` and `outputs:` may hold here; others are an error. */
function evaluate(
  text: string,
  inputs: Record<string, string>,
  steps: Record<string, Record<string, string>>,
): string {
  return text.replace(EXPRESSION, (_, expression: string) => {
    const input = /^inputs\.([\w-]+)$/.exec(expression);
    if (input !== null) {
      const declared = action.inputs[input[1]!];
      if (declared === undefined) throw new Error(`action.yml reads the undeclared input ${input[1]}`);
      return inputs[input[1]!] ?? declared.default ?? '';
    }
    const output = /^steps\.([\w-]+)\.outputs\.([\w-]+)$/.exec(expression);
    if (output !== null) return steps[output[1]!]?.[output[2]!] ?? '';
    throw new Error(`the simulated runner does not evaluate \${{ ${expression} }}`);
  });
}

/**
 * Runs the action's steps in order, as the runner would for `uses: ./` with `with: inputs`, in `workspace`,
 * with the job's environment `env` (the runner's own variables are added). Stops at the first failing step.
 */
async function runAction(
  inputs: Record<string, string>,
  env: Record<string, string>,
  workspace: string,
): Promise<ActionResult> {
  for (const name of Object.keys(inputs))
    if (action.inputs[name] === undefined) throw new Error(`action.yml has no input ${name}`);
  const temp = tempDir('reg-runner-temp-');
  const steps: Record<string, Record<string, string>> = {};
  const added: string[] = [];
  let stdout = '';
  let stderr = '';
  for (const [at, step] of action.runs.steps.entries()) {
    const outputFile = path.join(temp, `output-${at}`);
    const pathFile = path.join(temp, `path-${at}`);
    const script = path.join(temp, `step-${at}.sh`);
    fs.writeFileSync(outputFile, '');
    fs.writeFileSync(pathFile, '');
    fs.writeFileSync(script, step.run ?? '');
    const stepEnv = Object.fromEntries(
      Object.entries(step.env ?? {}).map(([name, value]) => [name, evaluate(value, inputs, steps)]),
    );
    const result = await spawnBash(
      script,
      {
        GITHUB_ACTIONS: 'true',
        CI: 'true',
        GITHUB_WORKSPACE: workspace,
        GITHUB_ACTION_PATH: ROOT,
        RUNNER_TEMP: temp,
        ...env,
        GITHUB_OUTPUT: outputFile,
        GITHUB_PATH: pathFile,
        ...stepEnv,
      },
      workspace,
    );
    stdout += result.stdout;
    stderr += result.stderr;
    if (step.id !== undefined) steps[step.id] = readOutputFile(outputFile);
    added.push(...fs.readFileSync(pathFile, 'utf8').split('\n').filter(Boolean));
    if (result.code !== 0) return { code: result.code, stdout, stderr, outputs: {}, path: added };
  }
  const outputs = Object.fromEntries(
    Object.entries(action.outputs).map(([name, output]) => [name, evaluate(output.value, inputs, steps)]),
  );
  return { code: 0, stdout, stderr, outputs, path: added };
}

/** Runs the action with the built command line, which the job has on its PATH (the install input false). */
function runWithBuiltCli(inputs: Record<string, string>, env: Record<string, string>, workspace: string) {
  return runAction({ install: 'false', ...inputs }, env, workspace);
}

let server: ServerProcess;
let token: string;
let rdfGraphType: string;
/** A folder holding `reg`: the built command line, as an earlier step would have put it on the PATH. */
let regBin: string;
let runId = 1000;

const api = (method: string, route: string, body?: unknown, bearer = ROOT_TOKEN, base = server.url) =>
  callApi(base, method, route, body, bearer);

/** A job's environment: a new GitHub Actions run, the built `reg` on the PATH, no developer config. */
function jobEnv(extra: Record<string, string> = {}): Record<string, string> {
  runId += 1;
  return {
    PATH: `${regBin}${path.delimiter}${process.env.PATH ?? ''}`,
    HOME: tempDir('reg-home-'),
    XDG_CONFIG_HOME: tempDir('reg-xdg-'),
    GITHUB_RUN_ID: String(runId),
    GITHUB_RUN_ATTEMPT: '1',
    GITHUB_JOB: 'build',
    GITHUB_WORKFLOW: 'Build and advertise',
    ...extra,
  };
}

beforeAll(async () => {
  ({ server, token, regBin } = await startCiRegistry('action-user', 'ci'));
  rdfGraphType = (await api('POST', '/api/v1/types', { slug: 'rdf-graph', label: 'RDF graph' })).body.iri;
});
afterAll(async () => {
  await server.stop();
});

describe('action.yml', () => {
  it('is a composite action of bash steps that read every input through env, never inside a script', () => {
    expect(action.runs.using).toBe('composite');
    expect(action.inputs.registry?.required).toBe(true);
    const read = new Set<string>();
    for (const step of action.runs.steps) {
      expect(step.shell, step.name).toBe('bash');
      expect(step.run, step.name).toBeDefined();
      expect(step.run, `${step.name} has an expression in its script`).not.toMatch(/\$\{\{/);
      for (const value of Object.values(step.env ?? {}))
        for (const match of value.matchAll(/inputs\.([\w-]+)/g)) read.add(match[1]!);
    }
    expect([...read].sort()).toEqual(Object.keys(action.inputs).sort());
    for (const [name, input] of Object.entries(action.inputs)) {
      expect(input.description, name).toMatch(/\w/);
      if (name !== 'registry') expect(input.default, `${name} has a default`).toBeTypeOf('string');
    }
  });

  it('is documented: docs/ci/github-actions.md lists every input and output', () => {
    const doc = fs.readFileSync(path.join(ROOT, 'docs/ci/github-actions.md'), 'utf8');
    const rows = [...doc.matchAll(/^\| `([\w-]+)` \|/gm)].map((match) => match[1]!);
    expect(rows.sort()).toEqual([...Object.keys(action.inputs), ...Object.keys(action.outputs)].sort());
  });

  it('wires every output to an output its step writes', () => {
    const ids = new Map(action.runs.steps.map((step) => [step.id, step.run ?? '']));
    expect(Object.keys(action.outputs)).toEqual(
      expect.arrayContaining(['run', 'artifacts', 'produced-artifacts', 'consumed-artifacts']),
    );
    for (const [name, output] of Object.entries(action.outputs)) {
      const wired = /^\$\{\{ steps\.([\w-]+)\.outputs\.([\w-]+) \}\}$/.exec(output.value);
      expect(wired, name).not.toBeNull();
      expect(ids.has(wired![1]), `${name}: no step ${wired![1]}`).toBe(true);
      expect(ids.get(wired![1]), `${name}: step ${wired![1]} never writes ${wired![2]}`).toContain(
        `${wired![2]}=`,
      );
    }
  });
});

describe('the action in a GitHub Actions job', () => {
  it('advertises consumed and produced files from globs on one run, and sets the outputs to what the registry has', async () => {
    const workspace = workspaceWith([
      'out/graph.ttl',
      'out/nested/deeper/more.ttl',
      'out/notes.txt',
      'in/source data.ttl',
    ]);
    const result = await runWithBuiltCli(
      {
        registry: server.url,
        token,
        produced: 'out/**/*.ttl\n\n  out/notes.txt  \nout/graph.ttl\n././out/graph.ttl\n',
        consumed: 'in/*.ttl',
        type: 'rdf-graph',
        'run-label': 'Nightly build',
      },
      jobEnv(),
      workspace,
    );
    expect(result.code, result.stdout + result.stderr).toBe(0);
    const produced = JSON.parse(result.outputs['produced-artifacts']!) as string[];
    const consumed = JSON.parse(result.outputs['consumed-artifacts']!) as string[];
    // out/graph.ttl is named by a glob and by two spellings of its path, and advertised once.
    expect(produced).toHaveLength(3);
    expect(consumed).toHaveLength(1);
    expect(JSON.parse(result.outputs.artifacts!)).toEqual([...produced, ...consumed]);
    expect(result.outputs.spooled).toBe('false');

    const run = await api('GET', `/api/v1/runs/${idOf(result.outputs.run!)}`);
    expect(run.status).toBe(200);
    expect(run.body).toMatchObject({
      iri: result.outputs.run,
      external_key: `gh-actions/${runId}/build/attempt-1`,
      label: 'Nightly build',
    });
    expect((run.body.generated as { iri: string }[]).map((a) => a.iri).sort()).toEqual([...produced].sort());
    expect((run.body.used as { iri: string }[]).map((a) => a.iri)).toEqual(consumed);

    const byTitle = new Map<string, Record<string, any>>();
    for (const iri of [...produced, ...consumed]) {
      const artifact = (await api('GET', `/api/v1/artifacts/${idOf(iri)}`)).body;
      expect(artifact.conforms_to.iri).toBe(rdfGraphType);
      byTitle.set(artifact.title as string, artifact);
    }
    expect([...byTitle.keys()].sort()).toEqual(['graph.ttl', 'more.ttl', 'notes.txt', 'source data.ttl']);
    expect(byTitle.get('more.ttl')!.distributions[0].checksum.value).toBe(
      sha256(path.join(workspace, 'out/nested/deeper/more.ttl')),
    );
    expect(byTitle.get('source data.ttl')!.distributions[0].checksum.value).toBe(
      sha256(path.join(workspace, 'in/source data.ttl')),
    );
  });

  it('records nothing twice when the same job attempt runs the action again', async () => {
    const workspace = workspaceWith(['dist/tool.tar.gz']);
    const env = jobEnv();
    const inputs = { registry: server.url, token, produced: 'dist/*.tar.gz' };
    const first = await runWithBuiltCli(inputs, env, workspace);
    expect(first.code, first.stdout + first.stderr).toBe(0);
    const again = await runWithBuiltCli(inputs, env, workspace);
    expect(again.code, again.stdout + again.stderr).toBe(0);
    expect(again.outputs.run).toBe(first.outputs.run);
    expect(again.outputs.artifacts).toBe(first.outputs.artifacts);
    expect(again.stdout).toMatch(/"created":\s*false/);
  });

  it('passes inputs to the command line as data, never as shell code', async () => {
    const name = `odd $(touch pwned-name) 'single' "double" & ; | name.ttl`;
    const workspace = workspaceWith([name]);
    const label = '"; touch pwned-label; echo "$(touch pwned-sub) `touch pwned-tick`';
    const result = await runWithBuiltCli(
      { registry: server.url, token, produced: name, 'run-label': label },
      jobEnv(),
      workspace,
    );
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(fs.readdirSync(workspace).filter((file) => file.startsWith('pwned'))).toEqual([]);
    const run = await api('GET', `/api/v1/runs/${idOf(result.outputs.run!)}`);
    expect(run.body.label).toBe(label);
    const [artifact] = JSON.parse(result.outputs.artifacts!) as string[];
    expect((await api('GET', `/api/v1/artifacts/${idOf(artifact!)}`)).body.title).toBe(name);
  });

  it('uses the token input before a REG_TOKEN of the job', async () => {
    const workspace = workspaceWith(['report.json']);
    const result = await runWithBuiltCli(
      { registry: server.url, token, produced: 'report.json' },
      jobEnv({ REG_TOKEN: 'reg_not_a_real_token' }),
      workspace,
    );
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(result.outputs.run).toMatch(/\/run\//);
  });

  it('fails on a path or glob that matches no file, naming it, and sends nothing', async () => {
    const before = (await api('GET', '/api/v1/runs')).body.total as number;
    const workspace = workspaceWith(['out/a.ttl']);
    const result = await runWithBuiltCli(
      { registry: server.url, token, produced: 'out/a.ttl\nout/*.json' },
      jobEnv(),
      workspace,
    );
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('::error title=reg advertise::no file matches "out/*.json"');
    expect((await api('GET', '/api/v1/runs')).body.total).toBe(before);
  });

  it('fails with install false when the job has no reg on its PATH', async () => {
    const result = await runAction(
      { registry: server.url, token, install: 'false' },
      jobEnv({ PATH: process.env.PATH ?? '' }),
      workspaceWith([]),
    );
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(
      '::error title=reg advertise::install is false, but there is no reg command',
    );
  });

  it('fails without a registry, and on a dry-run that is neither true nor false', async () => {
    const workspace = workspaceWith([]);
    const missing = await runWithBuiltCli({ registry: '', token }, jobEnv(), workspace);
    expect(missing.code).toBe(1);
    expect(missing.stdout).toContain('::error title=reg advertise::the registry input is required');
    const odd = await runWithBuiltCli({ registry: server.url, token, 'dry-run': 'yes' }, jobEnv(), workspace);
    expect(odd.code).toBe(1);
    expect(odd.stdout).toContain('dry-run must be true or false, not "yes"');
  });

  it("fails with the command line's exit code when the registry refuses the advertisement", async () => {
    const workspace = workspaceWith(['x.ttl']);
    const result = await runWithBuiltCli(
      { registry: server.url, token, produced: 'x.ttl', type: 'https://example.org/no-such-type' },
      jobEnv(),
      workspace,
    );
    expect(result.code).toBe(8);
    expect(result.stdout + result.stderr).toContain('conforms_to');
    expect(result.outputs).toEqual({});
  });

  it('warns when the job has neither a token nor an OIDC token, and the registry refuses', async () => {
    const workspace = workspaceWith(['x.ttl']);
    const result = await runWithBuiltCli({ registry: server.url, produced: 'x.ttl' }, jobEnv(), workspace);
    expect(result.stdout).toContain('::warning title=reg advertise::no token input and no OIDC token');
    expect(result.code).toBe(9);
  });

  it('with dry-run true shows what would be recorded and records nothing', async () => {
    const before = (await api('GET', '/api/v1/runs')).body.total as number;
    const workspace = workspaceWith(['out/a.ttl']);
    const result = await runWithBuiltCli(
      { registry: server.url, token, produced: 'out/a.ttl', 'dry-run': 'true' },
      jobEnv(),
      workspace,
    );
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(result.stdout).toContain('"dry_run"');
    expect((await api('GET', '/api/v1/runs')).body.total).toBe(before);
  });

  it('with a spool keeps the advertisement when the registry is unreachable, and the step succeeds', async () => {
    const workspace = workspaceWith(['out/a.ttl']);
    const probe = http.createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as net.AddressInfo;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const spool = path.join(workspace, 'spool');
    const result = await runWithBuiltCli(
      { registry: `http://127.0.0.1:${port}`, token, produced: 'out/a.ttl', spool },
      jobEnv(),
      workspace,
    );
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(result.outputs).toMatchObject({ run: '', artifacts: '[]', spooled: 'true' });
    expect(fs.readdirSync(spool, { recursive: true }).length).toBeGreaterThan(0);
  });
});

/** GitHub's OIDC token endpoint, played on loopback: the real test provider signs GitHub-shaped tokens. */
async function tokenEndpoint(provider: TestProvider, requestToken: string, claims: Record<string, unknown>) {
  const audiences: string[] = [];
  const endpoint = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    if (request.headers.authorization !== `Bearer ${requestToken}` || url.pathname !== '/token') {
      response.writeHead(401).end();
      return;
    }
    const audience = url.searchParams.get('audience') ?? '';
    audiences.push(audience);
    void provider.signToken({ ...claims, aud: audience }).then((value) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ count: 1, value }));
    });
  });
  await new Promise<void>((resolve) => endpoint.listen(0, '127.0.0.1', resolve));
  const { port } = endpoint.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/token?api-version=2.0`,
    audiences,
    close: () => new Promise<void>((resolve) => endpoint.close(() => resolve())),
  };
}

describe('the action with the OIDC token of the job', () => {
  // GitHub's example claims; the provider fills in its own issuer, the audience asked for and fresh times.
  const claims = ciClaims('github-actions');
  const subject = claims.sub as string;
  let provider: TestProvider;
  let oidcServer: ServerProcess;

  beforeAll(async () => {
    provider = await startProvider({ audience: 'http://registry.test', clients: [] });
    oidcServer = await startServe(testEnv({ REG_WORKLOAD_ISSUERS: provider.issuer }));
    const software = await api('POST', '/api/v1/software', { name: 'tool' }, ROOT_TOKEN, oidcServer.url);
    const deployment = await api(
      'POST',
      '/api/v1/instances',
      {
        software: software.body.id,
        label: 'main branch',
        oidc_client_id: subject,
        oidc_issuer: provider.issuer,
      },
      ROOT_TOKEN,
      oidcServer.url,
    );
    expect(deployment.status, JSON.stringify(deployment.body)).toBe(201);
  });
  afterAll(async () => {
    await oidcServer?.stop();
    await provider?.stop();
  });

  it('advertises with no stored token, asking the token endpoint for the registry as audience', async () => {
    const requestToken = 'runner-request-token';
    const endpoint = await tokenEndpoint(provider, requestToken, claims);
    try {
      const workspace = workspaceWith(['site/index.html']);
      const result = await runWithBuiltCli(
        { registry: oidcServer.url, produced: 'site/**' },
        jobEnv({
          ACTIONS_ID_TOKEN_REQUEST_URL: endpoint.url,
          ACTIONS_ID_TOKEN_REQUEST_TOKEN: requestToken,
        }),
        workspace,
      );
      expect(result.code, result.stdout + result.stderr).toBe(0);
      expect(result.stdout).not.toContain('::warning');
      expect(endpoint.audiences).toContain('http://registry.test');
      const run = await api(
        'GET',
        `/api/v1/runs/${idOf(result.outputs.run!)}`,
        undefined,
        ROOT_TOKEN,
        oidcServer.url,
      );
      expect(run.status).toBe(200);
      expect(run.body.instance_label).toBe('main branch');
      expect((run.body.generated as { iri: string }[]).map((a) => a.iri)).toEqual(
        JSON.parse(result.outputs.artifacts!),
      );
    } finally {
      await endpoint.close();
    }
  });
});

describe('the install step', () => {
  it("asks npm for this action's own package and version, or the version given", async () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
      name: string;
      version: string;
    };
    // npm offline with an empty cache: it names what it was asked for and fails at once.
    const offline = { npm_config_offline: 'true', npm_config_cache: tempDir('reg-npm-cache-') };
    const own = await runAction({ registry: server.url, token }, jobEnv(offline), workspaceWith([]));
    expect(own.code).not.toBe(0);
    expect(own.stdout).toContain(`Installing ${pkg.name}@${pkg.version}\n`);
    expect(own.outputs).toEqual({});
    const given = await runAction(
      { registry: server.url, token, version: '0.0.9' },
      jobEnv(offline),
      workspaceWith([]),
    );
    expect(given.code).not.toBe(0);
    expect(given.stdout).toContain(`Installing ${pkg.name}@0.0.9\n`);
  });

  it('fails when the package input names no file', async () => {
    const result = await runAction(
      { registry: server.url, token, package: 'dist/missing.tgz' },
      jobEnv(),
      workspaceWith([]),
    );
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(
      '::error title=reg advertise::the package input names no file: dist/missing.tgz',
    );
  });

  it('installs the package from a tarball into a prefix of the job, puts reg on the PATH and advertises with it', async () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
      name: string;
      version: string;
    };
    const workspace = workspaceWith(['out/report.ttl']);
    // The tarball as an earlier step would have left it in the workspace; --ignore-scripts, as the tests have
    // just built (the prepack build would rebuild dist/ under the tests running alongside).
    const packed = JSON.parse(
      execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', workspace], {
        cwd: ROOT,
        encoding: 'utf8',
      }),
    ) as { filename: string }[];
    const env = jobEnv({
      // The built command line is not on this job's PATH: only what the step installs is.
      PATH: process.env.PATH ?? '',
      ...runnerNpmSettings(),
    });
    const result = await runAction(
      { registry: server.url, token, package: packed[0]!.filename, produced: 'out/*.ttl' },
      env,
      workspace,
    );
    expect(result.code, result.stdout + result.stderr).toBe(0);
    const reg = result.outputs.reg!;
    expect(reg).toMatch(/\/reg-cli\.[^/]+\/bin\/reg$/);
    expect(result.path).toEqual([path.dirname(reg)]);
    const installed = path.join(path.dirname(reg), '..', 'lib', 'node_modules', ...pkg.name.split('/'));
    expect(fs.realpathSync(reg)).toBe(fs.realpathSync(path.join(installed, 'bin', 'run.js')));
    expect(result.stdout).toContain(`${pkg.name} ${pkg.version} `);
    const run = await api('GET', `/api/v1/runs/${idOf(result.outputs.run!)}`);
    expect(run.body.generated_count).toBe(1);
  }, 600_000);
});
