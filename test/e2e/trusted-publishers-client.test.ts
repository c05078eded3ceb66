import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT_TOKEN, runReg, startServe, tempDir, testEnv, type ServerProcess } from '../helpers.js';
import { ciClaims, startProvider, type TestProvider } from '../support/oidc.js';

/*
 * `reg advertise` from a CI job with nothing stored but the job's own ID token: the registry (`reg serve`) trusts
 * the issuer, a software names the repository and tags that publish it, and the CLI sends the token it is given.
 */

const BASE_IRI = 'http://registry.test';
const SHA = '3c5e7a9b1d2f4a6c8e0b2d4f6a8c0e2b4d6f8a0c';

let provider: TestProvider;
let server: ServerProcess;
let software: Record<string, any>;

async function api(method: string, route: string, body?: unknown) {
  const response = await fetch(`${server.url}${route}`, {
    method,
    headers: { authorization: `Bearer ${ROOT_TOKEN}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}

const idOf = (iri: string): string => iri.slice(iri.lastIndexOf('/') + 1);

/** The environment of a CI job whose only credential is `token`. */
function jobEnv(token: string): Record<string, string> {
  return { REG_URL: server.url, REG_TOKEN: token, XDG_CONFIG_HOME: tempDir('reg-xdg-') };
}

/** A GitHub Actions ID token of `octo-org/cli-tool` with the given changes, signed by the test provider. */
function jobToken(changes: Record<string, unknown> = {}): Promise<string> {
  return provider.signToken(
    ciClaims('github-actions', {
      sub: 'repo:octo-org/cli-tool:environment:production',
      repository: 'octo-org/cli-tool',
      repository_owner: 'octo-org',
      environment: 'production',
      ref: 'refs/tags/v3.1.0',
      ref_type: 'tag',
      sha: SHA,
      run_id: '5150',
      run_attempt: '1',
      job_workflow_ref: 'octo-org/cli-tool/.github/workflows/publish.yml@refs/tags/v3.1.0',
      ...changes,
    }),
  );
}

beforeAll(async () => {
  provider = await startProvider({ audience: BASE_IRI, kid: 'actions', clients: [] });
  server = await startServe(testEnv({ REG_WORKLOAD_ISSUERS: provider.issuer }));
  const created = await api('POST', '/api/v1/software', {
    name: 'cli tool',
    trusted_publishers: [
      {
        issuer: provider.issuer,
        claims: { repository: 'octo-org/cli-tool', ref: 'refs/tags/v*' },
        deployment_key: 'environment',
      },
    ],
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  software = created.body;
});

afterAll(async () => {
  await server?.stop();
  await provider?.stop();
});

describe('reg advertise with a CI job token and a trusted publisher', () => {
  it('advertises as the deployment the environment names, recording where the build came from', async () => {
    const result = await runReg(
      ['advertise', 'produced', '--run-key', 'publish-5150', '--title', 'cli-tool 3.1.0 tarball', '--json'],
      jobEnv(await jobToken()),
    );
    expect(result.code, result.stderr).toBe(0);
    const answer = JSON.parse(result.stdout) as { run: string; artifacts: string[] };
    expect(answer.artifacts).toHaveLength(1);

    const run = (await api('GET', `/api/v1/runs/${idOf(answer.run)}`)).body;
    expect(run).toMatchObject({
      external_key: 'publish-5150',
      source_repository: 'octo-org/cli-tool',
      source_ref: 'refs/tags/v3.1.0',
      source_commit: SHA,
      build_url: `${provider.issuer}/octo-org/cli-tool/actions/runs/5150/attempts/1`,
    });
    const deployment = (await api('GET', `/api/v1/instances/${idOf(run.instance)}`)).body;
    expect(deployment).toMatchObject({
      label: 'production',
      software: software.iri,
      instance_key: 'production',
      registered_by_publisher: true,
    });

    const audit = (await api('GET', '/api/v1/audit?action=advertise.produced')).body;
    const entry = audit.items.find((item: Record<string, any>) => item.target === answer.run);
    expect(entry.detail).toContain('repository=octo-org/cli-tool');
    expect(entry.detail).toContain(`build ${run.build_url}`);
  });

  it('exits 9 with one line naming the binding and the claim when the token is of a branch', async () => {
    const before = (await api('GET', '/api/v1/runs')).body.total as number;
    const result = await runReg(
      ['advertise', 'produced', '--run-key', 'branch-build', '--title', 'not a release'],
      jobEnv(await jobToken({ ref: 'refs/heads/main', ref_type: 'branch' })),
    );
    expect(result.code, result.stderr).toBe(9);
    const lines = result.stderr.trim().split('\n');
    expect(lines, result.stderr).toHaveLength(1);
    const refusal = lines[0];
    expect(refusal).toContain('403 Forbidden: no trusted publisher matches this workload token');
    expect(refusal).toContain(`the software ${software.iri} trusted_publishers[0]`);
    expect(refusal).toContain('ref must match "refs/tags/v*"');
    expect(refusal).toContain('"refs/heads/main"');
    expect((await api('GET', '/api/v1/runs')).body.total).toBe(before);
  });
});
