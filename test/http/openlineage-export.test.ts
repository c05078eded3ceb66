/**
 * OpenLineage out: runs as RunEvents (as received, or written from the record), an NDJSON export of every run,
 * and a replay of that export into an empty registry giving the same lineage.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/core/core.js';
import { createApp } from '../../src/http/app.js';
import { openTestCore, ROOT_TOKEN } from '../helpers.js';

interface Registry {
  core: Core;
  app: ReturnType<typeof createApp>;
  token: string;
}

const open: Registry[] = [];

async function call(registry: Registry, method: string, path: string, body?: unknown, bearer = ROOT_TOKEN) {
  const response = await registry.app.request(path, {
    method,
    headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
  const text = await response.text();
  return {
    status: response.status,
    text,
    body: /^application\/(problem\+)?json/.test(response.headers.get('content-type') ?? '')
      ? JSON.parse(text)
      : undefined,
  };
}

/** A registry with a software, one deployment and its token. */
async function registry(): Promise<Registry> {
  const core = await openTestCore({}, true);
  const app = createApp(core);
  const made: Registry = { core, app, token: '' };
  open.push(made);
  const software = await call(made, 'POST', '/api/v1/software', { name: 'pipelines' });
  const instance = await call(made, 'POST', '/api/v1/instances', {
    software: software.body.id,
    label: 'etl',
  });
  made.token = (await call(made, 'POST', `/api/v1/instances/${instance.body.id}/tokens`, {})).body.token;
  return made;
}

const idOf = (iri: string) => iri.slice(iri.lastIndexOf('/') + 1);

/** The lineage of an artifact as a shape: node kinds and titles, and edges between titles. */
async function shape(target: Registry, artifact: string) {
  const answer = await call(
    target,
    'GET',
    `/api/v1/artifacts/${idOf(artifact)}/lineage?direction=both&depth=3`,
  );
  expect(answer.status).toBe(200);
  const titles = new Map<string, string>(
    answer.body.nodes.map((node: any) => [node.iri, `${node.entity_type}:${node.title ?? '?'}`]),
  );
  return {
    nodes: [...titles.values()].sort(),
    edges: answer.body.edges
      .map((edge: any) => `${titles.get(edge.from)} ${edge.predicate} ${titles.get(edge.to)}`)
      .sort(),
  };
}

let source: Registry;
let report: string;
let olRun: string;
let olEvents: any[];

beforeAll(async () => {
  source = await registry();
  // Through the native API: a run writes the raw extract, a second reads it and writes a report.
  const extract = await call(
    source,
    'POST',
    '/api/v1/advertise/produced',
    {
      run: { external_key: 'extract-1', label: 'extract', status: 'success' },
      artifacts: [{ title: 'raw extract', description: 'Rows as extracted.' }],
    },
    source.token,
  );
  expect(extract.status, extract.text).toBe(201);
  await call(
    source,
    'POST',
    '/api/v1/advertise/consumed',
    { run: { external_key: 'report-1', label: 'report' }, artifacts: [{ iri: extract.body.artifacts[0] }] },
    source.token,
  );
  const written = await call(
    source,
    'POST',
    '/api/v1/advertise/produced',
    {
      run: { external_key: 'report-1', label: 'report', status: 'success' },
      artifacts: [{ title: 'weekly report' }],
    },
    source.token,
  );
  report = written.body.artifacts[0];
  // Through OpenLineage: a START and a COMPLETE of one run.
  const runId = randomUUID();
  olEvents = ['START', 'COMPLETE'].map((eventType, at) => ({
    ...(JSON.parse(
      fs.readFileSync(
        new URL('../fixtures/openlineage/events/fluentd-event-full.json', import.meta.url),
        'utf8',
      ),
    ) as object),
    eventType,
    eventTime: `2026-06-01T0${at}:00:00Z`,
  }));
  for (const event of olEvents) event.run.runId = runId;
  for (const event of olEvents) {
    const answer = await call(source, 'POST', '/api/v1/lineage', event, source.token);
    expect(answer.status, answer.text).toBe(202);
    olRun = answer.body.run;
  }
});
afterAll(async () => {
  for (const made of open) await made.core.close();
});

describe('OpenLineage out', () => {
  it('gives a run recorded from OpenLineage back as the events it was recorded from', async () => {
    const answer = await call(source, 'GET', `/api/v1/runs/${idOf(olRun)}/openlineage`);
    expect(answer.status).toBe(200);
    expect(answer.body.events).toEqual(olEvents);
  });

  it('writes a run of the native API as a START and a COMPLETE naming its inputs and outputs', async () => {
    const runs = await call(source, 'GET', '/api/v1/runs?q=report');
    const run = runs.body.items.find((item: any) => item.label === 'report');
    const answer = await call(source, 'GET', `/api/v1/runs/${run.id}/openlineage`);
    expect(answer.status).toBe(200);
    const [start, complete] = answer.body.events;
    expect(answer.body.events).toHaveLength(2);
    expect(start).toMatchObject({ eventType: 'START', job: { name: 'report' } });
    expect(complete).toMatchObject({ eventType: 'COMPLETE', run: start.run, job: start.job });
    expect(start.run.runId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(complete.inputs.map((dataset: any) => dataset.facets.reg_artifact.title)).toEqual(['raw extract']);
    expect(complete.outputs.map((dataset: any) => dataset.facets.reg_artifact.title)).toEqual([
      'weekly report',
    ]);
    expect(complete.inputs[0].facets.documentation.description).toBe('Rows as extracted.');
  });

  it('exports every run as NDJSON, which replayed into an empty registry gives the same lineage', async () => {
    const anonymous = await source.app.request('/api/v1/openlineage/export');
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    const exported = await call(source, 'GET', '/api/v1/openlineage/export');
    expect(exported.status).toBe(200);
    const lines = exported.text.trimEnd().split('\n');
    const events = lines.map((line) => JSON.parse(line));
    // Two native runs (START and COMPLETE each) and the OpenLineage run's two events.
    expect(events).toHaveLength(6);
    const target = await registry();
    const replayed = await call(target, 'POST', '/api/v1/lineage', events, target.token);
    expect(replayed.status, replayed.text).toBe(202);
    expect(replayed.body.accepted).toBe(6);
    const found = await call(target, 'GET', '/api/v1/artifacts?q=weekly');
    const copy = found.body.items.find((item: any) => item.title === 'weekly report');
    expect(copy).toBeDefined();
    expect(await shape(target, copy.iri)).toEqual(await shape(source, report));
  });
});
