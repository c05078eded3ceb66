import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/core/core.js';
import { createApp } from '../../src/http/app.js';
import { openTestCore, ROOT_TOKEN, waitFor } from '../helpers.js';

/** A cross product of every quad with itself three times: oxigraph would run it for hours. */
const HEAVY = 'SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i }';
const ask = (name: string) =>
  `ASK { GRAPH <urn:reg:local> { ?s <https://schema.org/name> ${JSON.stringify(name)} } }`;

let core: Core;
let app: ReturnType<typeof createApp>;

async function sparql(query: string) {
  const response = await app.request(`/sparql?query=${encodeURIComponent(query)}`);
  return { status: response.status, type: response.headers.get('content-type'), text: await response.text() };
}

async function createSoftware(name: string): Promise<void> {
  const response = await app.request('/api/v1/software', {
    method: 'POST',
    headers: { authorization: `Bearer ${ROOT_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name }),
  });
  expect(response.status).toBe(201);
}

beforeAll(async () => {
  core = await openTestCore({ REG_SPARQL_TIMEOUT: '1s' }, true);
  app = createApp(core);
  await createSoftware('before the timeout');
});
afterAll(async () => core.close());

describe('SPARQL time limit', () => {
  it('stops a query past REG_SPARQL_TIMEOUT with a 504 problem; queries waiting behind it are answered', async () => {
    const started = Date.now();
    const heavy = sparql(HEAVY);
    const behind = sparql(ask('before the timeout'));
    const stopped = await heavy;
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(stopped.status).toBe(504);
    expect(stopped.type).toBe('application/problem+json');
    const problem = JSON.parse(stopped.text) as Record<string, any>;
    expect(problem).toMatchObject({
      type: 'https://w3id.org/reg/problem/query-timeout',
      code: 'query-timeout',
      status: 504,
      timeout_ms: 1000,
    });
    expect(problem.detail).toContain('REG_SPARQL_TIMEOUT');
    expect(problem.hints[0]).toContain('LIMIT');
    // The query that waited behind the stopped one is asked again once the index is back.
    const answered = await behind;
    expect(answered.status, answered.text).toBe(200);
    expect(JSON.parse(answered.text)).toMatchObject({ boolean: true });
  });

  it('rebuilds the index without losing writes made meanwhile, and keeps serving', async () => {
    const stopped = await sparql(HEAVY);
    expect(stopped.status).toBe(504);
    // The index is being rebuilt now: SPARQL-backed reads wait or answer 503, writes go on.
    expect(core.graph.ready).toBe(false);
    expect((await app.request('/readyz')).status).not.toBe(200);
    await createSoftware('during the rebuild');
    await waitFor(async () => (await app.request('/readyz')).status === 200);
    for (const name of ['before the timeout', 'during the rebuild']) {
      const answer = await sparql(ask(name));
      expect(answer.status, answer.text).toBe(200);
      expect(JSON.parse(answer.text), name).toMatchObject({ boolean: true });
    }
    const listed = await app.request('/api/v1/software');
    expect(((await listed.json()) as any).total).toBe(2);
    const search = await app.request('/api/v1/search?q=rebuild');
    expect(((await search.json()) as any).hits).toHaveLength(1);
  });

  it('leaves ordinary queries alone', async () => {
    const answer = await sparql('SELECT ?s WHERE { GRAPH <urn:reg:local> { ?s a ?t } } LIMIT 5');
    expect(answer.status).toBe(200);
    expect(answer.type).toContain('application/sparql-results+json');
  });
});
