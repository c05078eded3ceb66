import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT } from '../../src/cli/exit-codes.js';
import { readConfig } from '../../src/core/config/index.js';
import { parseRateLimit } from '../../src/core/config/parse.js';
import { runReg, startServe, testEnv, type ServerProcess } from '../helpers.js';

/** The refusal readConfig gives an environment, or undefined when it accepts it. */
function refusal(env: Record<string, string>): string | undefined {
  try {
    readConfig(testEnv(env));
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

describe('rate settings', () => {
  it('reads <n>/<period>[+burst]', () => {
    expect(parseRateLimit('600/min+100')).toEqual({ count: 600, periodMs: 60_000, burst: 100 });
    expect(parseRateLimit(' 10 / s ')).toEqual({ count: 10, periodMs: 1000, burst: 10 });
    expect(parseRateLimit('5000/h+50')).toEqual({ count: 5000, periodMs: 3_600_000, burst: 50 });
    for (const bad of ['lots', '600', '600/day', '0/min', '10/min+0', '10/min+', '-1/min', '1.5/min'])
      expect(() => parseRateLimit(bad), bad).toThrow(/must/);
  });

  it('defaults to the documented rates, anonymous below authenticated', () => {
    const { rateLimits } = readConfig({ REG_BASE_IRI: 'http://registry.test' });
    expect(rateLimits.enabled).toBe(true);
    const rate = (name: keyof typeof rateLimits.classes, who: 'anonymous' | 'authenticated') => {
      const rule = rateLimits.classes[name][who];
      expect(rule.periodMs).toBe(60_000);
      return `${rule.count}+${rule.burst}`;
    };
    expect(
      (['read', 'write', 'sparql', 'federated', 'mcp', 'outbound'] as const).map((name) => [
        name,
        rate(name, 'anonymous'),
        rate(name, 'authenticated'),
      ]),
    ).toEqual([
      ['read', '300+60', '1200+200'],
      ['write', '60+20', '300+60'],
      ['sparql', '30+10', '120+30'],
      ['federated', '10+5', '60+10'],
      ['mcp', '120+30', '600+100'],
      ['outbound', '10+5', '60+10'],
    ]);
    expect(rate('auth_fail', 'anonymous')).toBe('20+10');
  });

  it('takes overrides for each class and switches off', () => {
    const config = readConfig(
      testEnv({
        REG_RATE_LIMIT_SPARQL: '10/s+5',
        REG_RATE_LIMIT_SPARQL_ANONYMOUS: '2/min',
        REG_RATE_LIMITS: 'off',
      }),
    );
    expect(config.rateLimits.enabled).toBe(false);
    expect(config.rateLimits.classes.sparql).toEqual({
      authenticated: { count: 10, periodMs: 1000, burst: 5 },
      anonymous: { count: 2, periodMs: 60_000, burst: 2 },
    });
    expect(config.unknownVariables).toEqual([]);
  });

  it('refuses a malformed rate naming the variable', () => {
    expect(refusal({ REG_RATE_LIMIT_SPARQL_ANONYMOUS: '30 a minute' })).toMatch(
      /^REG_RATE_LIMIT_SPARQL_ANONYMOUS must be a rate such as 600\/min\+100/m,
    );
    expect(refusal({ REG_RATE_LIMIT_AUTH_FAIL: '20/min+0' })).toMatch(
      /^REG_RATE_LIMIT_AUTH_FAIL must have a burst/m,
    );
    expect(refusal({ REG_RATE_LIMITS: 'sometimes' })).toMatch(/^REG_RATE_LIMITS must be true or false/m);
  });

  it('refuses the start of reg serve on a malformed rate, naming the variable (exit 3)', async () => {
    const result = await runReg(['serve'], testEnv({ REG_RATE_LIMIT_WRITE: '60/fortnight' }));
    expect(result.code).toBe(EXIT.config);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(
      /^reg: REG_RATE_LIMIT_WRITE must be a rate such as 600\/min\+100.*"60\/fortnight"/,
    );
  });
});

describe('a served registry', () => {
  let server: ServerProcess;
  beforeAll(async () => {
    server = await startServe(testEnv({ REG_RATE_LIMIT_READ_ANONYMOUS: '6/min+3' }));
  });
  afterAll(async () => server.stop());

  it('charges a forged X-Forwarded-For from an untrusted peer to the peer itself', async () => {
    const statuses: number[] = [];
    let last: Response | undefined;
    for (let i = 0; i < 4; i++) {
      last = await fetch(`${server.url}/api/v1/types`, { headers: { 'x-forwarded-for': `203.0.113.${i}` } });
      statuses.push(last.status);
      if (i < 3) await last.arrayBuffer();
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
    expect(Number(last?.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(last?.headers.get('ratelimit-policy')).toBe('"read";q=6;w=60');
    expect(await last?.json()).toMatchObject({
      code: 'rate-limited',
      detail: 'read limit for anonymous clients: 6/min, burst 3',
    });
    const metrics = await (await fetch(`${server.url}/metrics`)).text();
    expect(metrics).toContain('reg_ratelimit_rejections_total{class="read"} 1');
  });
});
