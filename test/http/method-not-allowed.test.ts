import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/core/core.js';
import { createApp } from '../../src/http/app.js';
import { openTestCore, ROOT_TOKEN } from '../helpers.js';

let core: Core;
let app: ReturnType<typeof createApp>;

beforeAll(async () => {
  core = await openTestCore({}, true);
  app = createApp(core);
});
afterAll(async () => core.close());

const ask = (method: string, path: string) =>
  app.request(path, {
    method,
    headers: { authorization: `Bearer ${ROOT_TOKEN}`, 'content-type': 'application/json' },
    ...(method === 'GET' || method === 'HEAD' ? {} : { body: '{}' }),
  });

describe('a method a known path does not answer', () => {
  it.each([
    ['DELETE', '/api/v1/search', ['GET', 'HEAD']],
    ['PUT', '/api/v1/software', ['GET', 'HEAD', 'POST']],
    ['POST', '/healthz', ['GET', 'HEAD']],
    ['GET', '/api/v1/advertise/produced', ['POST']],
    ['PUT', '/api/v1/software/0b7d7e4e-1111-4a4a-8a8a-123456789abc', ['DELETE', 'GET', 'HEAD', 'PATCH']],
  ])('%s %s is 405 with Allow', async (method, path, allow) => {
    const response = await ask(method, path);
    expect(response.status).toBe(405);
    expect(response.headers.get('content-type')).toContain('application/problem+json');
    const listed = (response.headers.get('allow') ?? '').split(', ');
    for (const expected of allow) expect(listed).toContain(expected);
    expect(listed).not.toContain(method);
    const problem = (await response.json()) as Record<string, unknown>;
    expect(problem.code).toBe('method-not-allowed');
    expect(problem.detail).toContain(method);
  });

  it('leaves unknown paths a 404 and known methods answered', async () => {
    expect((await ask('GET', '/api/v1/no-such-collection')).status).toBe(404);
    expect((await ask('DELETE', '/api/v1/no-such-collection')).status).toBe(404);
    expect((await ask('GET', '/api/v1/search?q=x')).status).toBe(200);
  });
});
