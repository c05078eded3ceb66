import { fileURLToPath } from 'node:url';
import { memoryOf, runTimed } from './children.js';
import { generateNQuads } from './generate-nquads.js';
import { startHttp, type StartedServer } from './http-start.js';
import { sizeLabel } from './options.js';
import { note } from './progress.js';
import { BIN, regEnv } from './reg-cli.js';
import { runRestore } from './reg-data.js';
import type { Workspace } from './workspace.js';

/*
 * What hostile clients cost everyone else: the latency of 20 ordinary clients (record reads, lists, small
 * advertisements) while one anonymous client sends an expensive SPARQL query again and again and another posts
 * advertisements near the payload limit, against the same 20 clients on a quiet registry, in the same run.
 */

const CHILD = fileURLToPath(new URL('./hostile-child.mjs', import.meta.url));
const TOKEN = 'bench-root-token-0123456789abcdef';
const CLIENTS = 20;
const READ_RECORDS = 50;
/** The anonymous time limit of the server under test: short, so that the window sees several stopped queries. */
const ANONYMOUS_TIMEOUT = '2s';
/** The size of the large advertisement: just under the default REG_MAX_PAYLOAD_BYTES (2 MiB). */
const ADVERT_BYTES = 2 * 1024 * 1024 - 64 * 1024;

/** Latency of one kind of request (ms). */
export interface Latency {
  readonly count: number;
  readonly p50: number;
  readonly p95: number;
}

/** What the 20 ordinary clients saw in one window. */
export interface MixFigures {
  readonly failures: number;
  readonly statuses: Record<string, number>;
  readonly get: Latency;
  readonly list: Latency;
  readonly advertise: Latency;
  readonly all: Latency;
}

/** A quiet window and the hostile one measured right after it. */
export interface WindowPair {
  readonly quiet: MixFigures;
  readonly loaded: MixFigures;
}

/** Figures of the hostile-client benchmark. */
export interface HostileResult {
  readonly quads: number;
  /** Memory of `reg serve` before and after its first /sparql query loaded the client copy of the index (MiB). */
  readonly memory: { readonly beforeMb: number; readonly afterMb: number };
  /** Beside the expensive SPARQL loop only, the large advertisements only, and both; each with its quiet window. */
  readonly sparqlOnly: WindowPair;
  readonly advertOnly: WindowPair;
  readonly loaded: WindowPair;
  readonly heavy: Latency & { readonly statuses: Record<string, number> };
  readonly advert: Latency & { readonly bytes: number; readonly statuses: Record<string, number> };
}

async function child<T>(args: string[]): Promise<T> {
  const run = await runTimed(process.execPath, [CHILD, ...args]);
  if (run.code !== 0) throw new Error(`hostile load (${args[0]}) failed: ${run.stderr}`);
  return JSON.parse(run.stdout) as T;
}

/** Creates the records the clients read and the deployments whose tokens advertise. */
async function prepare(url: string): Promise<{ ids: string[]; tokens: [string, string] }> {
  const headers = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
  const post = async (path: string, body: unknown): Promise<Record<string, string>> => {
    const response = await fetch(`${url}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
    const json = (await response.json()) as Record<string, string>;
    if (response.status !== 201) throw new Error(`${path}: ${response.status} ${JSON.stringify(json)}`);
    return json;
  };
  const ids: string[] = [];
  for (let i = 0; i < READ_RECORDS; i++)
    ids.push((await post('/api/v1/software', { name: `read ${i}` })).id!);
  const token = async (label: string): Promise<string> => {
    const instance = await post('/api/v1/instances', { software: ids[0], label });
    return (await post(`/api/v1/instances/${instance.id}/tokens`, {})).token!;
  };
  return { ids, tokens: [await token('ordinary'), await token('bulk')] };
}

/** Memory before and after the first client query (which loads the client copy of the index). */
async function clientCopyMemory(server: StartedServer): Promise<HostileResult['memory']> {
  const before = memoryOf(server.child.pid!).rssMb;
  const response = await fetch(`${server.url}/sparql?query=${encodeURIComponent('ASK { ?s ?p ?o }')}`);
  if (response.status !== 200)
    throw new Error(`first client query: ${response.status} ${await response.text()}`);
  return { beforeMb: before, afterMb: memoryOf(server.child.pid!).rssMb };
}

/**
 * Each hostile window beside a quiet window measured just before it, so both see the same amount of data (the
 * ordinary clients' own advertisements grow the store from window to window): beside the expensive SPARQL loop,
 * beside the large advertisements, beside both.
 */
async function measureWindows(
  url: string,
  ids: string[],
  tokens: [string, string],
  seconds: number,
): Promise<Omit<HostileResult, 'quads' | 'memory'>> {
  const mix = (span = seconds) =>
    child<MixFigures>(['mix', url, tokens[0], String(span), String(CLIENTS), ids.join(',')]);
  const span = String(seconds + 2);
  const beside = async (heavy: boolean, advert: boolean) => {
    const what = [
      heavy ? 'an expensive anonymous SPARQL loop' : '',
      advert ? `${Math.round(ADVERT_BYTES / 1024)} KiB advertisements` : '',
    ]
      .filter((part) => part !== '')
      .join(' and ');
    note(`hostile: ${CLIENTS} clients for ${seconds} s on a quiet registry`);
    const quiet = await mix();
    note(`hostile: the same clients beside ${what}`);
    const hostile = [
      heavy ? child<HostileResult['heavy']>(['heavy', url, span]) : undefined,
      advert
        ? child<HostileResult['advert']>(['advert', url, tokens[1], span, String(ADVERT_BYTES)])
        : undefined,
    ] as const;
    // The hostile clients get going first.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const figures = await mix();
    return { pair: { quiet, loaded: figures }, heavy: await hostile[0], advert: await hostile[1] };
  };
  // A first window warms the server (compiled code, caches, validation workers) and is not counted.
  note('hostile: warming up');
  await mix(2);
  const sparqlOnly = (await beside(true, false)).pair;
  const advertOnly = (await beside(false, true)).pair;
  const both = await beside(true, true);
  if (both.heavy === undefined || both.advert === undefined) throw new Error('a hostile client did not run');
  return { sparqlOnly, advertOnly, loaded: both.pair, heavy: both.heavy, advert: both.advert };
}

/** Runs the quiet window, then the same clients beside the two hostile ones. */
export async function benchHostile(space: Workspace, seconds: number, quads: number): Promise<HostileResult> {
  const label = sizeLabel(quads);
  const dataDir = space.freshDir(`hostile-${label}`);
  note(`hostile: ${label} quads restored, then reg serve`);
  const input = space.path(`hostile-${label}.nq`);
  await generateNQuads(input, quads);
  await runRestore(dataDir, input);
  space.remove(`hostile-${label}.nq`);
  const server = await startHttp(
    process.execPath,
    [BIN, 'serve'],
    regEnv(dataDir, { REG_LOG_LEVEL: 'info', REG_SPARQL_ANONYMOUS_TIMEOUT: ANONYMOUS_TIMEOUT }),
    '/readyz',
  );
  try {
    const { ids, tokens } = await prepare(server.url);
    const stored = (await (await fetch(`${server.url}/readyz`)).json()) as { triples: number };
    const memory = await clientCopyMemory(server);
    return { quads: stored.triples, memory, ...(await measureWindows(server.url, ids, tokens, seconds)) };
  } finally {
    await server.stop();
  }
}

const ms = (n: number): string => (Number.isFinite(n) ? `${n.toFixed(1)} ms` : '-');
const ratio = (loaded: number, quiet: number): string => `${(loaded / quiet).toFixed(2)}×`;
const statuses = (counts: Record<string, number>): string =>
  Object.entries(counts)
    .map(([status, n]) => `${n}× ${status === '0' ? 'no answer' : status}`)
    .join(', ');

/** Renders each hostile window's p95 beside its quiet one, with the target: beside both, within 2× of quiet. */
export function renderHostile(result: HostileResult): string {
  const pairs = [result.sparqlOnly, result.advertOnly, result.loaded];
  const kinds = ['get', 'list', 'advertise', 'all'] as const;
  const name = { get: 'GET one record', list: 'GET list', advertise: 'POST advertise', all: 'all requests' };
  const rows = kinds.map((kind) => {
    const cells = pairs.map(
      (pair) =>
        `${ms(pair.quiet[kind].p95).padStart(9)} ${ms(pair.loaded[kind].p95).padStart(9)} ${ratio(pair.loaded[kind].p95, pair.quiet[kind].p95).padStart(6)}`,
    );
    return `  ${name[kind].padEnd(16)} ${cells.join('  ')}`;
  });
  const worstOf = (pair: WindowPair): number =>
    Math.max(
      ...(['get', 'list', 'advertise'] as const).map((kind) => pair.loaded[kind].p95 / pair.quiet[kind].p95),
    );
  const worst = worstOf(result.loaded);
  const copyMb = result.memory.afterMb - result.memory.beforeMb;
  const counts = pairs.map((pair) => `${pair.quiet.all.count} → ${pair.loaded.all.count}`).join(', ');
  return [
    `Hostile clients (${CLIENTS} ordinary clients; ${result.quads.toLocaleString('en')} quads; REG_SPARQL_ANONYMOUS_TIMEOUT=${ANONYMOUS_TIMEOUT})`,
    '  p95: quiet, then beside      ----- SPARQL loop -----  ---- large adverts -----  --------- both ---------',
    ...rows,
    `  requests answered  ${counts}; failures beside both ${result.loaded.loaded.failures} (${statuses(result.loaded.loaded.statuses)})`,
    `  expensive SPARQL   ${result.heavy.count} queries, ${statuses(result.heavy.statuses)}; p50 ${ms(result.heavy.p50)}`,
    `  large advertise    ${result.advert.count} of ${Math.round(result.advert.bytes / 1024)} KiB, ${statuses(result.advert.statuses)}; p50 ${ms(result.advert.p50)}`,
    `  memory             ${result.memory.beforeMb.toFixed(0)} MiB before the first /sparql query, ${result.memory.afterMb.toFixed(0)} MiB after (client copy of the index: ${copyMb.toFixed(0)} MiB)`,
    '',
    'Hostile-client target',
    `  ${worst <= 2 ? 'PASS' : 'FAIL'}    p95 of reads, lists and advertise beside both within 2x of quiet: worst ${worst.toFixed(2)}x`,
    `  (info)  beside the large advertisements alone: worst ${worstOf(result.advertOnly).toFixed(2)}x; beside the SPARQL loop alone: worst ${worstOf(result.sparqlOnly).toFixed(2)}x`,
  ].join('\n');
}
