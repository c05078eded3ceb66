import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/core/core.js';
import { createApp } from '../../src/http/app.js';
import { openTestCore } from '../helpers.js';
import { apiOf, type Json } from '../support/api.js';
import { ciClaims, startProvider, type TestProvider } from '../support/oidc.js';

/*
 * A deployment pipeline reports what it deployed with the workload token of its CI job: the deployment whose
 * trusted publisher the token matches is the one the event changes, and a token matching none is refused with
 * the binding's reason. Tokens are signed by a real OpenID provider on loopback playing GitHub Actions.
 */

const AUDIENCE = 'http://registry.test';
const DIGEST = `sha256:${'7'.repeat(64)}`;

let github: TestProvider;
let core: Core;
let api: ReturnType<typeof apiOf>;
let app: ReturnType<typeof createApp>;

beforeAll(async () => {
  github = await startProvider({ audience: AUDIENCE, kid: 'github', clients: [] });
  core = await openTestCore({ REG_WORKLOAD_ISSUERS: github.issuer }, true);
  app = createApp(core);
  api = apiOf(app);
});
afterAll(async () => {
  await core?.close();
  await github?.stop();
});

/** The claims of the GitHub Actions job deploying `octo-org/shop` to `environment`. */
const deployJob = (environment: string) =>
  ciClaims('github-actions', {
    sub: `repo:octo-org/shop:environment:${environment}`,
    environment,
    repository: 'octo-org/shop',
    repository_owner: 'octo-org',
    ref: 'refs/heads/main',
    ref_type: 'branch',
  });

const deployed = (id: string) => ({
  context: {
    version: '0.4.1',
    id,
    source: '/github/octo-org/shop',
    type: 'dev.cdevents.service.deployed.0.2.0',
    timestamp: '2026-05-01T12:00:00Z',
  },
  subject: {
    id: 'shop',
    type: 'service',
    content: {
      environment: { id: 'production' },
      artifactId: `pkg:oci/shop@${DIGEST.replace(':', '%3A')}?tag=4.2.0`,
    },
  },
});

const post = (event: Json, token: string) =>
  app.request('/api/v1/deployment-events', {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/cloudevents+json' },
    body: JSON.stringify({
      specversion: '1.0',
      id: event.context.id,
      source: event.context.source,
      type: event.context.type,
      data: event,
    }),
  });

describe('deployment events from a trusted publisher', () => {
  it('changes the deployment the workload token acts as, and refuses a token matching no binding', async () => {
    const software = await api.call('POST', '/api/v1/software', 201, { name: 'shop' });
    const instance = await api.call('POST', '/api/v1/instances', 201, {
      software: software.iri,
      label: 'shop production',
      trusted_publishers: [
        { issuer: github.issuer, claims: { repository: 'octo-org/shop', environment: 'production' } },
      ],
    });
    const answer = await api.expectStatus(
      await post(deployed('d1'), await github.signToken(deployJob('production'))),
      201,
    );
    expect(answer).toMatchObject({ instance: instance.iri, release: { version: '4.2.0', created: true } });
    expect(answer.entry.sender).toContain(github.issuer);
    const record = await api.call('GET', `/api/v1/instances/${instance.id}`, 200);
    expect(record).toMatchObject({
      environment: 'production',
      version: '4.2.0',
      release: answer.release.iri,
    });

    const refused = await api.expectStatus(
      await post(deployed('d2'), await github.signToken(deployJob('staging'))),
      403,
    );
    expect(refused.code).toBe('forbidden');
    expect(refused.detail).toContain('environment');
    expect((await api.call('GET', `/api/v1/instances/${instance.id}/history`, 200)).total).toBe(1);
  });
});
