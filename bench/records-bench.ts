import { fileURLToPath } from 'node:url';
import { ROOT_PRINCIPAL } from '../src/core/access/principal.js';
import { readConfig } from '../src/core/config/index.js';
import { openCore } from '../src/core/core.js';
import { silentLogger } from '../src/core/log.js';
import { mintIri } from '../src/core/records/ids.js';
import { SOFTWARE } from '../src/core/records/specs.js';
import { createSoftware } from '../src/core/catalogue/software.js';
import { writeRecord } from '../src/core/stored/write-path.js';
import { exitOf, spawnTracked } from './children.js';
import { startHttp } from './http-start.js';
import { measureThroughput, type Throughput } from './http-load.js';
import { note } from './progress.js';
import { BIN, regEnv } from './reg-cli.js';
import { median, percentile } from './stats.js';
import type { Workspace } from './workspace.js';
import { actOf } from '../src/core/stored/write-path.js';

const BARE = fileURLToPath(new URL('./bare-hono.mjs', import.meta.url));
const TOKEN = 'bench-root-token-0123456789abcdef';
const RECORDS = 300;

/** Record API figures: read throughput against a bare Hono route, and the cost of one validated write. */
export interface RecordsResult {
  readonly baseline: Throughput;
  readonly getOne: Throughput;
  readonly list: Throughput;
  /** Median and 95th percentile of one write through the write path (map, SHACL, vocabulary rule, commit), in-process (ms). */
  readonly writeMs: { readonly median: number; readonly p95: number };
  /** Median of the HTTP POST /api/v1/software round trip (ms). */
  readonly httpCreateMs: number;
}

const sample = (name: number) => ({
  name: `tool ${name}`,
  tagline: 'A benchmark record',
  description: 'Generated to measure record reads and writes.',
  kinds: ['service', 'cli'],
  license: 'https://spdx.org/licenses/Apache-2.0',
  keywords: ['bench', `k${name % 10}`],
  homepage: `https://example.org/tools/${name}`,
  publisher: { name: 'Bench Lab', kind: 'organization' },
  capability: {
    produces: ['http://edamontology.org/data_0006'],
    consumes: ['http://edamontology.org/data_0006'],
  },
});

async function measureWrites(dir: string): Promise<{ median: number; p95: number }> {
  const config = readConfig(regEnv(dir));
  const core = await openCore(config, silentLogger, { index: true });
  try {
    await core.graph.open();
    const root = ROOT_PRINCIPAL;
    // Warm up: the first write compiles nothing (shapes are compiled once) but JITs the path.
    for (let i = 0; i < 20; i++) await createSoftware(core, actOf(root), sample(i));
    const times: number[] = [];
    for (let i = 0; i < RECORDS; i++) {
      const now = new Date().toISOString();
      const candidate = { ...sample(i), deployable: true, created: now, modified: now };
      const iri = mintIri(config.baseIri, SOFTWARE.path);
      const started = performance.now();
      await writeRecord(core, {
        spec: SOFTWARE,
        iri,
        candidate,
        action: 'software.create',
        act: actOf(root),
      });
      times.push(performance.now() - started);
    }
    return { median: median(times), p95: percentile(times, 0.95) };
  } finally {
    await core.close();
  }
}

async function startBare(): Promise<{ url: string; stop: () => Promise<void> }> {
  const child = spawnTracked(process.execPath, [BARE], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout?.setEncoding('utf8').once('data', (line: string) => resolve(line.trim()));
    child.once('exit', () => reject(new Error('bare hono server exited')));
  });
  return {
    url,
    stop: async () => {
      child.kill('SIGTERM');
      await exitOf(child);
    },
  };
}

/** Measures record reads over HTTP against a bare Hono route, and validated writes in-process. */
export async function benchRecords(space: Workspace, seconds: number): Promise<RecordsResult> {
  note('records: bare Hono JSON route (baseline)');
  const bare = await startBare();
  let baseline: Throughput;
  try {
    baseline = await measureThroughput(`${bare.url}/json`, seconds);
  } finally {
    await bare.stop();
  }

  note(`records: ${RECORDS} validated writes in-process`);
  const writeMs = await measureWrites(space.freshDir('records-write'));

  note(`records: reg serve, ${RECORDS} records over HTTP, then read throughput`);
  const server = await startHttp(
    process.execPath,
    [BIN, 'serve'],
    regEnv(space.freshDir('records-http'), { REG_LOG_LEVEL: 'info' }),
    '/readyz',
  );
  try {
    const headers = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
    const creates: number[] = [];
    let id = '';
    for (let i = 0; i < RECORDS; i++) {
      const started = performance.now();
      const response = await fetch(`${server.url}/api/v1/software`, {
        method: 'POST',
        headers,
        body: JSON.stringify(sample(i)),
      });
      const body = (await response.json()) as { id?: string };
      if (response.status !== 201)
        throw new Error(`create failed: ${response.status} ${JSON.stringify(body)}`);
      creates.push(performance.now() - started);
      id = body.id ?? id;
    }
    const getOne = await measureThroughput(`${server.url}/api/v1/software/${id}`, seconds);
    const list = await measureThroughput(`${server.url}/api/v1/software?limit=25`, seconds);
    return { baseline, getOne, list, writeMs, httpCreateMs: median(creates) };
  } finally {
    await server.stop();
  }
}

/** Renders the record figures and their targets. */
export function renderRecords(result: RecordsResult): string {
  const ratio = (t: Throughput) => (t.rps / result.baseline.rps).toFixed(2);
  const rps = (t: Throughput) =>
    `${Math.round(t.rps).toLocaleString('en')} req/s${t.failures > 0 ? ` (${t.failures} failed)` : ''}`;
  const getTarget = result.getOne.rps / result.baseline.rps >= 0.3;
  const writeTarget = result.writeMs.median < 2;
  return [
    'Record API',
    `  bare Hono JSON route (baseline)        ${rps(result.baseline)}`,
    `  GET /api/v1/software/{id}              ${rps(result.getOne)}  ${ratio(result.getOne)}× baseline`,
    `  GET /api/v1/software?limit=25          ${rps(result.list)}  ${ratio(result.list)}× baseline`,
    `  validated write (write path)           median ${result.writeMs.median.toFixed(2)} ms, p95 ${result.writeMs.p95.toFixed(2)} ms`,
    `  POST /api/v1/software over HTTP        median ${result.httpCreateMs.toFixed(2)} ms`,
    '',
    'Record targets',
    `  ${getTarget ? 'PASS' : 'FAIL'}    GET one record >= 0.3x the bare route: ${ratio(result.getOne)}x`,
    `  ${writeTarget ? 'PASS' : 'FAIL'}    one validated write < 2 ms median: ${result.writeMs.median.toFixed(2)} ms`,
  ].join('\n');
}
