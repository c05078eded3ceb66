import path from 'node:path';
import { readConfig } from '../src/core/config/index.js';
import { openCore } from '../src/core/core.js';
import { silentLogger } from '../src/core/log.js';
import { search } from '../src/core/discovery/search.js';
import { runTimed } from './children.js';
import { startHttp } from './http-start.js';
import { note, withTicker } from './progress.js';
import { BIN, regEnv } from './reg-cli.js';
import { generateSearchData, searchQuery, TYPE_COUNT, typeIri } from './search-data.js';
import { percentile } from './stats.js';
import type { Workspace } from './workspace.js';

/** Latency percentiles of a series of sequential calls (ms). */
export interface Latency {
  readonly calls: number;
  readonly p50: number;
  readonly p95: number;
}

/** Search and matchmaking figures at one store size, each beside a baseline measured in the same run. */
export interface SearchResult {
  readonly records: number;
  readonly quads: number;
  /** Spawn of `reg serve` on the restored store to `/readyz` 200. */
  readonly readyMs: number;
  /** From ready until search stops answering `partial` (the index refilled from the records in the background). */
  readonly rebuildMs: number;
  /** `GET /healthz` on the same server: what any request costs over HTTP (baseline of the HTTP figures). */
  readonly httpFloor: Latency;
  readonly httpSearch: Latency;
  /** `GET /api/v1/capabilities?produces=` over distinct types, so no answer comes from the read cache. */
  readonly httpMatch: Latency;
  /** The search service in-process, no HTTP. */
  readonly serviceSearch: Latency;
  /** A bare SQLite point query by row id on the same database (baseline of the in-process figure). */
  readonly sqlitePoint: Latency;
}

const WARM_UP = 50;
const CALLS = 1000;

async function series(calls: number, work: (n: number) => unknown): Promise<Latency> {
  for (let n = 0; n < WARM_UP; n++) await work(n + calls);
  const times: number[] = [];
  for (let n = 0; n < calls; n++) {
    const started = performance.now();
    await work(n);
    times.push(performance.now() - started);
  }
  return { calls, p50: percentile(times, 0.5), p95: percentile(times, 0.95) };
}

async function fetchOk(url: string): Promise<unknown> {
  const response = await fetch(url);
  const body: unknown = await response.json();
  if (response.status !== 200) throw new Error(`${url} answered ${response.status}: ${JSON.stringify(body)}`);
  return body;
}

/**
 * Restores a generated store of `records` records (a quarter each of software, deployments, runs and artifacts),
 * starts `reg serve` on it, waits for the search index to be refilled, and measures search and matchmaking over
 * HTTP against `/healthz`; then, with the server stopped, the search service in-process against a bare SQLite
 * point query on the same database.
 */
export async function benchSearch(space: Workspace, records: number): Promise<SearchResult> {
  const dir = space.freshDir('search');
  const file = path.join(space.freshDir('search-data'), 'search.nq');
  const groups = Math.ceil(records / 4);
  note(`search: generating ${(groups * 4).toLocaleString('en')} records`);
  const quads = await generateSearchData(file, records);
  note(`search: restoring ${quads.toLocaleString('en')} quads`);
  const restored = await withTicker('search: restoring', () =>
    runTimed(process.execPath, [BIN, 'restore', '--nquads', file, '--json'], { env: regEnv(dir) }),
  );
  if (restored.code !== 0) throw new Error(`restore failed: ${restored.stderr}`);
  space.remove('search-data');
  const env = regEnv(dir, { REG_LOG_LEVEL: 'info' });
  const server = await startHttp(process.execPath, [BIN, 'serve'], env, '/readyz');
  let result: Omit<SearchResult, 'serviceSearch' | 'sqlitePoint'>;
  try {
    const ready = performance.now();
    await withTicker('search: index refilling', async () => {
      for (;;) {
        const body = (await fetchOk(`${server.url}/api/v1/search?q=x`)) as { partial: boolean };
        if (!body.partial) return;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    });
    const rebuildMs = performance.now() - ready;
    note('search: GET /healthz, /api/v1/search, /api/v1/capabilities');
    const httpFloor = await series(CALLS, () => fetchOk(`${server.url}/healthz`));
    const httpSearch = await series(CALLS, (n) =>
      fetchOk(`${server.url}/api/v1/search?q=${encodeURIComponent(searchQuery(n, groups))}`),
    );
    const httpMatch = await series(TYPE_COUNT - WARM_UP, (n) =>
      fetchOk(`${server.url}/api/v1/capabilities?produces=${encodeURIComponent(typeIri(n % TYPE_COUNT))}`),
    );
    result = {
      records: groups * 4,
      quads,
      readyMs: server.figures.readyMs,
      rebuildMs,
      httpFloor,
      httpSearch,
      httpMatch,
    };
  } finally {
    await server.stop();
  }
  note('search: the search service and a bare SQLite point query, in-process');
  const core = await openCore(readConfig(regEnv(dir)), silentLogger);
  try {
    const serviceSearch = await series(CALLS, (n) => search(core, { q: searchQuery(n, groups) }));
    const point = core.db.prepare('SELECT * FROM search_entry WHERE id = ?');
    const sqlitePoint = await series(CALLS, (n) => point.get(1 + ((n * 7919) % (groups * 4))));
    return { ...result, serviceSearch, sqlitePoint };
  } finally {
    await core.close();
    space.remove('search');
  }
}

const ms = (value: number): string => `${value.toFixed(value < 1 ? 3 : 2)} ms`;
const latency = (l: Latency): string => `p50 ${ms(l.p50)}, p95 ${ms(l.p95)} over ${l.calls} calls`;
const times = (value: number, base: number): string => `${(value / base).toFixed(1)}× baseline`;

/** Renders the search figures, their ratios to the baselines, and the targets. */
export function renderSearch(result: SearchResult): string {
  const searchTarget = result.httpSearch.p95 < 10;
  const matchTarget = result.httpMatch.p95 < 20;
  return [
    `Search and matchmaking (${result.records.toLocaleString('en')} records, ${result.quads.toLocaleString('en')} quads)`,
    `  reg serve to /readyz                          ${ms(result.readyMs)}`,
    `  search index refilled after restore           ${ms(result.rebuildMs)} after ready (in the background)`,
    `  GET /healthz (HTTP baseline)                  ${latency(result.httpFloor)}`,
    `  GET /api/v1/search (mixed queries)            ${latency(result.httpSearch)}; p95 ${times(result.httpSearch.p95, result.httpFloor.p95)}`,
    `  GET /api/v1/capabilities?produces=            ${latency(result.httpMatch)}; p95 ${times(result.httpMatch.p95, result.httpFloor.p95)}`,
    `  bare SQLite point query (in-process baseline) ${latency(result.sqlitePoint)}`,
    `  search service (in-process)                   ${latency(result.serviceSearch)}; p95 ${times(result.serviceSearch.p95, result.sqlitePoint.p95)}`,
    '',
    'Search targets',
    `  ${searchTarget ? 'PASS' : 'FAIL'}    search p95 < 10 ms at ${result.records.toLocaleString('en')} records: ${ms(result.httpSearch.p95)}`,
    `  ${matchTarget ? 'PASS' : 'FAIL'}    matchmaking p95 < 20 ms: ${ms(result.httpMatch.p95)}`,
  ].join('\n');
}
