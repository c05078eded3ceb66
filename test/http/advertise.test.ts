import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/core/core.js';
import { listAudit } from '../../src/core/store/audit.js';
import { createApp } from '../../src/http/app.js';
import { openTestCore, ROOT_TOKEN } from '../helpers.js';

let core: Core;
let app: ReturnType<typeof createApp>;
let token: string;
let otherToken: string;
let instanceIri: string;
let softwareId: string;
const root = { authorization: `Bearer ${ROOT_TOKEN}`, 'content-type': 'application/json' };
const TYPE = 'http://edamontology.org/data_0006';
const SHA = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';

async function post(path: string, body: unknown, bearer = token) {
  const response = await app.request(path, {
    method: 'POST',
    headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}

async function created(path: string, body: unknown) {
  const response = await app.request(path, { method: 'POST', headers: root, body: JSON.stringify(body) });
  return (await response.json()) as Record<string, any>;
}

const countOf = async (type: string) =>
  Number(
    (
      await core.graph.select(`SELECT (COUNT(*) AS ?n) WHERE { GRAPH <urn:reg:local> { ?s a <${type}> } }`)
    )[0]!.n!.value,
  );

beforeAll(async () => {
  core = await openTestCore({}, true);
  app = createApp(core);
  const software = await created('/api/v1/software', { name: 'producer' });
  const instance = await created('/api/v1/instances', { software: software.id, label: 'ci' });
  const other = await created('/api/v1/instances', { software: software.id, label: 'ci-2' });
  instanceIri = instance.iri;
  softwareId = software.id;
  token = (await created(`/api/v1/instances/${instance.id}/tokens`, {})).token;
  otherToken = (await created(`/api/v1/instances/${other.id}/tokens`, {})).token;
});
afterAll(async () => core.close());

const payload = (key: string, status = 'success') => ({
  run: { external_key: key, status, started_at: '2026-11-01T10:00:00Z' },
  artifacts: [
    {
      title: 'Validation report',
      conforms_to: TYPE,
      keywords: ['shacl'],
      was_derived_from: ['https://other-registry.example.org/artifact/abc'],
      distributions: [
        {
          download_url: 'https://data.example.org/report.ttl',
          media_type: 'text/turtle',
          checksum: { algorithm: 'SHA-256', value: SHA },
        },
      ],
      produced_by: { name: 'shacl-manager', version: '2.1.0' },
      produced_by_user: { name: 'Ada', identifier: 'https://orcid.org/0000-0002-1825-0097' },
    },
  ],
});

describe('advertise', () => {
  it('creates the run and its artifacts once; a retry is 200 created:false', async () => {
    const first = await post('/api/v1/advertise/produced', payload('job-1'));
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect(first.body).toMatchObject({
      created: true,
      queued_for_resolution: ['https://other-registry.example.org/artifact/abc'],
    });
    expect(first.body.run).toMatch(/\/run\//);
    const again = await post('/api/v1/advertise/produced', payload('job-1'));
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({
      run: first.body.run,
      artifacts: first.body.artifacts,
      created: false,
    });
    const artifact = (await (
      await app.request(
        `${new URL(first.body.artifacts[0]).pathname.replace('/artifact/', '/api/v1/artifacts/')}`,
      )
    ).json()) as Record<string, any>;
    void artifact;
  });

  it('moves a running run to its outcome on a later call', async () => {
    const start = await post('/api/v1/advertise/produced', {
      run: { external_key: 'job-2', status: 'running' },
      artifacts: [],
    });
    expect(start.status).toBe(201);
    const done = await post('/api/v1/advertise/produced', {
      run: { external_key: 'job-2', status: 'success', ended_at: '2026-11-01T10:05:00Z' },
      artifacts: [],
    });
    expect(done.body.run).toBe(start.body.run);
    const statuses = await core.graph.select(
      `SELECT ?s WHERE { GRAPH ?g { <${start.body.run}> <https://w3id.org/reg/ns#status> ?s } }`,
    );
    expect(statuses.map((row) => row.s!.value)).toEqual(['success']);
  });

  it('scopes run keys to the advertising deployment', async () => {
    const mine = await post('/api/v1/advertise/produced', {
      run: { external_key: 'shared-key' },
      artifacts: [],
    });
    const theirs = await post(
      '/api/v1/advertise/produced',
      { run: { external_key: 'shared-key' }, artifacts: [] },
      otherToken,
    );
    expect(theirs.status).toBe(201);
    expect(theirs.body.run).not.toBe(mine.body.run);
  });

  it('mints a new run on every call without a key', async () => {
    const a = await post('/api/v1/advertise/produced', { artifacts: [] });
    const b = await post('/api/v1/advertise/produced', { artifacts: [] });
    expect(a.body.run).not.toBe(b.body.run);
  });

  it('writes nothing, not even the run, when one artifact among good ones is bad', async () => {
    const runs = await countOf('http://www.w3.org/ns/prov#Activity');
    const datasets = await countOf('http://www.w3.org/ns/dcat#Dataset');
    const audits = listAudit(core.db, { limit: 1 })[0]!.id;
    const bad = payload('job-bad');
    bad.artifacts.push({
      ...bad.artifacts[0]!,
      title: 'second',
      conforms_to: 'https://example.org/no-such-type',
    });
    const refused = await post('/api/v1/advertise/produced', bad);
    expect(refused.status).toBe(422);
    expect(refused.body.errors[0].field).toBe('artifacts[1].conforms_to');
    expect(await countOf('http://www.w3.org/ns/prov#Activity')).toBe(runs);
    expect(await countOf('http://www.w3.org/ns/dcat#Dataset')).toBe(datasets);
    expect(listAudit(core.db, { limit: 1 })[0]!.id).toBe(audits);
  });

  it("pages a deployment's runs", async () => {
    const path = `${new URL(instanceIri).pathname.replace('/instance/', '/api/v1/instances/')}/runs`;
    const first = (await (await app.request(`${path}?limit=1`)).json()) as {
      items: unknown[];
      total: number;
      next_cursor?: string;
    };
    expect(first.items).toHaveLength(1);
    expect(first.total).toBeGreaterThan(1);
    expect(first.next_cursor).toBeTypeOf('string');
  });

  it('counts what a deployment did: recent runs, failures, artifacts, last run', async () => {
    await post('/api/v1/advertise/produced', {
      run: { external_key: 'job-failed', status: 'failed' },
      artifacts: [],
    });
    const path = new URL(instanceIri).pathname.replace('/instance/', '/api/v1/instances/');
    const body = (await (await app.request(path)).json()) as Record<string, any>;
    const started = await core.graph.select(
      `SELECT ?start WHERE { GRAPH <urn:reg:local> { ?r <http://www.w3.org/ns/prov#wasAssociatedWith> <${instanceIri}> ; <http://www.w3.org/ns/prov#startedAtTime> ?start } }`,
    );
    const monthAgo = Date.now() - 30 * 86_400_000;
    expect(body.runs_30d).toBe(started.filter((row) => Date.parse(row.start!.value) >= monthAgo).length);
    expect(body.runs_30d).toBeGreaterThanOrEqual(1);
    expect(body.failures_30d).toBe(1);
    expect(body.artifact_count).toBeGreaterThanOrEqual(1);
    // The count is what the deployment's artifact list holds: a foreign input (no record here) is not counted,
    // an artifact the deployment registered without a run is.
    const counted = async () => {
      const deployment = (await (await app.request(path)).json()) as { artifact_count: number };
      const listed = (await (await app.request(`${path}/artifacts?limit=1`)).json()) as { total: number };
      expect(deployment.artifact_count).toBe(listed.total);
      return deployment.artifact_count;
    };
    const consumed = await post('/api/v1/advertise/consumed', {
      run: { external_key: 'job-foreign-input' },
      artifacts: [{ iri: 'https://other-registry.example.org/artifact/input' }],
    });
    expect(consumed.status, JSON.stringify(consumed.body)).toBe(201);
    expect(await counted()).toBe(body.artifact_count);
    const direct = await post('/api/v1/artifacts', { title: 'registered directly', conforms_to: TYPE });
    expect(direct.status, JSON.stringify(direct.body)).toBe(201);
    expect(await counted()).toBe(body.artifact_count + 1);
    expect(body.last_run_at).toBeTypeOf('string');
    // The software counts the recent runs of all its deployments.
    const software = (await (await app.request(`/api/v1/software/${softwareId}`)).json()) as Record<
      string,
      any
    >;
    const all = await core.graph.select(
      `SELECT ?start WHERE { GRAPH <urn:reg:local> { ?i <https://w3id.org/reg/ns#instanceOf> <${software.iri}> .
         ?r <http://www.w3.org/ns/prov#wasAssociatedWith> ?i ; <http://www.w3.org/ns/prov#startedAtTime> ?start } }`,
    );
    expect(software.runs_30d).toBe(all.filter((row) => Date.parse(row.start!.value) >= monthAgo).length);
    expect(software.runs_30d).toBeGreaterThanOrEqual(body.runs_30d);
  });

  it('needs a deployment credential with the advertise scope', async () => {
    const rootCall = await post('/api/v1/advertise/produced', payload('r'), ROOT_TOKEN);
    expect(rootCall.status).toBe(403);
    expect(rootCall.body.detail).toMatch(/does not act as an Instance/);
    void instanceIri;
  });
});
