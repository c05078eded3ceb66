import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/core/core.js';
import { createApp } from '../../src/http/app.js';
import { openTestCore, ROOT_TOKEN } from '../helpers.js';
import { apiOf, artifact, type Json } from '../support/api.js';
import { ciClaims, startProvider, type TestProvider } from '../support/oidc.js';

/*
 * Trusted publishers: a software or deployment names an issuer and claim patterns, and a workload token of that
 * issuer matching every pattern acts as the deployment (on a software, as the deployment keyed by a claim,
 * registered on first use). Tokens are signed by real OpenID providers on loopback, one playing GitHub Actions
 * and one GitLab CI, with the claims those systems put into their ID tokens.
 */

const AUDIENCE = 'http://registry.test';
const SHA = '9f2c4a1e6b0d3f5a7c8e9b1d2f4a6c8e0b2d4f6a';

let github: TestProvider;
let gitlab: TestProvider;
let people: TestProvider;
let stranger: TestProvider;
let core: Core;
let api: ReturnType<typeof apiOf>;

beforeAll(async () => {
  [github, gitlab, people, stranger] = await Promise.all([
    startProvider({ audience: AUDIENCE, kid: 'github', clients: [] }),
    startProvider({ audience: AUDIENCE, kid: 'gitlab', clients: [] }),
    startProvider({ audience: AUDIENCE, kid: 'people', clients: [] }),
    startProvider({ audience: AUDIENCE, kid: 'stranger', clients: [] }),
  ]);
  core = await openTestCore(
    { REG_OIDC_ISSUER: people.issuer, REG_WORKLOAD_ISSUERS: `${github.issuer},${gitlab.issuer}` },
    true,
  );
  api = apiOf(createApp(core));
});

afterAll(async () => {
  await core?.close();
  await Promise.all([github, gitlab, people, stranger].map((provider) => provider?.stop()));
});

/** The claims of a GitHub Actions job of `octo-org/tool` releasing tag v1.2.0 from its release workflow. */
function releaseJob(changes: Record<string, unknown> = {}): Record<string, unknown> {
  return ciClaims('github-actions', {
    sub: 'repo:octo-org/tool:environment:release',
    environment: 'release',
    repository: 'octo-org/tool',
    repository_owner: 'octo-org',
    ref: 'refs/tags/v1.2.0',
    ref_type: 'tag',
    sha: SHA,
    run_id: '7311',
    run_attempt: '2',
    job_workflow_ref: 'octo-org/tool/.github/workflows/release.yml@refs/tags/v1.2.0',
    ...changes,
  });
}

/** The claims of a GitLab CI job of `my-group/tool` on tag v2.0.0 in the environment `environment`. */
function tagPipeline(environment: string, changes: Record<string, unknown> = {}): Record<string, unknown> {
  return ciClaims('gitlab-ci', {
    project_path: 'my-group/tool',
    namespace_path: 'my-group',
    ref: 'v2.0.0',
    ref_type: 'tag',
    ref_path: 'refs/tags/v2.0.0',
    environment,
    sha: SHA,
    pipeline_id: '574',
    sub: 'project_path:my-group/tool:ref_type:tag:ref:v2.0.0',
    ...changes,
  });
}

/** The id of a record IRI: its last path segment. */
const idOf = (iri: string): string => iri.slice(iri.lastIndexOf('/') + 1);

async function whoami(token: string): Promise<Json> {
  return api.call('GET', '/api/v1/whoami', 200, undefined, token);
}

async function advertiseWith(token: string, title: string, status: number): Promise<Json> {
  const response = await api.send(
    'POST',
    '/api/v1/advertise/produced',
    { run: {}, artifacts: [artifact(title)] },
    token,
  );
  const body = (await response.json()) as Json;
  expect(response.status, JSON.stringify(body)).toBe(status);
  return body;
}

describe('trusted_publishers on software and deployments', () => {
  it('is stored and read back, validated on write, and kept by curators', async () => {
    const sw = await api.call('POST', '/api/v1/software', 201, {
      name: 'validated tool',
      trusted_publishers: [
        {
          issuer: 'https://token.actions.githubusercontent.com',
          claims: { repository: 'org/tool', ref: 'refs/tags/v*' },
          deployment_key: 'environment',
        },
        { issuer: 'https://gitlab.com', claims: { project_path: 'group/tool', ref_type: 'tag' } },
      ],
    });
    expect(sw.trusted_publishers).toEqual([
      {
        issuer: 'https://token.actions.githubusercontent.com',
        claims: { repository: 'org/tool', ref: 'refs/tags/v*' },
        deployment_key: 'environment',
      },
      { issuer: 'https://gitlab.com', claims: { project_path: 'group/tool', ref_type: 'tag' } },
    ]);
    expect((await api.call('GET', `/api/v1/software/${sw.id}`, 200)).trusted_publishers).toHaveLength(2);
    expect((await api.call('POST', '/api/v1/software', 201, { name: 'none' })).trusted_publishers).toEqual(
      [],
    );

    const refused = async (binding: Json, field: string): Promise<void> => {
      const body = await api.call('POST', '/api/v1/instances', 422, {
        software: sw.iri,
        label: 'refused',
        trusted_publishers: [binding],
      });
      expect(
        body.errors.map((error: Json) => error.field),
        JSON.stringify(body.errors),
      ).toContain(field);
    };
    const claims = { repository: 'org/tool' };
    await refused({ issuer: 'http://example.org', claims }, 'trusted_publishers[0].issuer');
    await refused({ issuer: 'ftp://example.org', claims }, 'trusted_publishers[0].issuer');
    await refused({ claims }, 'trusted_publishers[0].issuer');
    await refused({ issuer: 'https://gitlab.com', claims: {} }, 'trusted_publishers[0].claims');
    await refused({ issuer: 'https://gitlab.com' }, 'trusted_publishers[0].claims');
    await refused({ issuer: 'https://gitlab.com', claims: { ref: '' } }, 'trusted_publishers[0].claims');
    await refused({ issuer: 'https://gitlab.com', claims: { ref: 5 } }, 'trusted_publishers[0].claims');
    await refused({ issuer: 'https://gitlab.com', claims: ['ref'] }, 'trusted_publishers[0].claims');
    // A deployment is what a token acts as, so only a software binding names the claim that picks one.
    await refused(
      { issuer: 'https://gitlab.com', claims, deployment_key: 'environment' },
      'trusted_publishers[0].deployment_key',
    );
    const badKey = await api.call('PATCH', `/api/v1/software/${sw.id}`, 422, {
      trusted_publishers: [{ issuer: 'https://gitlab.com', claims, deployment_key: 'not a claim' }],
    });
    expect(badKey.errors.map((error: Json) => error.field)).toContain('trusted_publishers[0].deployment_key');

    // A provider on the same host may be plain http.
    const { instance, token } = await api.deployment(sw, 'loopback publisher');
    const loopback = { issuer: 'http://127.0.0.1:8080', claims: { repository: 'org/tool' } };
    const edited = await api.call('PATCH', `/api/v1/instances/${instance.id}`, 200, {
      trusted_publishers: [loopback],
    });
    expect(edited.trusted_publishers).toEqual([loopback]);
    // The deployment's own credential may not widen who acts as it.
    const own = await api.call(
      'PATCH',
      `/api/v1/instances/${instance.id}`,
      403,
      { trusted_publishers: [{ issuer: 'https://gitlab.com', claims: { project_path: '*' } }] },
      token,
    );
    expect(own.detail).toContain('trusted_publishers');
  });
});

describe('a deployment bound to GitHub Actions by claim patterns', () => {
  let deployment: Json;

  beforeAll(async () => {
    const sw = await api.call('POST', '/api/v1/software', 201, { name: 'octo tool' });
    deployment = await api.call('POST', '/api/v1/instances', 201, {
      software: sw.iri,
      label: 'release builds',
      trusted_publishers: [
        {
          issuer: github.issuer,
          claims: {
            repository: 'octo-org/tool',
            ref: 'refs/tags/v*',
            environment: 'release',
            job_workflow_ref: 'octo-org/tool/.github/workflows/release.yml@*',
          },
        },
      ],
    });
  });

  it('lets a matching token act as the deployment and records the build on the run and in the audit log', async () => {
    const token = await github.signToken(releaseJob());
    const me = await whoami(token);
    expect(me).toMatchObject({ authenticated: true, credential: 'oidc-workload', instance: deployment.iri });
    expect(me.scopes).toEqual(expect.arrayContaining(['advertise:produce', 'advertise:consume']));

    const advertised = await advertiseWith(token, 'release notes v1.2.0', 201);
    const run = await api.call('GET', `/api/v1/runs/${idOf(advertised.run)}`, 200);
    expect(run).toMatchObject({
      instance: deployment.iri,
      source_repository: 'octo-org/tool',
      source_ref: 'refs/tags/v1.2.0',
      source_commit: SHA,
      build_url: `${github.issuer}/octo-org/tool/actions/runs/7311/attempts/2`,
    });

    const audit = await api.call('GET', '/api/v1/audit?action=advertise.produced', 200);
    const entry = audit.items.find((item: Json) => item.target === advertised.run);
    expect(entry, JSON.stringify(audit.items)).toBeDefined();
    expect(entry.actor).toBe(`${github.issuer}|repo:octo-org/tool:environment:release`);
    expect(entry.detail).toContain(`${deployment.iri}#trusted-publisher-0`);
    expect(entry.detail).toContain('repository=octo-org/tool');
    expect(entry.detail).toContain('ref=refs/tags/v1.2.0');
    expect(entry.detail).toContain(
      'job_workflow_ref=octo-org/tool/.github/workflows/release.yml@refs/tags/v1.2.0',
    );
    expect(entry.detail).toContain(`commit ${SHA}`);
    expect(entry.detail).not.toContain(token);
  });

  it('matches every tag and workflow ref the globs allow', async () => {
    const token = await github.signToken(
      releaseJob({
        ref: 'refs/tags/v10.0.0-rc.1',
        job_workflow_ref: 'octo-org/tool/.github/workflows/release.yml@refs/heads/release/10',
      }),
    );
    expect((await whoami(token)).instance).toBe(deployment.iri);
    // Only * is special: a dot in a pattern is a dot.
    const lookalike = await github.signToken(
      releaseJob({ job_workflow_ref: 'octo-org/tool/.github/workflows/releaseXyml@refs/tags/v1.2.0' }),
    );
    expect((await whoami(lookalike)).instance).toBeNull();
  });

  it('refuses a token of another repository with a 403 naming the binding and the claim', async () => {
    const token = await github.signToken(
      releaseJob({ repository: 'octo-org/other', sub: 'repo:octo-org/other:environment:release' }),
    );
    expect((await whoami(token)).instance).toBeNull();
    const refused = await advertiseWith(token, 'from another repository', 403);
    expect(refused.detail).toContain(`the deployment ${deployment.iri} trusted_publishers[0]`);
    expect(refused.detail).toContain('repository must match "octo-org/tool"');
    expect(refused.detail).toContain('the token has "octo-org/other"');
    expect(refused.detail).not.toContain(token);
    // Every write a deployment makes says the same: OpenLineage events, attestations, subscriptions.
    const event = {
      eventType: 'COMPLETE',
      eventTime: '2026-11-27T02:00:00Z',
      run: { runId: '01935f5e-0000-7000-8000-000000000001' },
      job: { namespace: 'ci', name: 'release' },
      producer: 'https://example.org/producer',
    };
    const statement = {
      _type: 'https://in-toto.io/Statement/v1',
      subject: [],
      predicateType: 'x',
      predicate: {},
    };
    for (const [path, body] of [
      ['/api/v1/lineage', event],
      ['/api/v1/attestations', statement],
      [`/api/v1/instances/${idOf(deployment.iri)}/subscriptions`, { filter: {} }],
    ] as const) {
      const response = await api.send('POST', path, body, token);
      const problem = (await response.json()) as Json;
      expect(response.status, `${path}: ${JSON.stringify(problem)}`).toBe(403);
      expect(problem.detail).toContain('repository must match "octo-org/tool"');
    }
  });

  it('refuses a branch where the binding wants a tag, naming ref', async () => {
    const token = await github.signToken(releaseJob({ ref: 'refs/heads/main', ref_type: 'branch' }));
    const refused = await advertiseWith(token, 'from a branch', 403);
    expect(refused.detail).toContain('ref must match "refs/tags/v*"');
    expect(refused.detail).toContain('the token has "refs/heads/main"');
  });

  it('names a claim the token does not carry', async () => {
    const token = await github.signToken(releaseJob({ environment: undefined }));
    const refused = await advertiseWith(token, 'without an environment', 403);
    expect(refused.detail).toContain('environment must match "release"');
    expect(refused.detail).toContain('carries no such claim');
  });

  it('refuses a token for another audience, an expired one and one not valid yet, whatever its claims', async () => {
    const now = Math.floor(Date.now() / 1000);
    const otherAudience = await github.signToken(releaseJob({ aud: 'https://github.com/octo-org' }));
    expect((await advertiseWith(otherAudience, 'other audience', 401)).detail).toContain('audience');
    const expired = await github.signToken(releaseJob({ iat: now - 7200, exp: now - 3600 }));
    expect((await advertiseWith(expired, 'expired', 401)).detail).toContain('expired');
    const early = await github.signToken(releaseJob({ nbf: now + 3600, exp: now + 7200 }));
    expect((await advertiseWith(early, 'not yet', 401)).detail).toContain('nbf');
  });

  it('refuses a token of an issuer the registry does not trust, even with the same claims', async () => {
    await api.call('POST', '/api/v1/instances', 201, {
      software: deployment.software,
      label: 'bound to an untrusted issuer',
      trusted_publishers: [{ issuer: stranger.issuer, claims: { repository: 'octo-org/tool' } }],
    });
    const token = await stranger.signToken(releaseJob());
    const refused = await advertiseWith(token, 'untrusted issuer', 401);
    expect(refused.detail).toContain('is not trusted');
  });
});

describe('a software bound to GitLab CI, keyed by environment', () => {
  it('registers the deployment named by the environment on first use and reuses it after', async () => {
    const sw = await api.call('POST', '/api/v1/software', 201, {
      name: 'gitlab tool',
      trusted_publishers: [
        {
          issuer: gitlab.issuer,
          claims: { project_path: 'my-group/tool', ref_type: 'tag' },
          deployment_key: 'environment',
        },
      ],
    });
    const deploymentsOf = async (): Promise<Json[]> =>
      (await api.call('GET', `/api/v1/instances?software=${sw.id}`, 200)).items as Json[];
    expect(await deploymentsOf()).toEqual([]);

    const first = await advertiseWith(await gitlab.signToken(tagPipeline('release')), 'v2.0.0 bundle', 201);
    const [release, ...others] = await deploymentsOf();
    expect(others).toEqual([]);
    expect(release).toMatchObject({
      label: 'release',
      software: sw.iri,
      instance_key: 'release',
      registered_by_publisher: true,
    });
    const run = await api.call('GET', `/api/v1/runs/${idOf(first.run)}`, 200);
    expect(run).toMatchObject({
      instance: release!.iri,
      source_repository: 'my-group/tool',
      source_ref: 'v2.0.0',
      source_commit: SHA,
      build_url: `${gitlab.issuer}/my-group/tool/-/pipelines/574`,
    });

    const again = await gitlab.signToken(tagPipeline('release', { pipeline_id: '575', job_id: '303' }));
    expect((await whoami(again)).instance).toBe(release!.iri);
    const second = await advertiseWith(again, 'v2.0.0 bundle, again', 201);
    expect(second.run).not.toBe(first.run);
    expect((await api.call('GET', `/api/v1/runs/${idOf(second.run)}`, 200)).build_url).toBe(
      `${gitlab.issuer}/my-group/tool/-/pipelines/575`,
    );
    expect(await deploymentsOf()).toHaveLength(1);

    // Another environment is another deployment of the same software.
    const staging = await whoami(await gitlab.signToken(tagPipeline('staging')));
    expect(staging.instance).not.toBe(release!.iri);
    const keys = (await deploymentsOf()).map((deployment) => deployment.instance_key).sort();
    expect(keys).toEqual(['release', 'staging']);

    const registered = await api.call('GET', '/api/v1/audit?action=instance.publisher-register', 200);
    const entry = registered.items.find((item: Json) => item.target === release!.iri);
    expect(entry.detail).toContain('deployment "release"');
    expect(entry.detail).toContain('project_path=my-group/tool');
    expect(entry.detail).toContain(`${sw.iri}#trusted-publisher-0`);
  });

  it('registers nothing on a dry run: the deployment comes with the first real call', async () => {
    const sw = await api.call('POST', '/api/v1/software', 201, {
      name: 'gitlab tool tried first',
      trusted_publishers: [
        {
          issuer: gitlab.issuer,
          claims: { project_path: 'my-group/tried', ref_type: 'tag' },
          deployment_key: 'environment',
        },
      ],
    });
    const deploymentsOf = async (): Promise<Json[]> =>
      (await api.call('GET', `/api/v1/instances?software=${sw.id}`, 200)).items as Json[];
    const token = await gitlab.signToken(tagPipeline('release', { project_path: 'my-group/tried' }));
    const body = { run: {}, artifacts: [artifact('tried bundle')] };
    const dry = await api.send('POST', '/api/v1/advertise/produced?dry_run=true', body, token);
    const refusal = (await dry.json()) as Json;
    expect(dry.status, JSON.stringify(refusal)).toBe(403);
    expect(refusal.detail).toContain('a dry run registers nothing');
    expect(await deploymentsOf()).toEqual([]);
    await advertiseWith(token, 'tried bundle', 201);
    expect(await deploymentsOf()).toHaveLength(1);
    const again = await api.send('POST', '/api/v1/advertise/produced?dry_run=true', body, token);
    expect(again.status, await again.clone().text()).toBe(200);
    expect(((await again.json()) as Json).dry_run.records.length).toBeGreaterThan(0);
    expect(await deploymentsOf()).toHaveLength(1);
  });

  it('refuses a branch pipeline and a job without an environment, naming the claim', async () => {
    await api.call('POST', '/api/v1/software', 201, {
      name: 'gitlab tool, tags only',
      trusted_publishers: [
        {
          issuer: gitlab.issuer,
          claims: { project_path: 'my-group/tags-only', ref_type: 'tag' },
          deployment_key: 'environment',
        },
      ],
    });
    const branch = await gitlab.signToken(
      tagPipeline('release', { project_path: 'my-group/tags-only', ref_type: 'branch', ref: 'main' }),
    );
    const refused = await advertiseWith(branch, 'from a branch', 403);
    expect(refused.detail).toContain('ref_type must match "tag"');
    expect(refused.detail).toContain('the token has "branch"');
    const keyless = await gitlab.signToken(
      tagPipeline('release', { project_path: 'my-group/tags-only', environment: undefined }),
    );
    expect((await advertiseWith(keyless, 'no environment', 403)).detail).toContain(
      'deployment_key claim environment',
    );
  });
});

describe('bindings that overlap', () => {
  it('refuses a token that two bindings would make two different deployments, naming both', async () => {
    const sw = await api.call('POST', '/api/v1/software', 201, { name: 'overlapping tool' });
    const claims = { project_path: 'my-group/overlap' };
    const first = await api.call('POST', '/api/v1/instances', 201, {
      software: sw.iri,
      label: 'first',
      trusted_publishers: [{ issuer: gitlab.issuer, claims }],
    });
    const second = await api.call('POST', '/api/v1/instances', 201, {
      software: sw.iri,
      label: 'second',
      trusted_publishers: [{ issuer: gitlab.issuer, claims: { ...claims, ref_type: 'tag' } }],
    });
    const token = await gitlab.signToken(tagPipeline('release', { project_path: 'my-group/overlap' }));
    const refused = await advertiseWith(token, 'ambiguous', 403);
    expect(refused.detail).toContain('act as different deployments');
    expect(refused.detail).toContain(first.iri);
    expect(refused.detail).toContain(second.iri);
  });
});

describe('people and exact bindings', () => {
  it('never lets a person act through a trusted publisher, even with matching claims', async () => {
    const sw = await api.call('POST', '/api/v1/software', 201, { name: 'people tool' });
    const bound = await api.call('POST', '/api/v1/instances', 201, {
      software: sw.iri,
      label: 'bound to people',
      trusted_publishers: [{ issuer: people.issuer, claims: { repository: 'octo-org/tool' } }],
    });
    const curator = await people.signToken({
      sub: 'alice',
      sid: 'session-1',
      repository: 'octo-org/tool',
      realm_access: { roles: ['curator'] },
    });
    const asCurator = await whoami(curator);
    expect(asCurator).toMatchObject({ credential: 'oidc-human', instance: null, is_curator: true });
    const signedIn = await people.signToken({ sub: 'bob', sid: 'session-2', repository: 'octo-org/tool' });
    expect(await whoami(signedIn)).toMatchObject({ credential: 'oidc-human', instance: null });
    const refused = await advertiseWith(signedIn, 'from a person', 403);
    expect(refused.detail).not.toContain('trusted publisher');
    // A workload of the same (primary) issuer with the same claims does act through it.
    const workload = await people.signToken({ sub: 'ci-bot', repository: 'octo-org/tool' });
    expect(await whoami(workload)).toMatchObject({ credential: 'oidc-workload', instance: bound.iri });
  });

  it('keeps binding a token by its exact sub through oidc_client_id', async () => {
    const sw = await api.call('POST', '/api/v1/software', 201, { name: 'exact tool' });
    const sub = 'repo:octo-org/exact:ref:refs/heads/main';
    const exact = await api.call('POST', '/api/v1/instances', 201, {
      software: sw.iri,
      label: 'exact sub',
      oidc_client_id: sub,
      oidc_issuer: github.issuer,
    });
    const token = await github.signToken(
      releaseJob({ sub, repository: 'octo-org/exact', ref: 'refs/heads/main', environment: undefined }),
    );
    expect((await whoami(token)).instance).toBe(exact.iri);
    const run = await api.call(
      'GET',
      `/api/v1/runs/${encodeURIComponent((await advertiseWith(token, 'exact', 201)).run)}`,
      200,
    );
    expect(run.instance).toBe(exact.iri);
    expect(run.source_repository).toBeUndefined();
  });
});

it('answers the root token as before', async () => {
  expect((await whoami(ROOT_TOKEN)).credential).toBe('root-token');
});

describe('a registry closed to anonymous reads', () => {
  it('says why a workload token of a trusted issuer matched no trusted publisher when it reads', async () => {
    const closed = await openTestCore(
      { REG_WORKLOAD_ISSUERS: github.issuer, REG_PUBLIC_READ: 'false' },
      true,
    );
    try {
      const closedApi = apiOf(createApp(closed));
      const sw = await closedApi.call('POST', '/api/v1/software', 201, { name: 'closed tool' });
      await closedApi.call('POST', '/api/v1/instances', 201, {
        software: sw.iri,
        label: 'closed release builds',
        trusted_publishers: [{ issuer: github.issuer, claims: { repository: 'octo-org/closed' } }],
      });
      const token = await github.signToken(releaseJob());
      const refused = await closedApi.call('GET', '/api/v1/software', 401, undefined, token);
      expect(refused.detail).toContain('this registry does not allow anonymous reads');
      expect(refused.detail).toContain('repository must match "octo-org/closed"');
      const matching = await github.signToken(releaseJob({ repository: 'octo-org/closed' }));
      expect((await closedApi.call('GET', '/api/v1/software', 200, undefined, matching)).total).toBe(1);
    } finally {
      await closed.close();
    }
  });
});
