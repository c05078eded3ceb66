import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCore, type Core } from '../../src/core/core.js';
import { createLogger } from '../../src/core/log.js';
import { createApp } from '../../src/http/app.js';
import { apiOf, type Json } from '../support/api.js';
import { testConfig } from '../helpers.js';

// The registry refusing to reach a non-public address is its own policy at work: the caller is told so plainly,
// and the operator reads it at info level, without a stack, as no fault of the registry.
let core: Core;
let api: ReturnType<typeof apiOf>;
const lines: Json[] = [];

beforeAll(async () => {
  core = await openCore(
    testConfig(),
    createLogger('debug', (line) => lines.push(JSON.parse(line) as Json)),
  );
  await core.graph.open();
  api = apiOf(createApp(core));
});
afterAll(async () => {
  await core.close();
});

describe('GET /api/v1/software/:id/api-doc of a document at a non-public address', () => {
  it('answers a problem saying the address was refused, logged at info without a stack', async () => {
    const url = 'http://127.0.0.1:9/openapi.json';
    const software = await api.call('POST', '/api/v1/software', 201, {
      name: 'documented inside',
      api_docs: [{ url, format: 'openapi' }],
    });
    const response = await api.send('GET', `/api/v1/software/${software.id}/api-doc`, undefined, null);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    const problem = await api.expectStatus(response, 502);
    expect(problem).toMatchObject({ code: 'upstream-failed', refused: 'non-public', upstream_url: url });
    expect(problem.detail).toMatch(/^refused: not a public address: /);
    expect(problem.detail).toContain(url);
    expect(problem.hints[0]).toContain('REG_API_DOC_ALLOW_PRIVATE_TARGETS');

    // The refusal's own line (the access log adds one line per request beside it).
    const logged = lines.filter((line) => line.request_id === problem.request_id && line.msg !== 'request');
    expect(logged.map((line) => line.level)).toEqual(['info']);
    expect(logged[0]).toMatchObject({
      refused: 'non-public',
      cause: '127.0.0.1 is not a public address (loopback)',
    });
    expect(logged[0]?.stack).toBeUndefined();
  });

  it('names a host name without the internal address it resolves to', async () => {
    const url = 'http://localhost:9/openapi.json';
    const software = await api.call('POST', '/api/v1/software', 201, {
      name: 'documented on a local name',
      api_docs: [{ url, format: 'openapi' }],
    });
    const problem = await api.expectStatus(
      await api.send('GET', `/api/v1/software/${software.id}/api-doc`, undefined, null),
      502,
    );
    expect(problem.refused).toBe('non-public');
    expect(problem.detail).toContain('is on localhost,');
    expect(problem.detail).not.toMatch(/127\.0\.0\.1|::1/);
  });
});
