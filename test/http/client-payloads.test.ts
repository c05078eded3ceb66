/**
 * What real clients send is recorded exactly: the members the specification names are accepted and read back,
 * members nobody defines are ignored and named in `warnings`, a single IRI where a list is expected is a list
 * of one, and link fields take only the schemes a link may use. Payloads are those the reference's client
 * programs send, as sent.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/core/core.js';
import { createApp } from '../../src/http/app.js';
import { openTestCore, ROOT_TOKEN } from '../helpers.js';
import { apiOf, CC_BY, TYPE, type Json } from '../support/api.js';
import { startProvider, type TestProvider } from '../support/oidc.js';

const AUDIENCE = 'http://registry.test';
let provider: TestProvider;
let core: Core;
let api: ReturnType<typeof apiOf>;
let token: string;
let instance: Json;

beforeAll(async () => {
  provider = await startProvider({
    audience: AUDIENCE,
    kid: 'payloads-key',
    clients: [
      { id: 'reg-web' },
      { id: 'alice', claims: { realm_access: { roles: ['reg-curator'] }, name: 'Alice Curator' } },
    ],
  });
  core = await openTestCore({ REG_OIDC_ISSUER: provider.issuer, REG_OIDC_CLIENT_ID: 'reg-web' }, true);
  api = apiOf(createApp(core));
  ({ token, instance } = await api.deployment(undefined, 'payloads.example.org'));
});

afterAll(async () => {
  await core?.close();
  await provider?.stop();
});

describe('a run names itself with an identifier', () => {
  const run = {
    external_key: 'gh-actions/9912/attempt-1',
    status: 'success',
    label: 'validate-batch-7',
    identifier: 'nightly-validation-2026-11-26',
  };

  it('is accepted, stored, returned, searched and filtered on', async () => {
    const answer = await api.call('POST', '/api/v1/advertise/produced', 201, { run, artifacts: [] }, token);
    expect(answer.warnings).toBeUndefined();
    const id = String(answer.run).split('/').pop();
    const stored = await api.call('GET', `/api/v1/runs/${id}`, 200);
    expect(stored.identifier).toBe(run.identifier);
    const listed = await api.call('GET', '/api/v1/runs?q=nightly-validation', 200);
    expect(listed.items.map((item: Json) => item.iri)).toEqual([answer.run]);
    const found = await api.call('GET', '/api/v1/search?q=nightly-validation&type=run', 200);
    expect(found.hits.map((hit: Json) => hit.iri)).toContain(answer.run);
  });

  it('is replaced by a later advertisement of the same run, like its label', async () => {
    const later = { ...run, external_key: 'gh-actions/9913/attempt-1', identifier: 'first' };
    const first = await api.call(
      'POST',
      '/api/v1/advertise/produced',
      201,
      { run: later, artifacts: [] },
      token,
    );
    await api.call(
      'POST',
      '/api/v1/advertise/produced',
      200,
      { run: { ...later, identifier: 'second' } },
      token,
    );
    const id = String(first.run).split('/').pop();
    expect((await api.call('GET', `/api/v1/runs/${id}`, 200)).identifier).toBe('second');
  });
});

describe('members of older and newer clients', () => {
  it('ignores the instance member of an advertisement: the credential decides', async () => {
    const other = await api.deployment(undefined, 'someone-else.example.org');
    const answer = await api.call(
      'POST',
      '/api/v1/advertise/produced',
      201,
      {
        instance: other.instance.iri,
        run: { external_key: 'with-instance-member', status: 'success' },
        artifacts: [{ title: 'report', conforms_to: TYPE }],
      },
      token,
    );
    expect(answer.warnings).toBeUndefined();
    const id = String(answer.run).split('/').pop();
    expect((await api.call('GET', `/api/v1/runs/${id}`, 200)).instance).toBe(instance.iri);
  });

  it('takes a single IRI where a list is expected as a list of one', async () => {
    const earlier = 'https://other-registry.example.org/artifact/01J7ZQK8W0RXAB3M2C7YQ1V4TD';
    const answer = await api.call(
      'POST',
      '/api/v1/advertise/produced',
      201,
      {
        run: { external_key: 'single-iri', status: 'success' },
        artifacts: [{ title: 'revised report', conforms_to: TYPE, was_revision_of: earlier, keywords: 'qc' }],
      },
      token,
    );
    const artifact = await api.call(
      'GET',
      `/api/v1/artifacts/${String(answer.artifacts[0]).split('/').pop()}`,
      200,
    );
    expect(artifact.was_revision_of).toEqual([earlier]);
    expect(artifact.keywords).toEqual(['qc']);
  });

  it('records what it knows and names every member nobody defines in warnings', async () => {
    const answer = await api.call(
      'POST',
      '/api/v1/advertise/produced',
      201,
      {
        run: { external_key: 'with-typos', status: 'success', colour: 'blue' },
        artifacts: [
          {
            title: 'typo report',
            conforms_to: TYPE,
            licence: CC_BY,
            distributions: [{ download_url: 'https://data.example.org/r.ttl', size: 12 }],
            produced_by: { name: 'validator', kind: 'software', build: '7' },
          },
        ],
        client: 'reg-client 0.9',
      },
      token,
    );
    expect(answer.warnings).toEqual([
      'client is not a member of an advertisement and was ignored; send run and artifacts',
      'artifacts[0].licence is not a field of this record and was ignored',
      'artifacts[0].distributions[0].size is not a field of this record and was ignored',
      'artifacts[0].produced_by.build is not a field of an agent and was ignored',
      'run.colour is not a field of a run and was ignored',
    ]);
    const artifact = await api.call(
      'GET',
      `/api/v1/artifacts/${String(answer.artifacts[0]).split('/').pop()}`,
      200,
    );
    expect(artifact.title).toBe('typo report');
    expect(artifact.distributions[0].download_url).toBe('https://data.example.org/r.ttl');
    expect(artifact.produced_by.name ?? artifact.produced_by.agent?.name).toBe('validator');
  });

  it('warns about unknown members of software, releases and deployments without refusing them', async () => {
    const software = await api.call('POST', '/api/v1/software', 201, { name: 'liberal', colour: 'red' });
    expect(software.warnings).toEqual(['colour is not a field of this record and was ignored']);
    expect((await api.call('GET', `/api/v1/software/${software.id}`, 200)).colour).toBeUndefined();
    const patched = await api.call('PATCH', `/api/v1/software/${software.id}`, 200, {
      tagline: 'kept',
      taglne: 'typo',
    });
    expect(patched.warnings).toEqual(['taglne is not a field of this record and was ignored']);
    expect(patched.tagline).toBe('kept');
    const release = await api.call('POST', `/api/v1/software/${software.id}/releases`, 201, {
      version: '1.0.0',
      notes: 'x',
    });
    expect(release.warnings).toEqual(['notes is not a field of this record and was ignored']);
    const deployment = await api.call('POST', '/api/v1/instances', 201, {
      software: software.iri,
      label: 'liberal deployment',
      region: 'eu',
    });
    expect(deployment.warnings).toEqual(['region is not a field of this record and was ignored']);
  });

  it('reads the singular kind of older clients as kinds, and a single keyword as a list', async () => {
    const software = await api.call('POST', '/api/v1/software', 201, {
      name: 'older client',
      kind: 'cli',
      keywords: 'validation',
    });
    expect(software.warnings).toBeUndefined();
    expect(software.kinds).toEqual(['cli']);
    expect(software.kind).toBe('cli');
    expect(software.keywords).toEqual(['validation']);
    const both = await api.call('PATCH', `/api/v1/software/${software.id}`, 200, {
      kind: 'cli',
      kinds: ['service', 'cli'],
    });
    expect(both.kinds).toEqual(['service', 'cli']);
  });

  it('stores the availability and jurisdiction a deployment announces, and warns about the rest', async () => {
    const software = await api.call('POST', '/api/v1/software', 201, { name: 'announcer' });
    const minted = await api.call('POST', `/api/v1/software/${software.id}/tokens`, 201, {
      label: 'replicas',
      scopes: ['register:instance'],
    });
    const announcement = {
      label: 'announcer at node-1',
      instance_key: 'node-1',
      endpoint_url: 'https://node-1.example.org',
      health_endpoint: 'https://node-1.example.org/healthz',
      version: '1.0.0',
      availability: 'restricted',
      jurisdiction: 'NL',
      hostname: 'node-1',
    };
    const answer = await api.call('PUT', '/api/v1/instances/self', 201, announcement, minted.token);
    expect(answer.warnings).toEqual(['hostname is not a field of an announcement and was ignored']);
    const stored = await api.call('GET', `/api/v1/instances/${answer.id}`, 200);
    expect([stored.availability, stored.jurisdiction]).toEqual(['restricted', 'NL']);
  });

  it('still refuses members it knows that carry the wrong kind of value', async () => {
    const problem = await api.call('POST', '/api/v1/software', 422, { name: 'typed', deployable: 'yes' });
    expect(problem.errors.map((error: Json) => error.field)).toEqual(['deployable']);
  });
});

describe('link fields take only the schemes a link may use', () => {
  it('refuses javascript: and data: links, naming the field sent', async () => {
    const problem = await api.call('POST', '/api/v1/software', 422, {
      name: 'scripted',
      homepage: 'javascript:alert(document.cookie)',
      publisher: { name: 'p', kind: 'organization', homepage: 'data:text/html,<script>alert(1)</script>' },
    });
    expect(problem.errors.map((error: Json) => error.field).sort()).toEqual([
      'homepage',
      'publisher.homepage',
    ]);
    const advertised = await api.call(
      'POST',
      '/api/v1/advertise/produced',
      422,
      {
        run: { external_key: 'scripted-links' },
        artifacts: [
          {
            title: 'scripted',
            conforms_to: TYPE,
            landing_page: 'javascript:alert(1)',
            distributions: [{ download_url: 'data:text/plain,hello' }],
          },
        ],
      },
      token,
    );
    expect([...new Set(advertised.errors.map((error: Json) => error.field as string))].sort()).toEqual([
      'artifacts[0].distributions[0].download_url',
      'artifacts[0].landing_page',
    ]);
    const runs = await api.call('GET', `/api/v1/runs?q=scripted-links`, 200);
    expect(runs.items).toEqual([]);
  });

  it('accepts the schemes a field needs: data stores for distributions, mailto for access requests', async () => {
    const answer = await api.call(
      'POST',
      '/api/v1/advertise/produced',
      201,
      {
        run: { external_key: 'stores' },
        artifacts: [
          {
            title: 'orders table',
            conforms_to: TYPE,
            distributions: [
              {
                access_url: 'postgres://db.example.org:5432/shop.public.orders',
                availability: 'restricted',
                access_request_url: 'mailto:data-steward@example.org',
              },
              { download_url: 's3://bucket/orders.parquet' },
            ],
          },
        ],
      },
      token,
    );
    const artifact = await api.call(
      'GET',
      `/api/v1/artifacts/${String(answer.artifacts[0]).split('/').pop()}`,
      200,
    );
    expect(artifact.distributions.map((d: Json) => d.access_url ?? d.download_url)).toEqual([
      'postgres://db.example.org:5432/shop.public.orders',
      's3://bucket/orders.parquet',
    ]);
    expect(artifact.distributions[0].access_request_url).toBe('mailto:data-steward@example.org');
  });
});

describe('people register artifacts', () => {
  it('attributes an artifact registered by a curator to an agent of the registry for that account', async () => {
    const person = await provider.clientToken('alice');
    const whoami = await api.call('GET', '/api/v1/whoami', 200, undefined, person);
    expect(whoami.credential).toBe('oidc-human');
    const artifact = await api.call(
      'POST',
      '/api/v1/artifacts',
      201,
      { title: 'hand-curated list', conforms_to: TYPE },
      person,
    );
    expect(artifact.attributed_to).toHaveLength(1);
    const agent = String(artifact.attributed_to[0]);
    expect(agent).toMatch(/^http:\/\/registry\.test\/agent\/[0-9a-f]{32}$/);
    const again = await api.call(
      'POST',
      '/api/v1/artifacts',
      201,
      { title: 'second list', conforms_to: TYPE },
      person,
    );
    expect(again.attributed_to).toEqual([agent]);
    const described = await api.call(
      'GET',
      `/sparql?query=${encodeURIComponent(`SELECT ?id WHERE { <${agent}> <https://schema.org/identifier> ?id }`)}`,
      200,
    );
    expect(described.results.bindings.map((row: Json) => row.id.value)).toEqual([`${provider.issuer}|alice`]);
    const root = await api.call(
      'POST',
      '/api/v1/artifacts',
      201,
      { title: 'by root', conforms_to: TYPE },
      ROOT_TOKEN,
    );
    expect(root.attributed_to).toEqual(['urn:reg:root']);
  });
});
