import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { chromium, type Browser } from 'playwright-core';
import { runTimed } from './children.js';
import { startHttp } from './http-start.js';
import { note } from './progress.js';
import { BIN, regEnv, ROOT } from './reg-cli.js';
import { median } from './stats.js';
import type { Workspace } from './workspace.js';

const CHROMIUM = '/usr/bin/chromium';
const DIST = path.join(ROOT, 'ui', 'dist');
/** A slow mobile link: 1.6 Mbit/s down, 750 kbit/s up, 150 ms round trips (Chromium's "Fast 3G"). */
const SLOW_LINK = {
  offline: false,
  latency: 150,
  downloadThroughput: 1.6e6 / 8,
  uploadThroughput: 750e3 / 8,
};
const RUNS = 5;

/** Bytes of one file as stored, gzipped and Brotli-compressed. */
export interface Weight {
  readonly raw: number;
  readonly gzip: number;
  readonly brotli: number;
}

/** The web page's weight and load times on a slow link, beside a baseline loaded the same way. */
export interface UiResult {
  /** What the first visit of any page needs: the shell, the entry script, its preloads and the stylesheet. */
  readonly initial: Weight;
  /** The largest route chunk (loaded only on the page that needs it) and its name. */
  readonly largestChunk: Weight & { readonly name: string };
  readonly chunks: number;
  /** Loading `/healthz` (a few bytes) on the same link: the floor any page load pays. */
  readonly baselineMs?: number;
  /** First visit of `/software` until the list of records is on screen, cache empty. */
  readonly coldMs?: number;
  /** The same with the cache warm (a returning visitor). */
  readonly warmMs?: number;
  /** Bytes the cold visit transferred (compressed, headers included). */
  readonly coldBytes?: number;
  readonly skipped?: string;
}

function weigh(file: string): Weight {
  const bytes = fs.readFileSync(file);
  return {
    raw: bytes.length,
    gzip: zlib.gzipSync(bytes, { level: 9 }).length,
    brotli: zlib.brotliCompressSync(bytes).length,
  };
}

const add = (a: Weight, b: Weight): Weight => ({
  raw: a.raw + b.raw,
  gzip: a.gzip + b.gzip,
  brotli: a.brotli + b.brotli,
});

/** Weighs the built page: what the shell loads up front, and the route chunks loaded on demand. */
function weighBuild(): Pick<UiResult, 'initial' | 'largestChunk' | 'chunks'> {
  const shell = fs.readFileSync(path.join(DIST, 'index.html'), 'utf8');
  const upFront = [...shell.matchAll(/(?:src|href)="\/(assets\/[^"]+\.(?:js|css))"/g)].map(
    (match) => match[1]!,
  );
  let initial = weigh(path.join(DIST, 'index.html'));
  for (const asset of upFront) initial = add(initial, weigh(path.join(DIST, asset)));
  const chunks = fs
    .readdirSync(path.join(DIST, 'assets'))
    .filter((name) => name.endsWith('.js') && !upFront.includes(`assets/${name}`));
  let largestChunk = { name: '-', raw: 0, gzip: 0, brotli: 0 };
  for (const name of chunks) {
    const weight = weigh(path.join(DIST, 'assets', name));
    if (weight.brotli > largestChunk.brotli) largestChunk = { name, ...weight };
  }
  return { initial, largestChunk, chunks: chunks.length };
}

/** Milliseconds from navigation until `ready` holds, on the slow link, with or without the cache. */
async function timeLoad(
  browser: Browser,
  url: string,
  ready: string,
  cache: boolean,
): Promise<{ ms: number; bytes: number }> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', SLOW_LINK);
    if (cache) {
      await page.goto(url);
      await page.waitForSelector(ready);
    } else await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    let bytes = 0;
    cdp.on(
      'Network.loadingFinished',
      (event: { encodedDataLength: number }) => (bytes += event.encodedDataLength),
    );
    const started = performance.now();
    await page.goto(url);
    await page.waitForSelector(ready);
    return { ms: performance.now() - started, bytes };
  } finally {
    await context.close();
  }
}

/**
 * The web page on a slow link: the bytes a first visit needs, and the time until the software list of a seeded
 * registry is on screen, cold and warm, each beside loading `/healthz` on the same link.
 */
export async function benchUi(space: Workspace): Promise<UiResult> {
  if (!fs.existsSync(path.join(DIST, 'index.html'))) throw new Error(`the web page is not built: ${DIST}`);
  const weights = weighBuild();
  if (!fs.existsSync(CHROMIUM)) return { ...weights, skipped: `${CHROMIUM} is missing (install chromium)` };
  const dir = space.freshDir('ui');
  note('web page: seeding a registry');
  const seeded = await runTimed(process.execPath, [BIN, 'seed'], { env: regEnv(dir) });
  if (seeded.code !== 0) throw new Error(`reg seed failed: ${seeded.stderr}`);
  const server = await startHttp(
    process.execPath,
    [BIN, 'serve'],
    regEnv(dir, { REG_LOG_LEVEL: 'info' }),
    '/readyz',
  );
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
    ],
  });
  try {
    note(`web page: ${RUNS} loads each of /healthz and /software on a throttled link`);
    const baseline: number[] = [];
    const cold: number[] = [];
    const warm: number[] = [];
    let coldBytes = 0;
    // The list is on screen once a link to a software record shows in the main region.
    const listed = 'main a[href^="/software/"]';
    for (let run = 0; run < RUNS; run++) {
      baseline.push((await timeLoad(browser, `${server.url}/healthz`, 'body', false)).ms);
      const first = await timeLoad(browser, `${server.url}/software`, listed, false);
      cold.push(first.ms);
      coldBytes = first.bytes;
      warm.push((await timeLoad(browser, `${server.url}/software`, listed, true)).ms);
    }
    return {
      ...weights,
      baselineMs: median(baseline),
      coldMs: median(cold),
      warmMs: median(warm),
      coldBytes,
    };
  } finally {
    await browser.close();
    await server.stop();
  }
}

const kib = (bytes: number): string => `${(bytes / 1024).toFixed(1)} KiB`;

export function renderUi(result: UiResult): string {
  const lines = [
    'Web page',
    `  first visit needs      ${kib(result.initial.raw)} (${kib(result.initial.gzip)} gzip, ${kib(result.initial.brotli)} Brotli)`,
    `  largest route chunk    ${result.largestChunk.name}: ${kib(result.largestChunk.brotli)} Brotli; ${result.chunks} chunks loaded on demand`,
  ];
  if (result.skipped !== undefined) return [...lines, `  load times skipped: ${result.skipped}`].join('\n');
  const { baselineMs = 0, coldMs = 0, warmMs = 0, coldBytes = 0 } = result;
  lines.push(
    `  on a 1.6 Mbit/s link with 150 ms round trips (median of ${RUNS}):`,
    `    GET /healthz (baseline)            ${baselineMs.toFixed(0)} ms`,
    `    /software listed, cold cache       ${coldMs.toFixed(0)} ms (${(coldMs / baselineMs).toFixed(1)}x baseline, ${kib(coldBytes)} transferred)`,
    `    /software listed, warm cache       ${warmMs.toFixed(0)} ms (${(warmMs / baselineMs).toFixed(1)}x baseline)`,
    `  ${result.initial.brotli <= 60 * 1024 ? 'PASS' : 'FAIL'}    first visit at most 60 KiB compressed: ${kib(result.initial.brotli)}`,
    `  ${coldMs <= 3000 ? 'PASS' : 'FAIL'}    software list on screen within 3 s on the slow link, cold: ${coldMs.toFixed(0)} ms`,
  );
  return lines.join('\n');
}
