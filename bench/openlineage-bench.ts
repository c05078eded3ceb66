import { fileURLToPath } from 'node:url';
import { runTimed } from './children.js';
import { startHttp } from './http-start.js';
import { note } from './progress.js';
import { BIN, regEnv } from './reg-cli.js';
import type { Workspace } from './workspace.js';

/*
 * OpenLineage ingestion against a real `reg serve`: 20 producers post COMPLETE RunEvents (one input, one output
 * dataset, each producer its own runs and datasets) to POST /api/v1/lineage with a deployment token, one event per
 * request and then 50 per request, each compared per event with native advertising (POST
 * /api/v1/advertise/produced, one artifact) by 20 clients on the same server in the same run.
 */

const OPENLINEAGE_CHILD = fileURLToPath(new URL('./openlineage-child.mjs', import.meta.url));
const ADVERTISE_CHILD = fileURLToPath(new URL('./advertise-child.mjs', import.meta.url));
/** A genuine event from the OpenLineage project's own test data: every facet a full RunEvent may carry. */
const EVENT = fileURLToPath(
  new URL('../test/fixtures/openlineage/events/fluentd-event-full.json', import.meta.url),
);
const TOKEN = 'bench-root-token-0123456789abcdef';
const PRODUCERS = 20;
const BATCH = 50;
/** Seconds of advertising and of single events before the measured runs, so that none pays for a cold server. */
const WARM_UP_SECONDS = 1;
/**
 * Rounds of batches the batched run lasts at least: 20 producers each wait for a batch of 50 to be answered, so a
 * window shorter than a few rounds would measure little more than one batch each.
 */
const BATCH_ROUNDS = 3;
/** The longest batched run, whatever the rate. */
const MAX_BATCH_SECONDS = 120;
/** Request bodies from this size on are large; a batch of events is still ingested event by event. */
const LARGE_WRITE_BYTES = 256 * 1024;

/** What one load process measured. */
export interface IngestFigures {
  /** Events accepted per second (for advertising: advertisements answered 201). */
  readonly eventsPerSecond: number;
  readonly requests: number;
  readonly events: number;
  readonly refused: number;
  readonly failures: number;
  readonly statuses: Record<string, number>;
  /** Seconds of load, and the mean size of a request body. */
  readonly seconds: number;
  readonly bodyBytes: number;
  /** Latency of a request (of a whole batch when events are batched), ms. */
  readonly p50Ms: number;
  readonly p95Ms: number;
  /** The first refusal or failed answer, if any. */
  readonly problem?: string;
}

/** OpenLineage ingestion per event, single and batched, beside native advertising. */
export interface OpenLineageIngestResult {
  readonly producers: number;
  readonly batch: number;
  readonly advertise: IngestFigures;
  readonly single: IngestFigures;
  readonly batched: IngestFigures;
}

interface ChildOutput {
  requests: number;
  accepted?: number;
  refused?: number;
  failures: number;
  statuses?: Record<string, number>;
  firstProblem?: string;
  bytes?: number;
  ms: number;
  p50: number;
  p95: number;
}

async function load(script: string, args: readonly string[]): Promise<ChildOutput> {
  const run = await runTimed(process.execPath, [script, ...args]);
  if (run.code !== 0) throw new Error(`load (${script}) failed: ${run.stderr}`);
  return JSON.parse(run.stdout) as ChildOutput;
}

/** Native advertising by `PRODUCERS` clients: every call answered 201 is one event. */
async function advertising(url: string, token: string, seconds: number): Promise<IngestFigures> {
  const out = await load(ADVERTISE_CHILD, [url, token, String(seconds), String(PRODUCERS)]);
  const events = out.requests - out.failures;
  return {
    eventsPerSecond: (events * 1000) / out.ms,
    requests: out.requests,
    events,
    refused: 0,
    failures: out.failures,
    statuses: {},
    seconds,
    bodyBytes: NaN,
    p50Ms: out.p50,
    p95Ms: out.p95,
  };
}

/** OpenLineage events by `PRODUCERS` producers, `batch` events per request. */
async function lineageEvents(
  url: string,
  token: string,
  seconds: number,
  batch: number,
): Promise<IngestFigures> {
  const out = await load(OPENLINEAGE_CHILD, [
    url,
    token,
    String(seconds),
    String(PRODUCERS),
    String(batch),
    EVENT,
  ]);
  const events = out.accepted ?? 0;
  return {
    eventsPerSecond: (events * 1000) / out.ms,
    requests: out.requests,
    events,
    refused: out.refused ?? 0,
    failures: out.failures,
    statuses: out.statuses ?? {},
    seconds,
    bodyBytes: out.bytes ?? NaN,
    p50Ms: out.p50,
    p95Ms: out.p95,
    ...(out.firstProblem === undefined ? {} : { problem: out.firstProblem }),
  };
}

/** Creates a deployment and its token (the default scopes: produce and consume). */
async function deploymentToken(url: string, label: string): Promise<string> {
  const headers = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
  const post = async (path: string, body: unknown): Promise<Record<string, string>> => {
    const response = await fetch(`${url}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
    const json = (await response.json()) as Record<string, string>;
    if (response.status !== 201) throw new Error(`${path}: ${response.status} ${JSON.stringify(json)}`);
    return json;
  };
  const software = await post('/api/v1/software', { name: `${label} pipelines` });
  const instance = await post('/api/v1/instances', { software: software.id, label });
  return (await post(`/api/v1/instances/${instance.id}/tokens`, {})).token!;
}

/**
 * Measures native advertising, single OpenLineage events and batches of 50 on one server, after a short warm-up
 * of the first two (a batch ingests its events as single events are); advertisements and OpenLineage events come
 * from deployments of their own. The batched run lasts at least three rounds of batches at the single-event rate.
 */
export async function benchOpenLineageIngest(
  space: Workspace,
  seconds: number,
): Promise<OpenLineageIngestResult> {
  const server = await startHttp(
    process.execPath,
    [BIN, 'serve'],
    regEnv(space.freshDir('openlineage-http'), { REG_LOG_LEVEL: 'info' }),
    '/readyz',
  );
  try {
    const advertiser = await deploymentToken(server.url, 'advertiser');
    const producer = await deploymentToken(server.url, 'producer');
    note(`openlineage: warming up (${WARM_UP_SECONDS} s of advertising and of single events)`);
    await advertising(server.url, advertiser, WARM_UP_SECONDS);
    await lineageEvents(server.url, producer, WARM_UP_SECONDS, 1);
    note(`openlineage: native advertising, ${PRODUCERS} clients for ${seconds} s`);
    const advertise = await advertising(server.url, advertiser, seconds);
    note(`openlineage: single RunEvents, ${PRODUCERS} producers for ${seconds} s`);
    const single = await lineageEvents(server.url, producer, seconds, 1);
    const round = (PRODUCERS * BATCH) / Math.max(single.eventsPerSecond, 1);
    const batchSeconds = Math.min(MAX_BATCH_SECONDS, Math.max(seconds, Math.ceil(BATCH_ROUNDS * round)));
    note(`openlineage: batches of ${BATCH} RunEvents, ${PRODUCERS} producers for ${batchSeconds} s`);
    const batched = await lineageEvents(server.url, producer, batchSeconds, BATCH);
    return { producers: PRODUCERS, batch: BATCH, advertise, single, batched };
  } finally {
    await server.stop();
  }
}

const rate = (n: number): string => Math.round(n).toLocaleString('en');
const ms = (n: number): string => (Number.isFinite(n) ? `${n.toFixed(1)} ms` : '-');
const kib = (n: number): string => (Number.isFinite(n) ? `${(n / 1024).toFixed(1)} KiB` : '-');

/** Renders the ingestion figures and their targets. */
export function renderOpenLineageIngest(result: OpenLineageIngestResult): string {
  const { advertise, single, batched } = result;
  const singleRatio = single.eventsPerSecond / advertise.eventsPerSecond;
  const batchRatio = batched.eventsPerSecond / advertise.eventsPerSecond;
  const refusals = (figures: IngestFigures): string =>
    figures.refused + figures.failures === 0
      ? ''
      : ` (${figures.refused} refused, ${figures.failures} failed requests; first: ${figures.problem ?? '-'})`;
  return [
    `OpenLineage ingestion (${result.producers} concurrent producers, COMPLETE RunEvents with one input and one output)`,
    `  POST /api/v1/advertise/produced        ${rate(advertise.eventsPerSecond)} events/s, p50 ${ms(advertise.p50Ms)}, p95 ${ms(advertise.p95Ms)}${advertise.failures === 0 ? '' : ` (${advertise.failures} failed)`}`,
    `  POST /api/v1/lineage, single events    ${rate(single.eventsPerSecond)} events/s, p50 ${ms(single.p50Ms)}, p95 ${ms(single.p95Ms)}; ${singleRatio.toFixed(2)}× advertising${refusals(single)}`,
    `  POST /api/v1/lineage, ${result.batch} per request  ${rate(batched.eventsPerSecond)} events/s, p50 ${ms(batched.p50Ms)}, p95 ${ms(batched.p95Ms)} per request; ${batchRatio.toFixed(2)}× advertising${refusals(batched)}`,
    `  requests: ${advertise.requests} advertisements and ${single.requests} single events in ${advertise.seconds} s each, ` +
      `${batched.requests} batches in ${batched.seconds} s; bodies ${kib(single.bodyBytes)} per event, ${kib(batched.bodyBytes)} per batch` +
      (batched.bodyBytes >= LARGE_WRITE_BYTES
        ? ' (large bodies, yet no large write: a batch is ingested event by event)'
        : ''),
    '',
    'OpenLineage ingestion targets',
    `  ${singleRatio >= 0.8 && single.refused === 0 ? 'PASS' : 'FAIL'}    single events at least 0.8x native advertising per event: ${singleRatio.toFixed(2)}x`,
    `  ${batchRatio >= 3 && batched.refused === 0 ? 'PASS' : 'FAIL'}    batches of ${result.batch} at least 3x native advertising per event: ${batchRatio.toFixed(2)}x`,
  ].join('\n');
}
