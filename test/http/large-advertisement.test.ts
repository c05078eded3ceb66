import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/core/core.js';
import { createApp } from '../../src/http/app.js';
import { openTestCore, ROOT_TOKEN } from '../helpers.js';

/*
 * An advertisement near the payload limit, on both graph stores: it is written whole, and the writes after it go
 * on. (A SPARQL server compiles one update request at once: Virtuoso refuses one of some 14,000 lines, and the
 * undo of the same size with it, which used to leave every later write refused.)
 */

const ADMIN = { authorization: `Bearer ${ROOT_TOKEN}`, 'content-type': 'application/json' };
const ARTIFACTS = 350;

let core: Core;
let app: ReturnType<typeof createApp>;
let token = '';

async function post(path: string, body: unknown, headers: Record<string, string> = ADMIN) {
  const response = await app.request(path, { method: 'POST', headers, body: JSON.stringify(body) });
  return { status: response.status, json: (await response.json()) as Record<string, any> };
}

beforeAll(async () => {
  core = await openTestCore({}, true);
  app = createApp(core);
  const software = await post('/api/v1/software', { name: 'bulk producer' });
  const instance = await post('/api/v1/instances', { software: software.json.id, label: 'bulk' });
  token = (await post(`/api/v1/instances/${instance.json.id}/tokens`, {})).json.token as string;
});
afterAll(async () => core.close());

describe('an advertisement near the payload limit', () => {
  it('is written whole, and later writes go on', async () => {
    const description = 'A large advertised artifact, described at length to fill the request body. '.repeat(
      50,
    );
    const artifacts = Array.from({ length: ARTIFACTS }, (_, n) => ({
      title: `bulk output ${n}`,
      description,
      conforms_to: 'http://edamontology.org/data_0006',
      keywords: Array.from({ length: 20 }, (_, k) => `bulk-keyword-${k}`),
      distributions: [{ download_url: `https://data.example.org/bulk/${n}` }],
    }));
    const advertised = await post(
      '/api/v1/advertise/produced',
      { run: { external_key: 'bulk-1' }, artifacts },
      { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    );
    expect(advertised.status, JSON.stringify(advertised.json).slice(0, 500)).toBe(201);
    expect(advertised.json.artifacts).toHaveLength(ARTIFACTS);
    const last = (advertised.json.artifacts as string[]).at(-1)!.split('/').pop();
    const read = await app.request(`/api/v1/artifacts/${last}`);
    expect(read.status).toBe(200);
    expect(((await read.json()) as { keywords: string[] }).keywords).toHaveLength(20);

    const after = await post('/api/v1/software', { name: 'written after' });
    expect(after.status, JSON.stringify(after.json)).toBe(201);
  });
});
