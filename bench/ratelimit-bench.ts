import { fileURLToPath } from 'node:url';
import { Hono } from 'hono';
import { principal } from '../src/core/access/principal.js';
import { readConfig } from '../src/core/config/index.js';
import { silentLogger } from '../src/core/log.js';
import type { AppEnv } from '../src/http/env.js';
import { RateLimiter } from '../src/http/rate-limit/limiter.js';
import { runTimed } from './children.js';
import { startHttp, type StartedServer } from './http-start.js';
import { note } from './progress.js';
import { BIN, regEnv } from './reg-cli.js';
import type { Workspace } from './workspace.js';

const CHILD = fileURLToPath(new URL('./advertise-child.mjs', import.meta.url));
const TOKEN = 'bench-root-token-0123456789abcdef';
const CLIENTS = 50;

/** Advertising throughput with the rate limiter counting every call (none refused) and with it switched off. */
export interface RateLimitResult {
  /** Calls per second of each round, in the order run: off, on, on, off, on, off, off, on. */
  readonly rounds: readonly {
    readonly limiter: 'on' | 'off';
    readonly rps: number;
    readonly failures: number;
  }[];
  readonly onRps: number;
  readonly offRps: number;
  /** onRps / offRps: 1 means the limiter costs nothing. */
  readonly ratio: number;
  /** The limiter's own time per request, measured in-process (µs). */
  readonly costUs: number;
  /** The ratio that time gives at the best throughput measured without the limiter: 1 / (1 + cost × rps). */
  readonly costRatio: number;
}

/**
 * The limiter's own time per request, in µs: the same minimal application (a principal, one route) with and
 * without the limiter in front, in alternating chunks, the difference divided by the requests. It does not move
 * with other work on the machine as much as throughput over HTTP does.
 */
async function limiterCostUs(dataDir: string): Promise<number> {
  const config = readConfig(regEnv(dataDir));
  const limiter = new RateLimiter(config.rateLimits, config.trustedProxies, silentLogger);
  const caller = principal({
    credential: 'local-token',
    actorKind: 'instance-token',
    subject: 'urn:bench:ci',
  });
  const build = (limited: boolean) => {
    const app = new Hono<AppEnv>();
    app.use('*', async (c, next) => {
      c.set('principal', caller);
      await next();
    });
    if (limited) app.use('*', limiter.afterAuthentication());
    app.post('/api/v1/advertise/produced', (c) => c.body(null, 201));
    return app;
  };
  const apps = { on: build(true), off: build(false) };
  // The credential is never checked here: the principal above stands for it.
  const headers = { authorization: 'Bearer bench' };
  const chunk = async (app: Hono<AppEnv>): Promise<number> => {
    const started = performance.now();
    for (let i = 0; i < 5000; i++) {
      const response = await app.request('/api/v1/advertise/produced', { method: 'POST', headers });
      if (response.status !== 201) throw new Error(`the limiter refused a bench request: ${response.status}`);
    }
    return performance.now() - started;
  };
  await chunk(apps.on);
  await chunk(apps.off);
  const spent = { on: 0, off: 0 };
  for (let round = 0; round < 10; round++) {
    for (const which of round % 2 === 0 ? (['on', 'off'] as const) : (['off', 'on'] as const))
      spent[which] += await chunk(apps[which]);
  }
  return Math.max(0, ((spent.on - spent.off) * 1000) / 50_000);
}

/** A registry with one deployment token to advertise with. */
async function advertiser(space: Workspace, name: string, extra: Record<string, string>) {
  const server = await startHttp(
    process.execPath,
    [BIN, 'serve'],
    regEnv(space.freshDir(name), { REG_LOG_LEVEL: 'info', ...extra }),
    '/readyz',
  );
  const headers = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
  const post = async (path: string, body: unknown) =>
    (await (
      await fetch(`${server.url}${path}`, { method: 'POST', headers, body: JSON.stringify(body) })
    ).json()) as Record<string, string>;
  const software = await post('/api/v1/software', { name: 'advertiser' });
  const instance = await post('/api/v1/instances', { software: software.id, label: 'ci' });
  const token = (await post(`/api/v1/instances/${instance.id}/tokens`, {})).token ?? '';
  return { server, token };
}

async function load(server: StartedServer, token: string, seconds: number) {
  const run = await runTimed(process.execPath, [CHILD, server.url, token, String(seconds), String(CLIENTS)]);
  if (run.code !== 0) throw new Error(`advertising load failed: ${run.stderr}`);
  const result = JSON.parse(run.stdout) as { requests: number; failures: number; ms: number };
  return { rps: (result.requests * 1000) / result.ms, failures: result.failures };
}

/**
 * What the rate limiter costs: advertising (a write of a deployment token, the limiter's whole path: its class,
 * its caller, its bucket and its headers) against two registries, one with the limiter on and rates far above the
 * load, one with `REG_RATE_LIMITS=off`, in rounds off on on off on off off on so that a drift of the machine falls on both.
 */
export async function benchRateLimit(space: Workspace, seconds: number): Promise<RateLimitResult> {
  note(`rate limiter: advertising with ${CLIENTS} clients, limiter on and off, ${seconds} s per round`);
  const on = await advertiser(space, 'ratelimit-on', {});
  const off = await advertiser(space, 'ratelimit-off', { REG_RATE_LIMITS: 'off' });
  try {
    const rounds: { limiter: 'on' | 'off'; rps: number; failures: number }[] = [];
    for (const limiter of ['off', 'on', 'on', 'off', 'on', 'off', 'off', 'on'] as const) {
      const target = limiter === 'on' ? on : off;
      rounds.push({ limiter, ...(await load(target.server, target.token, seconds)) });
    }
    const mean = (which: 'on' | 'off') => {
      const chosen = rounds.filter((round) => round.limiter === which);
      return chosen.reduce((sum, round) => sum + round.rps, 0) / chosen.length;
    };
    const [onRps, offRps] = [mean('on'), mean('off')];
    note('rate limiter: its own time per request, in-process');
    const costUs = await limiterCostUs(space.freshDir('ratelimit-cost'));
    const best = Math.max(...rounds.filter((round) => round.limiter === 'off').map((round) => round.rps));
    return {
      rounds,
      onRps,
      offRps,
      ratio: onRps / offRps,
      costUs,
      costRatio: 1 / (1 + (costUs / 1e6) * best),
    };
  } finally {
    await on.server.stop();
    await off.server.stop();
  }
}

/** Renders the limiter's cost and its target. */
export function renderRateLimit(result: RateLimitResult): string {
  const failures = result.rounds.reduce((sum, round) => sum + round.failures, 0);
  return [
    `Rate limiter (POST /api/v1/advertise/produced, ${CLIENTS} concurrent clients, rounds off on on off on off off on)`,
    ...result.rounds.map(
      (round) =>
        `  limiter ${round.limiter.padEnd(3)}                          ${Math.round(round.rps).toLocaleString('en')} calls/s (${round.failures} failed)`,
    ),
    `  mean with the limiter on / off         ${Math.round(result.onRps).toLocaleString('en')} / ${Math.round(result.offRps).toLocaleString('en')} calls/s: ratio ${result.ratio.toFixed(3)}`,
    `  the limiter's own time per request     ${result.costUs.toFixed(2)} µs in-process → ratio ${result.costRatio.toFixed(4)} at the best throughput without it`,
    '',
    'Rate limiter target',
    `  ${result.ratio >= 0.98 && failures === 0 ? 'PASS' : 'FAIL'}    costs under 2 % of advertising throughput over HTTP, none refused: ratio ${result.ratio.toFixed(3)}, ${failures} failed`,
    `  ${result.costRatio >= 0.98 ? 'PASS' : 'FAIL'}    its own time costs under 2 % of that throughput: ratio ${result.costRatio.toFixed(4)}`,
  ].join('\n');
}
