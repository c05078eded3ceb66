import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/core/core.js';
import { listAudit } from '../../src/core/store/audit.js';
import { createApp } from '../../src/http/app.js';
import { openTestCore, ROOT_TOKEN } from '../helpers.js';

let core: Core;
let app: ReturnType<typeof createApp>;
let softwareId: string;
const root = { authorization: `Bearer ${ROOT_TOKEN}`, 'content-type': 'application/json' };
const REG = 'https://w3id.org/reg/ns#';
const TABULAR = `${REG}TabularDataset`;
const DCT = 'http://purl.org/dc/terms/';
const DCAT = 'http://www.w3.org/ns/dcat#';
const PROV = 'http://www.w3.org/ns/prov#';
const RDFS_LABEL = 'http://www.w3.org/2000/01/rdf-schema#label';

/** A fixture event, read afresh, with a run id of its own unless one is given. */
function event(name: string, runId: string = randomUUID()): Record<string, any> {
  const parsed = JSON.parse(
    fs.readFileSync(new URL(`../fixtures/openlineage/${name}.json`, import.meta.url), 'utf8'),
  ) as Record<string, any>;
  parsed.run.runId = runId;
  return parsed;
}

async function created(path: string, body: unknown) {
  const response = await app.request(path, { method: 'POST', headers: root, body: JSON.stringify(body) });
  return (await response.json()) as Record<string, any>;
}

/** A deployment of its own and its token, so no test sees another's runs or datasets. */
async function deployment(scopes?: string[]): Promise<string> {
  return (await deploymentRecord(scopes)).token;
}

async function deploymentRecord(scopes?: string[]): Promise<{ iri: string; token: string }> {
  const instance = await created('/api/v1/instances', { software: softwareId, label: randomUUID() });
  const minted = await created(
    `/api/v1/instances/${instance.id}/tokens`,
    scopes === undefined ? {} : { scopes },
  );
  return { iri: instance.iri, token: minted.token };
}

async function post(body: unknown, bearer?: string) {
  const response = await app.request('/api/v1/openlineage', {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(bearer === undefined ? {} : { authorization: `Bearer ${bearer}` }),
    },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}

/** The values of `?v` a SELECT through the public SPARQL endpoint answers. */
async function sparql(where: string): Promise<string[]> {
  const query = `SELECT ?v WHERE { GRAPH ?g { ${where} } }`;
  const response = await app.request(`/sparql?query=${encodeURIComponent(query)}`);
  expect(response.status).toBe(200);
  const json = (await response.json()) as { results: { bindings: { v?: { value: string } }[] } };
  return json.results.bindings.map((row) => row.v!.value);
}

const countOf = async (type: string) => (await sparql(`?v a <${type}>`)).length;

beforeAll(async () => {
  core = await openTestCore({}, true);
  app = createApp(core);
  softwareId = (await created('/api/v1/software', { name: 'pipelines' })).id;
});
afterAll(async () => core.close());

describe('POST /api/v1/openlineage', () => {
  it.each([
    ['airflow-start', undefined, 'running'],
    ['airflow-start', 'RUNNING', 'running'],
    ['airflow-start', 'OTHER', 'running'],
    ['airflow-complete', undefined, 'success'],
    ['dbt-fail', undefined, 'failed'],
    ['flink-abort', undefined, 'aborted'],
  ])('maps %s (%s) to the run status %s', async (fixture, eventType, status) => {
    const token = await deployment();
    const body = event(fixture);
    if (eventType !== undefined) body.eventType = eventType;
    const answer = await post(body, token);
    expect(answer.status, JSON.stringify(answer.body)).toBe(202);
    expect(answer.body.mapped_status).toBe(status);
    expect(await sparql(`<${answer.body.run}> <${REG}status> ?v`)).toEqual([status]);
    expect(await sparql(`<${answer.body.run}> <${DCT}identifier> ?v`)).toEqual([body.run.runId]);
    expect(await sparql(`<${answer.body.run}> <${RDFS_LABEL}> ?v`)).toEqual([
      `${body.job.namespace}/${body.job.name}`,
    ]);
  });

  it('moves one run from running to success on START then COMPLETE, with the same artifacts', async () => {
    const token = await deployment();
    const runId = randomUUID();
    const start = await post(event('airflow-start', runId), token);
    expect(start.status).toBe(202);
    expect(start.body).toMatchObject({ mapped_status: 'running' });
    expect(start.body.consumed).toHaveLength(1);
    expect(start.body.produced).toHaveLength(1);
    expect(await sparql(`<${start.body.run}> <${REG}status> ?v`)).toEqual(['running']);
    expect(await sparql(`<${start.body.run}> <${PROV}endedAtTime> ?v`)).toEqual([]);

    const complete = await post(event('airflow-complete', runId), token);
    expect(complete.status).toBe(202);
    expect(complete.body).toEqual({
      kind: 'run',
      run: start.body.run,
      consumed: start.body.consumed,
      produced: start.body.produced,
      mapped_status: 'success',
      replayed: false,
    });
    expect(await sparql(`<${start.body.run}> <${REG}status> ?v`)).toEqual(['success']);
    expect(await sparql(`<${start.body.run}> <${PROV}startedAtTime> ?v`)).toEqual([
      '2026-03-02T06:00:04.512Z',
    ]);
    expect(await sparql(`<${start.body.run}> <${PROV}endedAtTime> ?v`)).toEqual(['2026-03-02T06:01:17.004Z']);
    expect(await sparql(`?v <${DCT}identifier> "${runId}"`)).toEqual([start.body.run]);
    expect(await sparql(`<${start.body.run}> <${PROV}used> ?v`)).toEqual(start.body.consumed);
    expect(await sparql(`<${start.body.produced[0]}> <${PROV}wasGeneratedBy> ?v`)).toEqual([start.body.run]);
  });

  it('does not reopen a finished run when a START arrives late, and takes its start time', async () => {
    const token = await deployment();
    const runId = randomUUID();
    const complete = await post(event('airflow-complete', runId), token);
    expect(await sparql(`<${complete.body.run}> <${PROV}startedAtTime> ?v`)).toEqual([
      '2026-03-02T06:01:17.004Z',
    ]);
    const late = await post(event('airflow-start', runId), token);
    expect(late.body).toMatchObject({ run: complete.body.run, mapped_status: 'success' });
    expect(await sparql(`<${complete.body.run}> <${REG}status> ?v`)).toEqual(['success']);
    // Times come from the events' own times, whatever order they arrived in.
    expect(await sparql(`<${complete.body.run}> <${PROV}startedAtTime> ?v`)).toEqual([
      '2026-03-02T06:00:04.512Z',
    ]);
    expect(await sparql(`<${complete.body.run}> <${PROV}endedAtTime> ?v`)).toEqual([
      '2026-03-02T06:01:17.004Z',
    ]);
    const payload = await sparql(`<${complete.body.run}> <${REG}openLineagePayload> ?v`);
    expect(JSON.parse(payload[0]!).eventType).toBe('COMPLETE');
  });

  it('ends with one finished run when START and COMPLETE arrive together', async () => {
    const token = await deployment();
    const runId = randomUUID();
    const [start, complete] = await Promise.all([
      post(event('airflow-start', runId), token),
      post(event('airflow-complete', runId), token),
    ]);
    expect(start.body.run).toBe(complete.body.run);
    expect(start.body.produced).toEqual(complete.body.produced);
    expect(await sparql(`<${start.body.run}> <${REG}status> ?v`)).toEqual(['success']);
  });

  it('makes a dataset one series registry-wide: another deployment reading it later reads the version written', async () => {
    const writerToken = await deployment();
    const { iri: readerInstance, token: readerToken } = await deploymentRecord();
    const writer = await post(event('airflow-complete'), writerToken);
    const reader = event('spark-complete');
    reader.eventTime = '2026-03-03T00:00:00Z';
    reader.inputs[0] = { ...event('airflow-complete').outputs[0], outputFacets: undefined };
    // The same table, named with a host in upper case and a trailing slash: the naming spec's identity.
    reader.inputs[0].namespace = 'postgres://ORDERS-DB.internal:5432/';
    const read = await post(reader, readerToken);
    expect(read.status, JSON.stringify(read.body)).toBe(202);
    expect(read.body.run).not.toBe(writer.body.run);
    expect(read.body.consumed).toEqual(writer.body.produced);
    expect(await sparql(`<${read.body.run}> <${PROV}wasAssociatedWith> ?v`)).toEqual([readerInstance]);
    const series = await sparql(`<${writer.body.produced[0]}> <${DCT}isVersionOf> ?v`);
    expect(series).toHaveLength(1);
    expect(series[0]).toMatch(/\/artifact-series\/ol-[0-9a-f]{40}$/);
    expect(await sparql(`<${writer.body.produced[0]}> <${DCT}title> ?v`)).toEqual([
      'analytics.public.daily_revenue',
    ]);
  });

  it('lists a dataset named twice on one side once', async () => {
    const token = await deployment();
    const body = event('dbt-fail');
    body.inputs.push(body.inputs[0]);
    const answer = await post(body, token);
    expect(answer.status).toBe(202);
    expect(answer.body.consumed).toHaveLength(2);
  });

  it('references the artifact a symlinks identifier names instead of minting one', async () => {
    const token = await deployment();
    const existing = await app.request('/api/v1/artifacts', {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'Raw events, as published', conforms_to: TABULAR }),
    });
    expect(existing.status).toBe(201);
    const iri = ((await existing.json()) as Record<string, any>).iri as string;
    const body = event('spark-complete');
    body.inputs[0].facets.symlinks.identifiers.push({
      namespace: iri.slice(0, iri.lastIndexOf('/')),
      name: iri.slice(iri.lastIndexOf('/') + 1),
      type: 'ARTIFACT',
    });
    const datasets = await countOf(`${DCAT}Dataset`);
    const answer = await post(body, token);
    expect(answer.status, JSON.stringify(answer.body)).toBe(202);
    expect(answer.body.consumed).toEqual([iri]);
    expect(answer.body.produced[0]).not.toBe(iri);
    // Only the output is new: the input is the artifact the symlink named.
    expect(await countOf(`${DCAT}Dataset`)).toBe(datasets + 1);
    expect(await sparql(`<${answer.body.run}> <${PROV}used> ?v`)).toEqual([iri]);
  });

  it('types a dataset with a schema facet as a tabular dataset and maps its distribution', async () => {
    const token = await deployment();
    const spark = await post(event('spark-complete'), token);
    expect(spark.status).toBe(202);
    const [output] = spark.body.produced as string[];
    expect(await sparql(`<${output}> <${DCT}conformsTo> ?v`)).toEqual([TABULAR]);
    expect(await sparql(`<${output}> <${DCAT}version> ?v`)).toEqual(['118']);
    // The size a run reports describes the version it wrote, not a way to obtain it.
    expect(await sparql(`<${output}> <${REG}byteSize> ?v`)).toEqual(['96482133']);
    expect(await sparql(`<${output}> <${DCAT}distribution> ?d . ?d <${DCAT}byteSize> ?v`)).toEqual([]);
    expect(await sparql(`<${output}> <${DCAT}distribution> ?d . ?d <${DCAT}accessURL> ?v`)).toEqual([
      's3://lake-curated',
    ]);
    const flink = await post(event('flink-abort'), token);
    expect(await sparql(`<${flink.body.consumed[0]}> <${DCT}conformsTo> ?v`)).toEqual([TABULAR]);
    expect(await sparql(`<${flink.body.produced[0]}> <${DCT}conformsTo> ?v`)).toEqual([]);
  });

  it('takes a fairAccess facet as the whole distribution', async () => {
    const token = await deployment();
    const answer = await post(event('fair-access'), token);
    expect(answer.status, JSON.stringify(answer.body)).toBe(202);
    const distribution = `<${answer.body.produced[0]}> <${DCAT}distribution> ?d . ?d`;
    expect(await sparql(`${distribution} <${DCAT}downloadURL> ?v`)).toEqual([
      'https://data.example.org/releases/2026/cohort-summary.csv',
    ]);
    expect(await sparql(`${distribution} <${DCAT}mediaType> ?v`)).toEqual(['text/csv']);
    expect(await sparql(`<${answer.body.produced[0]}> <${REG}byteSize> ?v`)).toEqual(['412907']);
    expect(await sparql(`${distribution} <${PROV}specializationOf> ?v`)).toEqual([
      'ni:///sha-256;n4bQgYhMfWWaL-qgxVrQFaO_TxsrC4Is0V1sFbDwCgg',
    ]);
  });

  it('keeps the whole event on the run', async () => {
    const token = await deployment();
    const body = event('dbt-fail');
    const answer = await post(body, token);
    expect(answer.status).toBe(202);
    const payloads = await sparql(`<${answer.body.run}> <${REG}openLineagePayload> ?v`);
    expect(payloads).toHaveLength(1);
    expect(JSON.parse(payloads[0]!)).toEqual(body);
  });

  it('refuses a body that is not a RunEvent, naming what is missing', async () => {
    const token = await deployment();
    const empty = await post({ producer: 'https://example.org/emitter' }, token);
    expect(empty.status).toBe(400);
    expect(empty.body.code).toBe('bad-request');
    expect(empty.body.errors.map((error: { field: string }) => error.field)).toEqual([
      'job',
      'job.namespace',
      'job.name',
    ]);
    const dataset = event('airflow-start');
    delete dataset.outputs[0].name;
    dataset.eventTime = 'yesterday';
    const broken = await post(dataset, token);
    expect(broken.status).toBe(400);
    expect(broken.body.errors.map((error: { field: string }) => error.field)).toEqual([
      'eventTime',
      'outputs[0].name',
    ]);
    expect((await post('"just text"', token)).status).toBe(400);
  });

  it('needs a deployment credential with the advertise scopes', async () => {
    const anonymous = await post(event('airflow-start'));
    expect(anonymous.status).toBe(401);
    const rootCall = await post(event('airflow-start'), ROOT_TOKEN);
    expect(rootCall.status).toBe(403);
    expect(rootCall.body.detail).toMatch(/does not act as an Instance/);
    const produceOnly = await deployment(['advertise:produce']);
    const refused = await post(event('airflow-start'), produceOnly);
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toMatch(/lacks the advertise:consume scope/);
    const outputsOnly = event('airflow-start');
    outputsOnly.inputs = [];
    expect((await post(outputsOnly, produceOnly)).status).toBe(202);
    const consumeOnly = await deployment(['advertise:consume']);
    expect((await post(event('airflow-start'), consumeOnly)).body.detail).toMatch(
      /lacks the advertise:produce scope/,
    );
  });

  it('refuses an unusable fairAccess checksum with 422 and writes nothing', async () => {
    const token = await deployment();
    const runs = await countOf(`${PROV}Activity`);
    const datasets = await countOf(`${DCAT}Dataset`);
    const audit = listAudit(core.db, { limit: 1 })[0]!.id;
    const body = event('fair-access');
    body.outputs[0].facets.fairAccess.checksum.value = 'not-a-digest';
    const refused = await post(body, token);
    expect(refused.status).toBe(422);
    expect(refused.body.code).toBe('invalid-checksum');
    expect(refused.body.errors[0].field).toBe('outputs[0].facets.fairAccess.checksum.value');
    expect(await countOf(`${PROV}Activity`)).toBe(runs);
    expect(await countOf(`${DCAT}Dataset`)).toBe(datasets);
    expect(listAudit(core.db, { limit: 1 })[0]!.id).toBe(audit);
  });

  it('refuses a fairAccess value a distribution does not allow, naming it in the event', async () => {
    const token = await deployment();
    const body = event('fair-access');
    body.outputs[0].facets.fairAccess.availability = 'whenever';
    const refused = await post(body, token);
    expect(refused.status).toBe(422);
    expect(refused.body.errors.map((error: { field: string }) => error.field)).toContain(
      'outputs[0].facets.fairAccess.availability',
    );
  });
});
