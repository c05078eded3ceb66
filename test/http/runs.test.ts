import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveCredential } from '../../src/core/access/credentials.js';
import type { Core } from '../../src/core/core.js';
import { ARTIFACT } from '../../src/core/records/activity-specs.js';
import { advertise } from '../../src/core/provenance/advertise.js';
import { requireStored, tombstoneRecord } from '../../src/core/stored/records.js';
import { actOf } from '../../src/core/stored/write-path.js';
import { createApp } from '../../src/http/app.js';
import { openTestCore, ROOT_TOKEN } from '../helpers.js';

let core: Core;
let app: ReturnType<typeof createApp>;
let token: string;
let otherToken: string;
let software: Record<string, any>;
let otherSoftware: Record<string, any>;
let release: Record<string, any>;
let instance: Record<string, any>;
let other: Record<string, any>;
let buildRun: string;
let checkRun: string;
let report: string;
let lineageRun: string;
let withdrawnRun: string;
const root = { authorization: `Bearer ${ROOT_TOKEN}`, 'content-type': 'application/json' };
const TYPE = 'http://edamontology.org/data_0006';
const EVENT = { eventType: 'COMPLETE', run: { runId: 'ol-1' }, job: { namespace: 'ci', name: 'x' } };
const FOREIGN = 'https://other-registry.example.org/artifact/01J7ZQK8W0RXAB3M2C7YQ1V4TD';

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
  expect(response.status, path).toBe(201);
  return (await response.json()) as Record<string, any>;
}

async function get(path: string) {
  const response = await app.request(path);
  return { status: response.status, headers: response.headers, body: (await response.json()) as any };
}

beforeAll(async () => {
  core = await openTestCore({}, true);
  app = createApp(core);
  software = await created('/api/v1/software', { name: 'shacl-manager' });
  otherSoftware = await created('/api/v1/software', { name: 'sulo-builder' });
  release = await created(`/api/v1/software/${software.id}/releases`, { version: '2.1.0' });
  instance = await created('/api/v1/instances', {
    software: software.id,
    release: release.id,
    label: 'shacl.example.org',
  });
  other = await created('/api/v1/instances', { software: otherSoftware.id, label: 'sulo.example.org' });
  token = (await created(`/api/v1/instances/${instance.id}/tokens`, {})).token;
  otherToken = (await created(`/api/v1/instances/${other.id}/tokens`, {})).token;
  const build = await post(
    '/api/v1/advertise/produced',
    {
      run: { external_key: 'gh/1/attempt-1', label: 'build-graph', started_at: '2026-11-01T10:00:00Z' },
      artifacts: [{ title: 'Input graph', conforms_to: TYPE }],
    },
    otherToken,
  );
  buildRun = build.body.run;
  const input = build.body.artifacts[0];
  const check = await post('/api/v1/advertise/produced', {
    run: {
      external_key: 'gh/2/attempt-1',
      label: 'validate-batch-1',
      status: 'success',
      started_at: '2026-11-02T10:00:00Z',
      ended_at: '2026-11-02T10:00:38Z',
    },
    artifacts: [
      { title: 'Validation report', conforms_to: TYPE },
      { title: 'Conformance summary', conforms_to: TYPE },
    ],
  });
  checkRun = check.body.run;
  report = check.body.artifacts[0];
  const consumed = await post('/api/v1/advertise/consumed', {
    run: { external_key: 'gh/2/attempt-1' },
    artifacts: [{ iri: input }, { iri: FOREIGN }],
  });
  expect(consumed.body.run).toBe(checkRun);
  await post('/api/v1/advertise/produced', {
    run: { external_key: 'gh/3/attempt-1', label: 'validate-batch-2', status: 'failed' },
    artifacts: [],
  });
  const withdrawing = await post('/api/v1/advertise/produced', {
    run: { external_key: 'gh/4/attempt-1', label: 'withdrawn-output' },
    artifacts: [
      { title: 'Kept', conforms_to: TYPE },
      { title: 'Withdrawn', conforms_to: TYPE },
    ],
  });
  withdrawnRun = withdrawing.body.run;
  const root = await resolveCredential(core, `Bearer ${ROOT_TOKEN}`);
  const stored = await requireStored(core, ARTIFACT, withdrawing.body.artifacts[1]);
  await tombstoneRecord(core, ARTIFACT, stored, actOf(root));
  // The OpenLineage adapter keeps the whole event on the run through the same core call.
  const principal = await resolveCredential(core, `Bearer ${token}`);
  lineageRun = (
    await advertise(
      core,
      actOf(principal),
      'produced',
      { run: { external_key: 'ol-1' }, artifacts: [] },
      { openLineagePayload: EVENT },
    )
  ).run;
});
afterAll(async () => core.close());

const pathOf = (iri: string) => new URL(iri).pathname;

describe('GET /api/v1/runs/{id}', () => {
  it('returns the run with names, counts, duration, and what it used and generated', async () => {
    const { status, body, headers } = await get(pathOf(checkRun).replace('/run/', '/api/v1/runs/'));
    expect(status).toBe(200);
    expect(body).toMatchObject({
      iri: checkRun,
      id: checkRun.slice(checkRun.lastIndexOf('/') + 1),
      label: 'validate-batch-1',
      external_key: 'gh/2/attempt-1',
      status: 'success',
      started_at: '2026-11-02T10:00:00.000Z',
      ended_at: '2026-11-02T10:00:38.000Z',
      duration_seconds: 38,
      instance: instance.iri,
      instance_label: 'shacl.example.org',
      software: software.iri,
      software_name: 'shacl-manager',
      release: release.iri,
      release_version: '2.1.0',
      used_count: 2,
      generated_count: 2,
      origin: { kind: 'local' },
    });
    expect(body.generated.map((ref: any) => ref.title).sort()).toEqual([
      'Conformance summary',
      'Validation report',
    ]);
    expect(body.generated[0]).toMatchObject({ conforms_to: TYPE, availability: 'metadata-only' });
    const foreign = body.used.find((ref: any) => ref.iri === FOREIGN);
    expect(foreign).toEqual({
      iri: FOREIGN,
      origin: { kind: 'peer', resolve_status: 'unknown', reason: expect.stringContaining('no active peer') },
      unresolved: true,
    });
    const local = body.used.find((ref: any) => ref.iri !== FOREIGN);
    expect(local).toMatchObject({ title: 'Input graph', origin: { kind: 'local' } });
    expect(local.unresolved).toBeUndefined();
    expect(body.action_status).toBeUndefined();
    expect(headers.get('link')).toContain(`<${checkRun}>; rel="cite-as"`);
    expect(headers.get('link')).toContain('/api/v1/runs>; rel="collection"');
  });

  it('reads a run without a status as its stored default and keeps the OpenLineage event parsed', async () => {
    const { body } = await get(`/api/v1/runs/${lineageRun.slice(lineageRun.lastIndexOf('/') + 1)}`);
    expect(body.openlineage_payload).toEqual(EVENT);
    expect(body).toMatchObject({ status: 'success', used: [], generated: [], used_count: 0 });
  });

  it('leaves withdrawn artifacts out of what a run generated, and out of its counts', async () => {
    const { body } = await get(`/api/v1/runs/${withdrawnRun.slice(withdrawnRun.lastIndexOf('/') + 1)}`);
    expect(body.generated.map((ref: any) => ref.title)).toEqual(['Kept']);
    expect(body.generated_count).toBe(1);
    const listed = (await get('/api/v1/runs?q=withdrawn-output')).body.items[0];
    expect(listed.generated_count).toBe(1);
  });

  it('answers 404 for a run it does not hold, and 400 for an id that is not one', async () => {
    expect((await get('/api/v1/runs/0190aaaa-0000-7000-8000-000000000000')).status).toBe(404);
    expect((await get(`/api/v1/runs/${report.slice(report.lastIndexOf('/') + 1)}`)).status).toBe(404);
    expect((await get('/api/v1/runs/not%20an%20id')).status).toBe(400);
  });

  it('dereferences run IRIs as Turtle, JSON and under the /runs/ alias', async () => {
    const turtle = await app.request(pathOf(checkRun), { headers: { accept: 'text/turtle' } });
    expect(turtle.status).toBe(200);
    expect(turtle.headers.get('content-type')).toBe('text/turtle; charset=utf-8');
    expect(turtle.headers.get('link')).toContain(`<${checkRun}>; rel="cite-as"`);
    const text = await turtle.text();
    expect(text).toContain('prov:Activity');
    expect(text).toContain('"validate-batch-1"');
    const json = await app.request(`${pathOf(checkRun)}.json`);
    expect(((await json.json()) as any).generated_count).toBe(2);
    const alias = await app.request(`${pathOf(checkRun).replace('/run/', '/runs/')}.ttl`);
    expect(alias.status).toBe(200);
    // An artifact is not a run.
    expect((await app.request(pathOf(report).replace('/artifact/', '/run/') + '.ttl')).status).toBe(404);
  });
});

describe('GET /api/v1/runs', () => {
  it('lists runs newest first with summaries, and pages with a cursor', async () => {
    const all = await get('/api/v1/runs');
    expect(all.status).toBe(200);
    expect(all.body.total).toBe(5);
    const iris = all.body.items.map((item: any) => item.iri);
    expect(iris).toEqual([...iris].sort().reverse());
    expect(all.body.next_cursor).toBeUndefined();
    const summary = all.body.items.find((item: any) => item.iri === checkRun);
    expect(summary).toMatchObject({ used_count: 2, generated_count: 2, instance_label: 'shacl.example.org' });
    expect(summary.used).toBeUndefined();
    const first = await get('/api/v1/runs?limit=3');
    expect(first.body.items).toHaveLength(3);
    expect(first.body.total).toBe(5);
    const second = await get(`/api/v1/runs?limit=3&cursor=${encodeURIComponent(first.body.next_cursor)}`);
    expect(second.body.items.map((item: any) => item.iri)).toEqual(iris.slice(3));
    expect(second.body.next_cursor).toBeUndefined();
  });

  it('filters by q over label and key, instance, software and status', async () => {
    const ids = async (query: string) =>
      ((await get(`/api/v1/runs?${query}`)).body.items as any[]).map((item) => item.iri);
    expect(await ids('q=VALIDATE-batch-1')).toEqual([checkRun]);
    expect(await ids('q=gh/1/')).toEqual([buildRun]);
    expect(await ids(`instance=${other.id}`)).toEqual([buildRun]);
    expect(await ids(`instance=${encodeURIComponent(other.iri)}`)).toEqual([buildRun]);
    expect(await ids(`software=${otherSoftware.id}`)).toEqual([buildRun]);
    expect(await ids(`software=${software.id}`)).toHaveLength(4);
    expect(await ids('status=failed')).toHaveLength(1);
    expect(await ids('status=running')).toEqual([]);
    expect(await ids('registry=local')).toHaveLength(5);
    const bad = await get('/api/v1/runs?status=done');
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('bad-request');
  });

  it("lists a deployment's runs under /api/v1/instances/{id}/runs", async () => {
    const mine = await get(`/api/v1/instances/${instance.id}/runs`);
    expect(mine.body.total).toBe(4);
    expect(mine.body.items.every((item: any) => item.instance === instance.iri)).toBe(true);
    const theirs = await get(`/api/v1/instances/${other.id}/runs`);
    expect(theirs.body.items.map((item: any) => item.iri)).toEqual([buildRun]);
    expect((await get('/api/v1/instances/0190aaaa-0000-7000-8000-000000000000/runs')).status).toBe(404);
  });
});
