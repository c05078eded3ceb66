import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/core/core.js';
import { createApp } from '../../src/http/app.js';
import { openTestCore, ROOT_TOKEN } from '../helpers.js';

/*
 * Hostile queries on the public SPARQL endpoint, through the HTTP API, on both graph stores: each bound is
 * refused with a problem that names it, before the query reaches an engine, and the registry keeps answering.
 */

const ADMIN = { authorization: `Bearer ${ROOT_TOKEN}` };
const NAMES = ['alpha', 'beta', 'gamma', 'delta', 'epsilon'];
const SOFTWARE_IRIS = `SELECT ?s WHERE { GRAPH ?g { ?s a <https://w3id.org/reg/ns#Software> } }`;

let core: Core;
let app: ReturnType<typeof createApp>;

beforeAll(async () => {
  core = await openTestCore({ REG_SPARQL_ANONYMOUS_MAX_ROWS: '3', REG_SPARQL_MAX_ROWS: '100' }, true);
  app = createApp(core);
  for (const name of NAMES) {
    const created = await app.request('/api/v1/software', {
      method: 'POST',
      headers: { ...ADMIN, 'content-type': 'application/json' },
      body: JSON.stringify({ name }),
    });
    expect(created.status).toBe(201);
  }
});
afterAll(async () => core.close());

async function sparql(query: string, headers: Record<string, string> = {}): Promise<Response> {
  return app.request(`/sparql?query=${encodeURIComponent(query)}`, { headers });
}

async function problemOf(response: Response, status: number, code: string): Promise<Record<string, any>> {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toBe('application/problem+json');
  const body = (await response.json()) as Record<string, any>;
  expect(body).toMatchObject({ status, code, type: `https://w3id.org/reg/problem/${code}` });
  return body;
}

async function rowsOf(response: Response): Promise<unknown[]> {
  expect(response.status, await response.clone().text()).toBe(200);
  return ((await response.json()) as { results: { bindings: unknown[] } }).results.bindings;
}

/** The registry still answers: ready, its lists work, and an ordinary query is answered. */
async function expectServing(): Promise<void> {
  expect((await app.request('/readyz')).status).toBe(200);
  const list = await app.request('/api/v1/software?limit=2');
  expect(list.status).toBe(200);
  expect(((await list.json()) as { total: number }).total).toBe(NAMES.length);
  expect(await rowsOf(await sparql(`${SOFTWARE_IRIS} LIMIT 1`))).toHaveLength(1);
}

describe('query bounds on /sparql', () => {
  it('refuses a query nested a thousand groups deep (400 query-too-deep) and keeps serving', async () => {
    const nested = `SELECT * WHERE ${'{ '.repeat(1000)}?s ?p ?o${' }'.repeat(1000)}`;
    expect(nested.length).toBeLessThan(5000);
    const body = await problemOf(await sparql(nested), 400, 'query-too-deep');
    expect(body).toMatchObject({ limit: 32, setting: 'REG_SPARQL_MAX_DEPTH' });
    expect(body.detail).toContain('1000 levels');
    await expectServing();
  });

  it('refuses a long chain of operators (400 query-too-complex) and keeps serving', async () => {
    const chained = `ASK { ?s ?p ?o FILTER(${'!'.repeat(2500)}true) }`;
    const body = await problemOf(await sparql(chained), 400, 'query-too-complex');
    expect(body).toMatchObject({ limit: 1000, setting: 'REG_SPARQL_MAX_TOKENS' });
    await expectServing();
  });

  it('refuses a query text over REG_SPARQL_MAX_QUERY_BYTES (400 query-too-long)', async () => {
    const long = `SELECT * WHERE { ?s ?p ?o } # ${'x'.repeat(70 * 1024)}`;
    const response = await app.request('/sparql', {
      method: 'POST',
      headers: { 'content-type': 'application/sparql-query' },
      body: long,
    });
    const body = await problemOf(response, 400, 'query-too-long');
    expect(body).toMatchObject({ limit: 64 * 1024, setting: 'REG_SPARQL_MAX_QUERY_BYTES' });
  });

  it('does not count prefixes or VALUES data against the bounds', async () => {
    const prefixes = Array.from({ length: 400 }, (_, i) => `PREFIX p${i}: <http://example.org/${i}#>`);
    const values = Array.from({ length: 1500 }, (_, i) => `<http://example.org/v${i}>`).join(' ');
    const query = `${prefixes.join('\n')}\nSELECT ?x WHERE { VALUES ?x { ${values} } } LIMIT 2`;
    expect(await rowsOf(await sparql(query, ADMIN))).toHaveLength(2);
  });
});

describe('federated query', () => {
  it('refuses SERVICE with a 400 problem, in any case, whatever it names', async () => {
    for (const query of [
      'SELECT * WHERE { SERVICE <http://127.0.0.1:1/sparql> { ?s ?p ?o } }',
      'select * where { ?s ?p ?o . service silent <http://example.org/sparql> { ?s ?q ?r } }',
    ]) {
      const body = await problemOf(await sparql(query), 400, 'federated-query-refused');
      expect(body.detail).toContain('SERVICE');
    }
  });

  it('reads the word SERVICE in a literal or an IRI as data', async () => {
    const query = `ASK { BIND("SERVICE <x> { }" AS ?a) BIND(<http://example.org/SERVICE> AS ?b) }`;
    const response = await sparql(query);
    expect(response.status, await response.clone().text()).toBe(200);
    expect(await response.json()).toMatchObject({ boolean: true });
  });
});

describe('solutions per query', () => {
  it('refuses an anonymous SELECT with more solutions than REG_SPARQL_ANONYMOUS_MAX_ROWS', async () => {
    const body = await problemOf(await sparql(SOFTWARE_IRIS), 400, 'too-many-rows');
    expect(body).toMatchObject({ limit: 3, setting: 'REG_SPARQL_ANONYMOUS_MAX_ROWS' });
    expect(body.hints[0]).toContain('LIMIT 3');
  });

  it('answers an anonymous SELECT within the limit: its own LIMIT, OFFSET and trailing VALUES kept', async () => {
    expect(await rowsOf(await sparql(`${SOFTWARE_IRIS} LIMIT 3`))).toHaveLength(3);
    expect(await rowsOf(await sparql(`${SOFTWARE_IRIS} ORDER BY ?s LIMIT 2 OFFSET 4`))).toHaveLength(1);
    const values = `SELECT ?s ?n WHERE { GRAPH ?g { ?s <https://schema.org/name> ?n } } VALUES ?n { "alpha" "beta" } # end`;
    expect(await rowsOf(await sparql(values))).toHaveLength(2);
    // A LIMIT above the caller's budget is no way around it.
    await problemOf(await sparql(`${SOFTWARE_IRIS} LIMIT 1000`), 400, 'too-many-rows');
  });

  it('gives a caller with a credential its larger budget', async () => {
    expect(await rowsOf(await sparql(SOFTWARE_IRIS, ADMIN))).toHaveLength(NAMES.length);
  });
});
