import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/core/core.js';
import { createApp } from '../../src/http/app.js';
import { apiOf, artifact } from '../support/api.js';
import { completeRunEvent } from '../support/openlineage.js';
import { openTestCore } from '../helpers.js';

const PROMTOOL = '/usr/bin/promtool';

/** The value of one sample of a scrape, 0 when the series is absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  const wanted = Object.entries(labels).map(([key, value]) => `${key}="${value}"`);
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    const open = line.indexOf('{');
    const given = open === -1 ? [] : line.slice(open + 1, line.indexOf('}')).split(',');
    if (wanted.every((pair) => given.includes(pair)) && wanted.length === given.length)
      return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return 0;
}

describe('/metrics', () => {
  let core: Core;
  let app: ReturnType<typeof createApp>;
  let api: ReturnType<typeof apiOf>;

  beforeAll(async () => {
    core = await openTestCore({}, true);
    app = createApp(core);
    api = apiOf(app);
  });
  afterAll(() => core.close());

  const scrape = async (): Promise<string> => {
    const response = await app.request('/metrics');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/plain; version=0.0.4');
    return response.text();
  };

  it('passes promtool after a mixed workload, counting requests by route template and ingestions by outcome', async () => {
    const sw = await api.call('POST', '/api/v1/software', 201, { name: 'metered' });
    const before = await scrape();
    const byId = { method: 'GET', route: '/api/v1/software/:id', status: '200' };
    const missing = { method: 'GET', route: '/api/v1/software/:id', status: '404' };
    for (let i = 0; i < 3; i++) await api.call('GET', `/api/v1/software/${sw.id}`, 200);
    await api.call('GET', '/api/v1/software/no-such-software', 404);
    // A write refused: no credential.
    await api.call('POST', '/api/v1/software', 401, { name: 'refused' }, null);
    const { token } = await api.deployment(undefined, 'metered deployment');
    await api.advertise(token, 'produced', 'nightly-1', [artifact('metered output')]);
    await api.advertise(token, 'produced', 'nightly-1', [artifact('metered output')], 200);
    const event = completeRunEvent('metered-job', new Date().toISOString(), [], []);
    for (let i = 0; i < 2; i++) await api.call('POST', '/api/v1/openlineage', 202, event, token);
    await api.call('GET', '/no/such/page/at/all', 404, undefined, null);

    const after = await scrape();
    expect(
      sample(after, 'reg_http_requests_total', byId) - sample(before, 'reg_http_requests_total', byId),
    ).toBe(3);
    expect(
      sample(after, 'reg_http_requests_total', missing) - sample(before, 'reg_http_requests_total', missing),
    ).toBe(1);
    const histogram = { method: 'GET', route: '/api/v1/software/:id', status_class: '2xx' };
    expect(
      sample(after, 'reg_http_request_duration_seconds_count', histogram) -
        sample(before, 'reg_http_request_duration_seconds_count', histogram),
    ).toBe(3);
    expect(
      sample(after, 'reg_http_requests_total', { method: 'POST', route: '/api/v1/software', status: '401' }),
    ).toBe(1);
    expect(after).not.toContain('no-such-software');
    expect(after).not.toContain('/no/such/page');
    expect(
      sample(after, 'reg_http_requests_total', { method: 'GET', route: '(unmatched)', status: '404' }),
    ).toBe(1);
    expect(sample(after, 'reg_ingestions_total', { kind: 'advertise', outcome: 'accepted' })).toBe(1);
    expect(sample(after, 'reg_ingestions_total', { kind: 'advertise', outcome: 'replayed' })).toBe(1);
    expect(sample(after, 'reg_ingestions_total', { kind: 'openlineage', outcome: 'accepted' })).toBe(1);
    expect(sample(after, 'reg_ingestions_total', { kind: 'openlineage', outcome: 'replayed' })).toBe(1);
    // Both advertisements were validated (a new OpenLineage run is validated on the same path).
    expect(
      sample(after, 'reg_validation_duration_seconds_count', { kind: 'advertise' }),
    ).toBeGreaterThanOrEqual(2);
    expect(sample(after, 'reg_commit_duration_seconds_count', { store: core.graph.kind })).toBeGreaterThan(0);
    // Both stores group concurrent commits, and count every group (of one act or more).
    expect(sample(after, 'reg_commit_batch_size_count')).toBeGreaterThan(0);
    // The gauges the contract names keep their names; the runtime's metrics are there too.
    expect(sample(after, 'reg_entities', { kind: 'software' })).toBe(2);
    expect(after).toMatch(/^reg_triples \d+$/m);
    expect(after).toMatch(/^reg_ratelimit_rejections_total\{class="read"\} \d+$/m);
    expect(after).toMatch(/^reg_delivery_queue_depth\{state="pending"\} 0$/m);
    expect(after).toMatch(/^nodejs_eventloop_lag_seconds /m);
    expect(sample(after, 'reg_http_requests_in_flight')).toBe(1);

    if (!fs.existsSync(PROMTOOL)) {
      // promtool comes with Debian's prometheus package, which CI installs.
      expect(process.env.CI, 'promtool is missing in CI').toBeUndefined();
      console.warn(`skipped promtool check metrics: ${PROMTOOL} is not installed`);
      return;
    }
    // promtool exits non-zero on errors and, with --lint=all, on lint problems too.
    const out = execFileSync(PROMTOOL, ['check', 'metrics'], { input: after, encoding: 'utf8' });
    expect(out).toBe('');
  });
});
