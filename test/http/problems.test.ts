import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/core/core.js';
import { ERROR_CODES } from '../../src/core/error-codes.js';
import { createApp } from '../../src/http/app.js';
import { openTestCore } from '../helpers.js';

let core: Core;
let app: ReturnType<typeof createApp>;

beforeAll(async () => {
  // A private registry: the catalogue of error codes is documentation and stays public.
  core = await openTestCore({ REG_PUBLIC_READ: 'false' }, true);
  app = createApp(core);
});
afterAll(async () => core.close());

describe('the catalogue of error codes', () => {
  it('lists every code with its status, title and meaning', async () => {
    const response = await app.request('/problems');
    expect(response.status).toBe(200);
    const body = (await response.json()) as { items: Record<string, unknown>[]; total: number };
    expect(body.total).toBe(Object.keys(ERROR_CODES).length);
    for (const item of body.items) {
      expect(item.type).toBe(`https://w3id.org/reg/problem/${String(item.code)}`);
      expect(typeof item.status).toBe('number');
      expect(String(item.title)).not.toBe('');
      expect(String(item.about).length).toBeGreaterThan(20);
    }
  });

  it('describes one code as JSON, or as a page for a browser', async () => {
    const json = await app.request('/problems/precondition-failed');
    expect(await json.json()).toMatchObject({
      code: 'precondition-failed',
      status: 412,
      title: 'Precondition failed',
    });
    const page = await app.request('/problems/precondition-failed', { headers: { accept: 'text/html' } });
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(await page.text()).toContain('<h1>Precondition failed</h1>');
    const unknown = await app.request('/problems/no-such-code');
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get('content-type')).toContain('application/problem+json');
  });

  it('is where every problem the registry answers takes its status and title from', async () => {
    const answers = [
      await app.request('/api/v1/software'), // 401: a private registry
      await app.request('/api/v1/search', { method: 'DELETE' }), // 405
      await app.request(
        '/sparql?query=SELECT%20*%20WHERE%20%7B%20SERVICE%20%3Chttp%3A%2F%2Fx%3E%20%7B%7D%20%7D',
        {
          headers: { authorization: 'Bearer test-root-token-0123456789abcdef' },
        },
      ), // 400 federated-query-refused
    ];
    for (const answer of answers) {
      const problem = (await answer.json()) as {
        code: keyof typeof ERROR_CODES;
        status: number;
        title: string;
      };
      const entry = ERROR_CODES[problem.code];
      expect(entry, JSON.stringify(problem)).toBeDefined();
      expect(problem.status).toBe(entry.status);
      expect(answer.status).toBe(entry.status);
      expect(problem.title).toBe(entry.title);
    }
  });
});
