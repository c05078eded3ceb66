import fs from 'node:fs';
import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import type { Core } from '../../src/core/core.js';
import { seedExample } from '../../src/core/ops/seed.js';
import { lineageIndexReady, markLineageStale } from '../../src/core/store/lineage/lineage-index.js';
import type { apiOf } from './api.js';

type Api = ReturnType<typeof apiOf>;

/**
 * A COMPLETE OpenLineage RunEvent of a new run of `job` (in `namespace`, by `producer`) that read `inputs` and
 * wrote `outputs` at `time`, as an integration would send it.
 */
export function completeRunEvent(
  job: string,
  time: string,
  inputs: object[],
  outputs: object[],
  { namespace = 'nightly', producer = 'https://example.org/scheduler' } = {},
): Record<string, unknown> {
  return {
    eventType: 'COMPLETE',
    eventTime: time,
    producer,
    schemaURL: 'https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunEvent',
    run: { runId: randomUUID() },
    job: { namespace, name: job },
    inputs,
    outputs,
  };
}

/** A genuine OpenLineage RunEvent from `test/fixtures/openlineage`, as a new run (a fresh run id). */
export function fixtureEvent(name: string): { run: { runId: string } } {
  const event = JSON.parse(
    fs.readFileSync(new URL(`../fixtures/openlineage/${name}.json`, import.meta.url), 'utf8'),
  ) as { run: { runId: string } };
  event.run.runId = randomUUID();
  return event;
}

/**
 * The worked example, and a deployment of a new software that sent three genuine OpenLineage events (a complete
 * Airflow run, a complete Spark run, a failed dbt run): records of every kind the lineage index reads.
 */
export async function seedWithLineage(core: Core, api: Api): Promise<Awaited<ReturnType<Api['deployment']>>> {
  await seedExample(core);
  const software = await api.call('POST', '/api/v1/software', 201, { name: 'lineage emitter' });
  const deployment = await api.deployment(software, 'emitting');
  for (const name of ['airflow-complete', 'spark-complete', 'dbt-fail'])
    await api.call('POST', '/api/v1/lineage', 202, fixtureEvent(name), deployment.token);
  return deployment;
}

/**
 * Makes later reads ask the query index: empties the lineage index (as while it is filled after an upgrade), and
 * writes something unrelated so that no answer memoised before is given again.
 */
export async function readFromQueryIndex(core: Core, api: Api, tag: string): Promise<void> {
  markLineageStale(core.db, core.graph.kind);
  expect(lineageIndexReady(core.db)).toBe(false);
  await api.call('POST', '/api/v1/licenses', 201, {
    iri: `https://licenses.example/unrelated-${tag}`,
    label: 'Unrelated',
  });
}
