import http from 'node:http';
import type net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT_TOKEN, runReg, startServe, tempDir, testEnv, type ServerProcess } from '../helpers.js';
import { completeRunEvent } from '../support/openlineage.js';
import { startProvider, type TestProvider } from '../support/oidc.js';

/*
 * A client command in a CI job with no stored token: in GitHub Actions it asks the job's token endpoint (played
 * here by a loopback server that has the real test OpenID provider sign a GitHub-shaped token for the audience it
 * is asked for); in GitLab CI it reads the id_tokens variable. The registry trusts the provider as a workload
 * issuer and binds each token's `sub` to a deployment.
 */

const BASE_IRI = 'http://registry.test';
const GITHUB_SUB = 'repo:org/tool:ref:refs/heads/main';
const GITLAB_SUB = 'project_path:group/tool:ref_type:branch:ref:main';
const REQUEST_TOKEN = 'actions-request-token-0123456789';

type Json = Record<string, any>;

let provider: TestProvider;
let server: ServerProcess;
let endpoint: {
  url: string;
  asked: URLSearchParams[];
  issued: string[];
  failWith?: number;
  close(): Promise<void>;
};
let githubDeployment: string;
let gitlabDeployment: string;

async function api(method: string, route: string, body?: unknown): Promise<{ status: number; body: Json }> {
  const response = await fetch(`${server.url}${route}`, {
    method,
    headers: { authorization: `Bearer ${ROOT_TOKEN}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json()) as Json };
}

/** GitHub's token endpoint as a job sees it: bearer request token in, `{"value": <JWT for the audience>}` out. */
async function tokenEndpoint(): Promise<typeof endpoint> {
  const state: typeof endpoint = {
    url: '',
    asked: [],
    issued: [],
    close: () => new Promise((resolve) => void server.close(() => resolve())),
  };
  const server = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    state.asked.push(url.searchParams);
    if (state.failWith !== undefined || request.headers.authorization !== `Bearer ${REQUEST_TOKEN}`) {
      response.writeHead(state.failWith ?? 401, { 'content-type': 'application/json' });
      response.end('{"message":"refused"}');
      return;
    }
    void provider
      .signToken({
        aud: url.searchParams.get('audience') ?? undefined,
        sub: GITHUB_SUB,
        repository: 'org/tool',
        ref: 'refs/heads/main',
        sha: '0123456789abcdef0123456789abcdef01234567',
        run_id: '4242',
        job_workflow_ref: 'org/tool/.github/workflows/build.yml@refs/heads/main',
      })
      .then((token) => {
        state.issued.push(token);
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ count: 1, value: token }));
      });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}/token?api-version=2.0`;
  return state;
}

async function deploymentFor(sub: string, label: string): Promise<string> {
  const software = await api('POST', '/api/v1/software', { name: `software of ${label}` });
  expect(software.status, JSON.stringify(software.body)).toBe(201);
  const instance = await api('POST', '/api/v1/instances', {
    software: software.body.iri,
    label,
    oidc_client_id: sub,
    oidc_issuer: provider.issuer,
  });
  expect(instance.status, JSON.stringify(instance.body)).toBe(201);
  return instance.body.iri as string;
}

beforeAll(async () => {
  provider = await startProvider({ audience: BASE_IRI, clients: [] });
  server = await startServe(testEnv({ REG_WORKLOAD_ISSUERS: provider.issuer }));
  endpoint = await tokenEndpoint();
  githubDeployment = await deploymentFor(GITHUB_SUB, 'github-build');
  gitlabDeployment = await deploymentFor(GITLAB_SUB, 'gitlab-build');
});

afterAll(async () => {
  await server?.stop();
  await endpoint?.close();
  await provider?.stop();
});

/** A client environment with no token and no config file, plus the CI variables given. */
const clientEnv = (ci: Record<string, string>): Record<string, string> => ({
  REG_URL: server.url,
  XDG_CONFIG_HOME: tempDir('reg-xdg-'),
  HOME: tempDir('reg-home-'),
  ...ci,
});

const githubEnv = (runId: string): Record<string, string> =>
  clientEnv({
    ACTIONS_ID_TOKEN_REQUEST_URL: endpoint.url,
    ACTIONS_ID_TOKEN_REQUEST_TOKEN: REQUEST_TOKEN,
    GITHUB_RUN_ID: runId,
    GITHUB_JOB: 'build',
    GITHUB_RUN_ATTEMPT: '1',
    GITHUB_WORKFLOW: 'build',
  });

const artifactFlag = (title: string): string =>
  `title=${title},type=http://edamontology.org/data_0006,url=https://data.example.org/${title}.ttl`;

const idOf = (iri: string): string => iri.slice(iri.lastIndexOf('/') + 1);

describe('in GitHub Actions', () => {
  it('advertises with the OIDC token asked for the base IRI, and says so without printing it', async () => {
    const before = endpoint.issued.length;
    const result = await runReg(
      ['advertise', 'produced', '--artifact', artifactFlag('gh-report'), '--json'],
      githubEnv('9001'),
    );
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain(`using the GitHub Actions OIDC token (audience ${BASE_IRI})`);
    expect(endpoint.issued.length).toBe(before + 1);
    const token = endpoint.issued.at(-1) ?? '';
    expect(result.stderr + result.stdout).not.toContain(token);
    // The audience is the registry's base IRI, read from the registry, not its URL; the job's query is kept.
    const asked = endpoint.asked.at(-1);
    expect(asked?.get('audience')).toBe(BASE_IRI);
    expect(asked?.get('api-version')).toBe('2.0');
    const answer = JSON.parse(result.stdout) as Json;
    expect(answer.created).toBe(true);
    const run = await api('GET', `/api/v1/runs/${idOf(answer.run)}`);
    expect(run.status).toBe(200);
    expect(run.body.instance).toBe(githubDeployment);
    expect(run.body.external_key).toBe('gh-actions/9001/build/attempt-1');
  });

  it('reg whoami names the deployment the token acts as', async () => {
    const result = await runReg(['whoami', '--json'], githubEnv('9002'));
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain('using the GitHub Actions OIDC token');
    const me = JSON.parse(result.stdout) as Json;
    expect(me.authenticated).toBe(true);
    expect(me.instance).toBe(githubDeployment);
  });

  it('reg openlineage send records the event as a run of that deployment', async () => {
    const event = completeRunEvent(
      'ci-lineage',
      new Date().toISOString(),
      [],
      [{ namespace: 'https://data.example.org', name: 'ci-output.csv' }],
    );
    const result = await runReg(
      ['openlineage', 'send', '-', '--json'],
      githubEnv('9006'),
      JSON.stringify(event),
    );
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain('using the GitHub Actions OIDC token');
    expect(JSON.parse(result.stdout)).toMatchObject({ sent: 1, accepted: 1, refused: 0 });
    const runs = await api('GET', `/api/v1/runs?instance=${encodeURIComponent(githubDeployment)}&limit=200`);
    const lineageRun = (runs.body.items as Json[]).find((run) => JSON.stringify(run).includes('ci-lineage'));
    expect(lineageRun?.instance).toBe(githubDeployment);
  });

  it('a token given as REG_TOKEN is used instead, and the endpoint is not asked', async () => {
    const asked = endpoint.asked.length;
    const result = await runReg(['whoami', '--json'], { ...githubEnv('9003'), REG_TOKEN: ROOT_TOKEN });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).not.toContain('OIDC token');
    expect(endpoint.asked.length).toBe(asked);
    expect((JSON.parse(result.stdout) as Json).instance ?? null).toBeNull();
  });

  it('asks for the audience the registry says it checks, when the operator set one', async () => {
    const other = await startServe(
      testEnv({ REG_WORKLOAD_ISSUERS: provider.issuer, REG_OIDC_AUDIENCE: 'https://audience.example.org' }),
    );
    try {
      const result = await runReg(['whoami', '--json'], { ...githubEnv('9007'), REG_URL: other.url });
      expect(result.code, result.stderr).toBe(0);
      expect(result.stderr).toContain(
        'using the GitHub Actions OIDC token (audience https://audience.example.org)',
      );
      expect(endpoint.asked.at(-1)?.get('audience')).toBe('https://audience.example.org');
    } finally {
      await other.stop();
    }
  });

  it('a token endpoint that refuses is one line on stderr and exit 14, and nothing is advertised', async () => {
    const runs = (await api('GET', '/api/v1/runs?limit=200')).body.total as number;
    endpoint.failWith = 403;
    try {
      const result = await runReg(
        ['advertise', 'produced', '--artifact', artifactFlag('gh-refused')],
        githubEnv('9004'),
      );
      expect(result.code).toBe(14);
      const lines = result.stderr.trim().split('\n');
      expect(lines[0]).toMatch(/^reg: the GitHub Actions OIDC token endpoint answered 403$/);
      expect(lines.slice(1).every((line) => line.startsWith('  hint: '))).toBe(true);
    } finally {
      delete endpoint.failWith;
    }
    expect((await api('GET', '/api/v1/runs?limit=200')).body.total).toBe(runs);
  });

  it('--json gives the failure as an object with exit_code 14', async () => {
    const result = await runReg(['whoami', '--json'], {
      ...githubEnv('9005'),
      ACTIONS_ID_TOKEN_REQUEST_TOKEN: 'not-the-request-token',
    });
    expect(result.code).toBe(14);
    const error = (JSON.parse(result.stdout) as Json).error as Json;
    expect(error).toMatchObject({ code: 'ci-token', exit_code: 14 });
  });
});

describe('in GitLab CI', () => {
  it('advertises with the ID token of REG_ID_TOKEN and says so', async () => {
    const token = await provider.signToken({
      sub: GITLAB_SUB,
      project_path: 'group/tool',
      ref: 'main',
      ref_type: 'branch',
      pipeline_id: '77',
    });
    const env = clientEnv({
      REG_ID_TOKEN: token,
      CI_PIPELINE_ID: '77',
      CI_JOB_ID: '701',
      CI_JOB_NAME: 'build',
    });
    const result = await runReg(
      ['advertise', 'produced', '--artifact', artifactFlag('gl-report'), '--json'],
      env,
    );
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain(`using the GitLab CI ID token from REG_ID_TOKEN (audience ${BASE_IRI})`);
    expect(result.stderr + result.stdout).not.toContain(token);
    const answer = JSON.parse(result.stdout) as Json;
    const run = await api('GET', `/api/v1/runs/${idOf(answer.run)}`);
    expect(run.body.instance).toBe(gitlabDeployment);
    expect(run.body.external_key).toBe('gitlab/77/701');
  });

  it('REG_ID_TOKEN_VAR names another variable; an empty one is exit 14', async () => {
    const token = await provider.signToken({ sub: GITLAB_SUB });
    const named = await runReg(
      ['whoami', '--json'],
      clientEnv({ REG_ID_TOKEN_VAR: 'REGISTRY_JWT', REGISTRY_JWT: token }),
    );
    expect(named.code, named.stderr).toBe(0);
    expect(named.stderr).toContain('using the GitLab CI ID token from REGISTRY_JWT');
    expect((JSON.parse(named.stdout) as Json).instance).toBe(gitlabDeployment);
    const missing = await runReg(['whoami'], clientEnv({ REG_ID_TOKEN_VAR: 'REGISTRY_JWT' }));
    expect(missing.code).toBe(14);
    expect(missing.stderr).toMatch(/^reg: REGISTRY_JWT must hold the job's ID token\n/);
  });

  it('a token for another audience is refused by the registry (exit 9)', async () => {
    const token = await provider.signToken({ sub: GITLAB_SUB, aud: 'https://elsewhere.example.org' });
    const result = await runReg(
      ['advertise', 'produced', '--run-key', 'gl/other-audience', '--artifact', artifactFlag('gl-other')],
      clientEnv({ REG_ID_TOKEN: token }),
    );
    expect(result.stderr).toContain('(audience https://elsewhere.example.org)');
    expect(result.code).toBe(9);
  });
});
