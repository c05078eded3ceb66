import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/core/core.js';
import { openCore } from '../../src/core/core.js';
import { createLogger } from '../../src/core/log.js';
import { createApp } from '../../src/http/app.js';
import { apiOf } from '../support/api.js';
import { ROOT_TOKEN, testConfig } from '../helpers.js';

type Line = Record<string, unknown>;

describe('access log', () => {
  const lines: Line[] = [];
  let core: Core;
  let app: ReturnType<typeof createApp>;

  beforeAll(async () => {
    core = await openCore(
      testConfig(),
      createLogger('debug', (line) => lines.push(JSON.parse(line) as Line)),
    );
    await core.graph.open();
    app = createApp(core);
  });
  afterAll(() => core.close());

  const requestLines = (id: string): Line[] =>
    lines.filter((line) => line.msg === 'request' && line.request_id === id);

  it('writes one line per request with its route template, status, size, time and kind of caller', async () => {
    const api = apiOf(app);
    const sw = await api.call('POST', '/api/v1/software', 201, { name: 'logged' });
    const response = await app.request(`/api/v1/software/${sw.id}`, {
      headers: { authorization: `Bearer ${ROOT_TOKEN}`, 'x-request-id': 'read-1' },
    });
    expect(response.status).toBe(200);
    const [line, ...more] = requestLines('read-1');
    expect(more).toEqual([]);
    expect(line).toMatchObject({
      level: 'info',
      method: 'GET',
      route: '/api/v1/software/:id',
      path: `/api/v1/software/${sw.id}`,
      status: 200,
      principal: 'root',
    });
    expect(line?.duration_ms).toEqual(expect.any(Number));
    // Nothing secret: neither the token nor the subject it stands for.
    expect(JSON.stringify(lines)).not.toContain(ROOT_TOKEN);
    expect(JSON.stringify(line)).not.toContain('urn:reg:root');
  });

  it('names a refused credential and an anonymous caller by kind only', async () => {
    await app.request('/api/v1/software', {
      method: 'POST',
      headers: { authorization: 'Bearer not-a-real-token-0000', 'x-request-id': 'bad-1' },
      body: '{}',
    });
    await app.request('/api/v1/software', { headers: { 'x-request-id': 'anon-1' } });
    expect(requestLines('bad-1')).toMatchObject([
      { status: 401, principal: 'unverified', route: '/api/v1/software' },
    ]);
    expect(requestLines('anon-1')).toMatchObject([{ status: 200, principal: 'anonymous' }]);
    expect(JSON.stringify(lines)).not.toContain('not-a-real-token-0000');
  });

  it('logs probes at debug, not at info', async () => {
    for (const path of ['/healthz', '/readyz', '/metrics'])
      expect(
        (await app.request(path, { headers: { 'x-request-id': `probe${path.replace('/', '-')}` } })).status,
      ).toBe(200);
    for (const id of ['probe-healthz', 'probe-readyz', 'probe-metrics'])
      expect(requestLines(id)).toMatchObject([{ level: 'debug' }]);
  });

  it('is silent when switched off', async () => {
    const quiet: Line[] = [];
    const off = await openCore(
      { ...testConfig(), accessLog: false },
      createLogger('debug', (line) => quiet.push(JSON.parse(line) as Line)),
    );
    try {
      await createApp(off).request('/healthz', { headers: { 'x-request-id': 'off-1' } });
      expect(quiet.filter((line) => line.msg === 'request')).toEqual([]);
    } finally {
      await off.close();
    }
  });
});
