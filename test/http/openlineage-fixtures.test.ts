/**
 * The OpenLineage consumer against genuine events written by the OpenLineage project (test/fixtures/openlineage/
 * events, see SOURCES.md there): every event is accepted as sent and everything it carries is recorded.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/core/core.js';
import { createApp } from '../../src/http/app.js';
import { openTestCore, ROOT_TOKEN } from '../helpers.js';
import { completeRunEvent } from '../support/openlineage.js';

let core: Core;
let app: ReturnType<typeof createApp>;
let softwareId: string;
const root = { authorization: `Bearer ${ROOT_TOKEN}`, 'content-type': 'application/json' };
const DCT = 'http://purl.org/dc/terms/';
const PROV = 'http://www.w3.org/ns/prov#';
const REG = 'https://w3id.org/reg/ns#';

interface Fixture {
  readonly file: string;
  readonly integration: string;
  readonly kind: 'RunEvent' | 'DatasetEvent' | 'JobEvent' | 'batch';
  readonly eventType: string | null;
  readonly expectInvalid: 'core' | 'facet' | null;
}

const FIXTURES = new URL('../fixtures/openlineage/events/', import.meta.url);
const INDEX = JSON.parse(fs.readFileSync(new URL('index.json', FIXTURES), 'utf8')) as Fixture[];
const read = (file: string): any => JSON.parse(fs.readFileSync(new URL(file, FIXTURES), 'utf8'));
const ofFixture = (fixture: Fixture): any[] => {
  const body = read(fixture.file);
  return Array.isArray(body) ? body : [body];
};

async function created(path: string, body: unknown) {
  const response = await app.request(path, { method: 'POST', headers: root, body: JSON.stringify(body) });
  return (await response.json()) as Record<string, any>;
}

/** A deployment of its own and its token. */
async function deployment(scopes?: string[]): Promise<{ iri: string; token: string }> {
  const instance = await created('/api/v1/instances', { software: softwareId, label: randomUUID() });
  const minted = await created(
    `/api/v1/instances/${instance.id}/tokens`,
    scopes === undefined ? {} : { scopes },
  );
  return { iri: instance.iri, token: minted.token };
}

async function post(
  body: unknown,
  token: string,
  options: { path?: string; gzip?: boolean } = {},
): Promise<{ status: number; body: any }> {
  const text = JSON.stringify(body);
  const response = await app.request(options.path ?? '/api/v1/lineage', {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: `Bearer ${token}`,
      ...(options.gzip === true ? { 'content-encoding': 'gzip' } : {}),
    },
    body: options.gzip === true ? gzipSync(text) : text,
  });
  return { status: response.status, body: await response.json() };
}

async function sparql(where: string): Promise<string[]> {
  const query = `SELECT DISTINCT ?v WHERE { GRAPH ?g { ${where} } }`;
  const response = await app.request(`/sparql?query=${encodeURIComponent(query)}`);
  expect(response.status).toBe(200);
  const json = (await response.json()) as { results: { bindings: { v?: { value: string } }[] } };
  return json.results.bindings.map((row) => row.v!.value);
}

const deployments = new Map<string, { iri: string; token: string }>();
async function deploymentOf(integration: string): Promise<{ iri: string; token: string }> {
  let found = deployments.get(integration);
  if (found === undefined) {
    found = await deployment();
    deployments.set(integration, found);
  }
  return found;
}

beforeAll(async () => {
  core = await openTestCore({}, true);
  app = createApp(core);
  softwareId = (await created('/api/v1/software', { name: 'data pipelines' })).id;
});
afterAll(async () => core.close());

describe('genuine OpenLineage events, as the OpenLineage project writes them', () => {
  it('holds the fixture set it was collected as', () => {
    const events = INDEX.flatMap(ofFixture);
    expect(events.length).toBeGreaterThanOrEqual(80);
    expect(new Set(INDEX.map((fixture) => fixture.integration)).size).toBeGreaterThanOrEqual(6);
  });

  it('accepts every event, records every output of every COMPLETE on its run, and keeps every event', async () => {
    const accepted: { event: any; answer: any; integration: string }[] = [];
    for (const fixture of INDEX.filter((item) => item.expectInvalid !== 'core')) {
      const { token } = await deploymentOf(fixture.integration);
      const events = ofFixture(fixture);
      const answer = await post(fixture.kind === 'batch' ? events : events[0], token);
      expect(answer.status, `${fixture.file}: ${JSON.stringify(answer.body)}`).toBe(202);
      const answers = fixture.kind === 'batch' ? answer.body.events : [answer.body];
      expect(answers).toHaveLength(events.length);
      events.forEach((event, at) =>
        accepted.push({ event, answer: answers[at], integration: fixture.integration }),
      );
    }
    expect(accepted.length).toBeGreaterThanOrEqual(80);
    for (const { event, answer } of accepted.filter((item) => item.event.eventType === 'COMPLETE')) {
      const outputs = new Set(
        (event.outputs ?? []).map((dataset: any) => `${dataset.namespace}\n${dataset.name}`),
      );
      expect(answer.produced, JSON.stringify(event.job)).toHaveLength(outputs.size);
      const generated = await sparql(`?v <${PROV}wasGeneratedBy> <${answer.run}>`);
      for (const version of answer.produced) expect(generated).toContain(version);
    }
    // Every event of a run is kept, in time order, as it was received.
    const run = accepted.find(
      (item) => item.event.eventType === 'COMPLETE' && item.answer.replayed === false,
    );
    const events = await app.request(`/api/v1/runs/${run!.answer.run.split('/').pop()}/events`, {
      headers: root,
    });
    expect(events.status).toBe(200);
    const page = (await events.json()) as any;
    expect(page.items.map((item: any) => item.event)).toContainEqual(run!.event);
    const times = page.items.map((item: any) => item.event_time);
    expect(times).toEqual([...times].sort());
  });

  it('refuses the event that lacks a run id, naming the field it lacks', async () => {
    const fixture = INDEX.find((item) => item.expectInvalid === 'core')!;
    const { token } = await deploymentOf('refusals');
    const answer = await post(ofFixture(fixture)[0], token);
    expect(answer.status).toBe(400);
    expect(answer.body.errors.map((error: any) => error.field)).toEqual(['run.runId']);
  });

  it('reads gzip-compressed bodies, the clients’ compression option', async () => {
    const { token } = await deployment();
    const event = read('fluentd-event-full.json');
    event.run.runId = randomUUID();
    const answer = await post(event, token, { gzip: true, path: '/api/v1/openlineage' });
    expect(answer.status, JSON.stringify(answer.body)).toBe(202);
    expect(answer.body.produced.length).toBeGreaterThan(0);
    const corrupt = await app.request('/api/v1/lineage', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'content-encoding': 'gzip',
        authorization: `Bearer ${token}`,
      },
      body: 'not gzip at all',
    });
    expect(corrupt.status).toBe(400);
  });

  it('accepts a DatasetEvent and a JobEvent, which carry no eventType', async () => {
    const { iri, token } = await deployment();
    const dataset = read('python-client-serde-dataset-event.json');
    expect(dataset.eventType).toBeUndefined();
    const described = await post(dataset, token);
    expect(described.status, JSON.stringify(described.body)).toBe(202);
    expect(described.body).toMatchObject({ kind: 'dataset', replayed: false });
    expect(await sparql(`<${described.body.artifact}> <${DCT}isVersionOf> ?v`)).toEqual([
      described.body.dataset,
    ]);
    expect((await post(dataset, token)).body).toMatchObject({
      replayed: true,
      artifact: described.body.artifact,
    });
    const job = await post(read('python-client-serde-job-event.json'), token);
    expect(job.status, JSON.stringify(job.body)).toBe(202);
    expect(job.body).toMatchObject({ kind: 'job', replayed: false });
    // Both are readable as they were received.
    const idOf = (iri: string) => iri.split('/').pop()!;
    const datasetKept = (await (
      await app.request(`/api/v1/artifacts/${idOf(described.body.artifact)}/events`, { headers: root })
    ).json()) as any;
    expect(datasetKept).toMatchObject({ dataset: described.body.dataset, total: 1 });
    expect(datasetKept.items[0].event).toEqual(dataset);
    const jobKept = (await (
      await app.request(`/api/v1/instances/${idOf(iri)}/job-events`, { headers: root })
    ).json()) as any;
    expect(jobKept.items.map((item: any) => item.event)).toEqual([
      read('python-client-serde-job-event.json'),
    ]);
  });

  it("adds the types of a JobEvent's declared datasets to the deployment's capability, found by matchmaking", async () => {
    const { iri, token } = await deployment();
    const tabular = `${REG}TabularDataset`;
    const idOf = (record: string) => record.split('/').pop()!;
    // The record presents each type as a term (IRI and label).
    const capability = async () => {
      const record = (await (
        await app.request(`/api/v1/instances/${idOf(iri)}`, { headers: root })
      ).json()) as any;
      const iris = (terms: any[]) => terms.map((term) => term.iri);
      return { produces: iris(record.capability.produces), consumes: iris(record.capability.consumes) };
    };
    const matches = async () =>
      (
        (await (
          await app.request(`/api/v1/capabilities?produces=${encodeURIComponent(tabular)}`, { headers: root })
        ).json()) as any
      ).items.map((item: any) => item.iri);
    expect(await matches()).not.toContain(iri);
    // The job reads and writes tables with a schema: the deployment produces and consumes tabular datasets.
    const event = read('python-client-serde-job-event.json');
    const job = await post(event, token);
    expect(job.status, JSON.stringify(job.body)).toBe(202);
    expect(job.body.capability).toEqual({ produces: [tabular], consumes: [tabular] });
    expect(await capability()).toEqual({ produces: [tabular], consumes: [tabular] });
    expect(await matches()).toContain(iri);
    // The change is the deployment's own, audited as a capability declaration beside the ingestion.
    const audit = (await (
      await app.request(`/api/v1/audit?target=${encodeURIComponent(iri)}`, { headers: root })
    ).json()) as any;
    expect(audit.items.map((entry: any) => entry.action)).toEqual(
      expect.arrayContaining(['capability.declare', 'openlineage.ingest']),
    );
    // A replay changes nothing; a job declaring untyped datasets keeps what was declared.
    expect((await post(event, token)).body).toMatchObject({ replayed: true });
    const untyped = structuredClone(event);
    untyped.job.name = 'copies files';
    for (const dataset of [...untyped.inputs, ...untyped.outputs]) dataset.facets = {};
    const second = await post(untyped, token);
    expect(second.status).toBe(202);
    expect(second.body.capability).toEqual({ produces: [tabular], consumes: [tabular] });
    expect(await capability()).toEqual({ produces: [tabular], consumes: [tabular] });
  });

  it('answers a replayed event as before and writes nothing', async () => {
    const { token } = await deployment();
    const event = read('fluentd-event-full.json');
    event.run.runId = randomUUID();
    const first = await post(event, token);
    expect(first.status).toBe(202);
    const modified = await sparql(`<${first.body.run}> <${DCT}modified> ?v`);
    const again = await post(event, token);
    expect(again.body).toEqual({ ...first.body, replayed: true });
    expect(await sparql(`<${first.body.run}> <${DCT}modified> ?v`)).toEqual(modified);
    const events = (await (
      await app.request(`/api/v1/runs/${first.body.run.split('/').pop()}/events`, { headers: root })
    ).json()) as any;
    expect(events.total).toBe(1);
  });

  it("pages a run's events as every list pages, refusing a limit that is not a whole number", async () => {
    const { token } = await deployment();
    const runId = randomUUID();
    let run = '';
    for (const [eventType, eventTime] of [
      ['START', '2026-08-01T00:00:00Z'],
      ['COMPLETE', '2026-08-01T00:05:00Z'],
    ]) {
      const event = { ...read('fluentd-event-full.json'), eventType, eventTime };
      event.run.runId = runId;
      const answer = await post(event, token);
      expect(answer.status).toBe(202);
      run = answer.body.run as string;
    }
    const events = (query: string) =>
      app.request(`/api/v1/runs/${run.split('/').pop()}/events?${query}`, { headers: root });
    const first = (await (await events('limit=1')).json()) as any;
    expect(first).toMatchObject({ total: 2, next_cursor: '1' });
    expect(first.items.map((item: any) => item.event_type)).toEqual(['START']);
    const second = (await (await events(`limit=1&cursor=${first.next_cursor}`)).json()) as any;
    expect(second.items.map((item: any) => item.event_type)).toEqual(['COMPLETE']);
    expect(second.next_cursor).toBeUndefined();
    const refused = await events('limit=many');
    expect(refused.status).toBe(400);
  });

  it('records output statistics on the version and keeps custom facets verbatim', async () => {
    const { token } = await deployment();
    const event = read('fluentd-event-full.json');
    event.run.runId = randomUUID();
    const answer = await post(event, token);
    expect(answer.status, JSON.stringify(answer.body)).toBe(202);
    const output = event.outputs[0];
    const version = answer.body.produced[0];
    expect(await sparql(`<${version}> <${REG}rowCount> ?v`)).toEqual([
      String(output.outputFacets.outputStatistics.rowCount),
    ]);
    expect(await sparql(`<${version}> <${REG}byteSize> ?v`)).toEqual([
      String(output.outputFacets.outputStatistics.size),
    ]);
    const kept = JSON.parse((await sparql(`<${version}> <${REG}openLineageFacets> ?v`))[0]!);
    expect(kept.outputFacets).toEqual(output.outputFacets);
    expect(kept.facets).toEqual(output.facets);
  });

  it('gives a table written every day one version per day, each a revision of the day before', async () => {
    const { token } = await deployment();
    const versions: string[] = [];
    for (const day of ['2026-05-01', '2026-05-02', '2026-05-03']) {
      const event = read('fluentd-event-full.json');
      event.run.runId = randomUUID();
      event.eventTime = `${day}T06:00:00Z`;
      const answer = await post(event, token);
      expect(answer.status, JSON.stringify(answer.body)).toBe(202);
      expect(answer.body.produced).toHaveLength(event.outputs.length);
      versions.push(answer.body.produced[0]);
    }
    expect(new Set(versions).size).toBe(3);
    const series = await sparql(`<${versions[0]}> <${DCT}isVersionOf> ?v`);
    for (const version of versions)
      expect(await sparql(`<${version}> <${DCT}isVersionOf> ?v`)).toEqual(series);
    expect(await sparql(`<${versions[1]}> <${PROV}wasRevisionOf> ?v`)).toEqual([versions[0]]);
    expect(await sparql(`<${versions[2]}> <${PROV}wasRevisionOf> ?v`)).toEqual([versions[1]]);
    // A run that read the table on the second day read that day's version.
    const reader = read('fluentd-event-full.json');
    reader.run.runId = randomUUID();
    reader.job.name = 'reads the daily table';
    reader.eventTime = '2026-05-02T12:00:00Z';
    reader.inputs = [{ namespace: reader.outputs[0].namespace, name: reader.outputs[0].name }];
    reader.outputs = [];
    const read2 = await post(reader, token);
    expect(read2.status, JSON.stringify(read2.body)).toBe(202);
    expect(read2.body.consumed).toEqual([versions[1]]);
  });

  it('records a batch as the same events sent one by one: versions of one table chain in the order sent', async () => {
    const { token } = await deployment();
    const days = ['2026-06-01', '2026-06-02', '2026-06-03'];
    const loads = days.map((day) => {
      const event = read('fluentd-event-full.json');
      event.run.runId = randomUUID();
      event.job.name = 'loads the batched table';
      event.outputs = [{ ...event.outputs[0], name: 'batched_daily_table' }];
      event.eventTime = `${day}T06:00:00Z`;
      return event;
    });
    const reader = read('fluentd-event-full.json');
    reader.run.runId = randomUUID();
    reader.job.name = 'reads the batched table';
    reader.eventTime = '2026-06-02T12:00:00Z';
    reader.inputs = [{ namespace: loads[0].outputs[0].namespace, name: 'batched_daily_table' }];
    reader.outputs = [];
    // Unrelated events between them are ingested alongside.
    const others = Array.from({ length: 6 }, (_, at) => {
      const event = read('fluentd-event-full.json');
      event.run.runId = randomUUID();
      event.job.name = `unrelated ${at}`;
      event.inputs = [];
      event.outputs = [{ ...event.outputs[0], name: `unrelated_table_${at}` }];
      return event;
    });
    const answer = await post(
      [loads[0], others[0], loads[1], others[1], others[2], loads[2], reader, ...others.slice(3)],
      token,
    );
    expect(answer.status, JSON.stringify(answer.body)).toBe(202);
    expect(answer.body.events.map((event: any) => event.index)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    const versions = [0, 2, 5].map((at) => answer.body.events[at].produced[0] as string);
    expect(new Set(versions).size).toBe(3);
    expect(await sparql(`<${versions[1]}> <${PROV}wasRevisionOf> ?v`)).toEqual([versions[0]]);
    expect(await sparql(`<${versions[2]}> <${PROV}wasRevisionOf> ?v`)).toEqual([versions[1]]);
    expect(answer.body.events[6].consumed).toEqual([versions[1]]);
    for (const at of [1, 3, 4, 7, 8, 9]) expect(answer.body.events[at].produced).toHaveLength(1);
  });

  it('refuses a whole batch before writing anything when one event needs a scope the caller lacks', async () => {
    const produceOnly = await deployment(['advertise:produce']);
    const writer = read('fluentd-event-full.json');
    writer.run.runId = randomUUID();
    writer.inputs = [];
    const reader = read('fluentd-event-full.json');
    reader.run.runId = randomUUID();
    const runs = await sparql(`?v a <${PROV}Activity>`);
    const refused = await post([writer, reader], produceOnly.token);
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toMatch(/advertise:consume/);
    expect(await sparql(`?v a <${PROV}Activity>`)).toEqual(runs);
  });

  it('links child runs to the parent run their parent facet names, before and after the parent reports', async () => {
    const { token } = await deployment();
    const batch = read('dbt-no-test-metadata-batch.json') as any[];
    const answer = await post(batch, token);
    expect(answer.status, JSON.stringify(answer.body)).toBe(202);
    const parentId = batch[0].run.facets.parent.run.runId as string;
    const parents = await sparql(`<${answer.body.events[0].run}> <${DCT}isPartOf> ?v`);
    expect(parents).toHaveLength(1);
    for (const child of answer.body.events) {
      expect(await sparql(`<${child.run}> <${DCT}isPartOf> ?v`)).toEqual(parents);
    }
    // The parent's own event, arriving later, is recorded on the run its children already name.
    const parent = {
      ...batch[0],
      run: { runId: parentId },
      job: batch[0].run.facets.parent.job,
      inputs: [],
      outputs: [],
    };
    const reported = await post(parent, token);
    expect(reported.status, JSON.stringify(reported.body)).toBe(202);
    expect([reported.body.run]).toEqual(parents);
  });

  it('keeps column lineage and explicit lineage facets and answers them per field, naming the versions read', async () => {
    const { token } = await deployment();
    const facetFixture = (file: string): any =>
      JSON.parse(fs.readFileSync(new URL(`../fixtures/openlineage/facets/${file}`, import.meta.url), 'utf8'));
    const columns = facetFixture('column-lineage.json');
    const explicit = facetFixture('lineage-dataset-to-dataset.json');
    const run = (inputs: object[], outputs: object[], time: string) =>
      completeRunEvent('discounts report', time, inputs, outputs, {
        namespace: 'warehouse',
        producer: 'https://example.org/warehouse-jobs',
      });
    const customers = { namespace: 'SnowflakeOpenLineage', name: 'CUSTOMERS' };
    const discounts = { namespace: 'SnowflakeOpenLineage', name: 'DISCOUNTS' };
    const loaded = await post(run([], [customers, discounts], '2026-07-01T00:00:00Z'), token);
    expect(loaded.status, JSON.stringify(loaded.body)).toBe(202);
    const report = await post(
      run(
        [customers, discounts],
        [{ namespace: 'SnowflakeOpenLineage', name: 'REPORT', facets: { ...columns, ...explicit } }],
        '2026-07-02T00:00:00Z',
      ),
      token,
    );
    expect(report.status, JSON.stringify(report.body)).toBe(202);
    const version = report.body.produced[0] as string;
    const answer = await app.request(`/api/v1/artifacts/${version.split('/').pop()}/column-lineage`, {
      headers: root,
    });
    expect(answer.status).toBe(200);
    const body = (await answer.json()) as any;
    const name = body.fields.find((entry: any) => entry.field === 'NAME');
    expect(name.inputs.map((input: any) => `${input.name}.${input.field}`)).toEqual(
      columns.columnLineage.fields.NAME.inputFields.map((input: any) => `${input.name}.${input.field}`),
    );
    // Each input names the version of its dataset the run read.
    expect(new Set(name.inputs.map((input: any) => input.version))).toEqual(new Set(report.body.consumed));
    expect(name.inputs[0].transformations).toEqual(
      columns.columnLineage.fields.NAME.inputFields[0].transformations,
    );
    // The explicit lineage facet: a field-level and a dataset-level input.
    expect(body.fields.find((entry: any) => entry.field === 'customer_id').inputs[0]).toMatchObject({
      namespace: 'postgresql://warehouse:5432',
      name: 'public.customers',
      field: 'id',
    });
    expect(body.inputs).toEqual([expect.objectContaining({ name: 'public.customers' })]);
  });

  it('answers a batch event by event: a refused one writes nothing, the others stand', async () => {
    const { token } = await deployment();
    const good = read('fluentd-event-simple.json');
    good.run.runId = randomUUID();
    const bad = read('fluentd-no-run-id.json');
    const answer = await post([good, bad], token);
    expect(answer.status).toBe(207);
    expect(answer.body).toMatchObject({ accepted: 1, refused: 1 });
    expect(answer.body.events[0]).toMatchObject({ index: 0, status: 202, kind: 'run' });
    expect(answer.body.events[1]).toMatchObject({ index: 1, status: 400 });
    expect(answer.body.events[1].problem.errors[0].field).toBe('run.runId');
  });
});
