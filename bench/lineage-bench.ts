import fs from 'node:fs';
import path from 'node:path';
import { startHttp } from './http-start.js';
import { note } from './progress.js';
import { runRestore } from './reg-data.js';
import { BASE_IRI, BIN, regEnv } from './reg-cli.js';
import { percentile } from './stats.js';
import type { Workspace } from './workspace.js';
import { advertiseLoad, type AdvertiseLoad } from './advertise-bench.js';

const G = '<urn:reg:local>';
const T = {
  type: '<http://www.w3.org/1999/02/22-rdf-syntax-ns#type>',
  dataset: '<http://www.w3.org/ns/dcat#Dataset>',
  entity: '<http://www.w3.org/ns/prov#Entity>',
  activity: '<http://www.w3.org/ns/prov#Activity>',
  title: '<http://purl.org/dc/terms/title>',
  conformsTo: '<http://purl.org/dc/terms/conformsTo>',
  identifier: '<http://purl.org/dc/terms/identifier>',
  derived: '<http://www.w3.org/ns/prov#wasDerivedFrom>',
  generated: '<http://www.w3.org/ns/prov#wasGeneratedBy>',
  used: '<http://www.w3.org/ns/prov#used>',
  started: '<http://www.w3.org/ns/prov#startedAtTime>',
  status: '<https://w3id.org/reg/ns#status>',
};

/**
 * Lineage latency at depth 6 on a store of artifacts chained by derivation and runs, and advertising on that
 * store (50 clients), loading the query index at start or on demand.
 */
export interface LineageResult {
  readonly quads: number;
  readonly queries: number;
  readonly p50Ms: number;
  readonly p95Ms: number;
  readonly queryIndex: 'at-start' | 'on-demand';
  readonly advertise: AdvertiseLoad;
}

/** Stores larger than this are served with the query index loaded on demand, as the README advises. */
const ON_DEMAND_FROM_QUADS = 3_000_000;

/** Advertising on the large store: at least this share of its rate on an empty store in the same run. */
const ADVERTISE_KEPT = 0.8;

/** Writes `artifacts` artifacts (about 10 quads each with their runs), each derived from two earlier ones. */
export async function generateLineage(file: string, artifacts: number): Promise<number> {
  const out = fs.createWriteStream(file);
  let quads = 0;
  let chunk: string[] = [];
  const line = (s: string, p: string, o: string) => {
    chunk.push(`${s} ${p} ${o} ${G} .`);
    quads++;
  };
  for (let i = 0; i < artifacts; i++) {
    const a = `<${BASE_IRI}/artifact/a${i}>`;
    const run = `<${BASE_IRI}/run/r${Math.floor(i / 5)}>`;
    line(a, T.type, T.dataset);
    line(a, T.type, T.entity);
    line(a, T.title, `"artifact ${i}"`);
    line(a, T.conformsTo, '<http://edamontology.org/data_0006>');
    line(a, T.identifier, `"k${i}"`);
    if (i > 0) line(a, T.derived, `<${BASE_IRI}/artifact/a${i - 1}>`);
    if (i > 6) line(a, T.derived, `<${BASE_IRI}/artifact/a${i - 7}>`);
    line(a, T.generated, run);
    if (i % 5 === 0) {
      line(run, T.type, T.activity);
      line(run, T.started, '"2026-01-01T00:00:00Z"^^<http://www.w3.org/2001/XMLSchema#dateTime>');
      line(run, T.status, '"success"');
      if (i > 0) line(run, T.used, `<${BASE_IRI}/artifact/a${i - 1}>`);
    }
    if (chunk.length > 20_000) {
      if (!out.write(`${chunk.join('\n')}\n`))
        await new Promise<void>((resolve) => out.once('drain', () => resolve()));
      chunk = [];
    }
  }
  out.end(`${chunk.join('\n')}\n`);
  await new Promise<void>((resolve) => out.once('finish', () => resolve()));
  return quads;
}

/**
 * Restores a generated store of about `targetQuads` quads and measures lineage at depth 6 over HTTP, then
 * advertising for `seconds` on the same store.
 */
export async function benchLineage(
  space: Workspace,
  targetQuads: number,
  seconds: number,
): Promise<LineageResult> {
  const artifacts = Math.round(targetQuads / 9.2);
  const dir = space.freshDir('lineage');
  const file = path.join(space.freshDir('lineage-data'), 'lineage.nq');
  note(`lineage: generating ${artifacts.toLocaleString('en')} chained artifacts`);
  const quads = await generateLineage(file, artifacts);
  note('lineage: restoring');
  await runRestore(dir, file);
  const queryIndex = targetQuads > ON_DEMAND_FROM_QUADS ? 'on-demand' : 'at-start';
  const server = await startHttp(
    process.execPath,
    [BIN, 'serve'],
    regEnv(dir, { REG_LOG_LEVEL: 'info', REG_QUERY_INDEX: queryIndex }),
    '/readyz',
  );
  try {
    // A restore leaves the search and lineage indexes to be refilled in the background; lineage is measured once
    // they are (until then it asks the query index).
    note('lineage: waiting for the search and lineage indexes to be refilled');
    await searchSettled(server.url);
    await lineageIndexSettled(server.url);
    note('lineage: depth-6 queries');
    const times: number[] = [];
    for (let q = 0; q < 220; q++) {
      const id = `a${Math.floor(artifacts * 0.2 + ((q * 7919) % Math.floor(artifacts * 0.6)))}`;
      const started = performance.now();
      const response = await fetch(`${server.url}/api/v1/artifacts/${id}/lineage?direction=both&depth=6`);
      await response.arrayBuffer();
      if (response.status !== 200) throw new Error(`lineage answered ${response.status}`);
      if (q >= 20) times.push(performance.now() - started);
    }
    note(`lineage: advertising on the same store for ${seconds} s`);
    const advertise = await advertiseLoad(server.url, seconds);
    return {
      quads,
      queries: times.length,
      p50Ms: percentile(times, 0.5),
      p95Ms: percentile(times, 0.95),
      queryIndex,
      advertise,
    };
  } finally {
    await server.stop();
  }
}

/** Renders the lineage and advertising figures on the large store and their targets. */
export function renderLineage(result: LineageResult, emptyStoreRps: number): string {
  const ratio = result.advertise.rps / emptyStoreRps;
  return [
    `Lineage and advertising on ${result.quads.toLocaleString('en')} quads (query index ${result.queryIndex})`,
    `  GET /api/v1/artifacts/{id}/lineage      p50 ${result.p50Ms.toFixed(2)} ms, p95 ${result.p95Ms.toFixed(2)} ms over ${result.queries} queries (depth 6, both directions)`,
    `  POST /api/v1/advertise/produced        ${result.advertise.rps.toFixed(0)} calls/s with 50 clients, p50 ${result.advertise.p50Ms.toFixed(1)} ms, p95 ${result.advertise.p95Ms.toFixed(1)} ms, ${result.advertise.failures} failures (${ratio.toFixed(2)}x the empty store's ${emptyStoreRps.toFixed(0)})`,
    `  ${result.p95Ms < 20 ? 'PASS' : 'FAIL'}    lineage depth 6 under 20 ms at p95: ${result.p95Ms.toFixed(2)} ms`,
    `  ${ratio >= ADVERTISE_KEPT && result.advertise.failures === 0 ? 'PASS' : 'FAIL'}    advertising at least ${ADVERTISE_KEPT}x the empty store's rate, no failures: ${ratio.toFixed(2)}x`,
  ].join('\n');
}

/** Polls search until it no longer answers `partial` (the index refilled after a restore). */
export async function searchSettled(url: string): Promise<void> {
  const deadline = Date.now() + 300_000;
  while (Date.now() < deadline) {
    const body = (await (await fetch(`${url}/api/v1/search?q=artifact&limit=1`)).json()) as {
      partial?: boolean;
    };
    if (body.partial === false) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error('the search index was still being refilled after 300 s');
}

/** Polls `/metrics` until the lineage index holds every record (refilled after a restore). */
export async function lineageIndexSettled(url: string): Promise<void> {
  const deadline = Date.now() + 300_000;
  while (Date.now() < deadline) {
    const text = await (await fetch(`${url}/metrics`)).text();
    if (/^reg_lineage_index_ready 1$/m.test(text)) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error('the lineage index was still being filled after 300 s');
}
