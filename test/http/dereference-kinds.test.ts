import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/core/core.js';
import { createApp } from '../../src/http/app.js';
import { openTestCore, ROOT_TOKEN } from '../helpers.js';

let core: Core;
let app: ReturnType<typeof createApp>;
const auth = { authorization: `Bearer ${ROOT_TOKEN}`, 'content-type': 'application/json' };
const post = async (path: string, body: unknown) =>
  (await (
    await app.request(path, { method: 'POST', headers: auth, body: JSON.stringify(body) })
  ).json()) as Record<string, any>;

beforeAll(async () => {
  core = await openTestCore({}, true);
  app = createApp(core);
});
afterAll(async () => core.close());

describe('record IRIs of every kind dereference', () => {
  it('serves releases, deployments and types by content negotiation with Signposting', async () => {
    const software = await post('/api/v1/software', {
      name: 'deref',
      code_repository: 'https://example.org/repo',
    });
    const release = await post(`/api/v1/software/${software.id}/releases`, { version: '1.0.0' });
    const instance = await post('/api/v1/instances', {
      software: software.id,
      label: 'deref-1',
      endpoint_url: 'https://deref.example.org',
    });
    const type = await post('/api/v1/types', { slug: 'deref-type', label: 'Deref type' });
    for (const [iri, marker] of [
      [release.iri, '"1.0.0"'],
      [instance.iri, '"deref-1"'],
      [type.iri, '"Deref type"'],
    ] as const) {
      const path = new URL(iri).pathname;
      const turtle = await app.request(path, { headers: { accept: 'text/turtle' } });
      expect(turtle.status, path).toBe(200);
      expect(turtle.headers.get('content-type')).toBe('text/turtle; charset=utf-8');
      expect(turtle.headers.get('vary')).toMatch(/Accept/);
      expect(turtle.headers.get('link')).toContain(`<${iri}>; rel="cite-as"`);
      expect(await turtle.text()).toContain(marker);
      const json = await app.request(`${path}.json`);
      expect(((await json.json()) as { iri: string }).iri).toBe(iri);
    }
    expect((await app.request(new URL(instance.iri).pathname)).headers.get('link')).toContain(
      '<https://deref.example.org>; rel="item"',
    );
    expect(
      (
        await app.request('/release/0190aaaa-0000-7000-8000-000000000000', {
          headers: { accept: 'text/turtle' },
        })
      ).status,
    ).toBe(404);
  });
});
