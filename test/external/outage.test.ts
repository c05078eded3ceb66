import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Core } from '../../src/core/core.js';
import type { ExternalGraphStore } from '../../src/core/store/graph/external/external.js';
import { createApp } from '../../src/http/app.js';
import { openTestCore, ROOT_TOKEN, waitFor } from '../helpers.js';
import { externalStoreEnv, startVirtuosoSync, type VirtuosoServer } from '../support/virtuoso.js';

let server: VirtuosoServer;
let core: Core;
let app: ReturnType<typeof createApp>;
let software: { id: string; iri: string };
const auth = { authorization: `Bearer ${ROOT_TOKEN}`, 'content-type': 'application/json' };

async function call(method: string, path: string, body?: unknown) {
  const response = await app.request(path, {
    method,
    headers: auth,
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return {
    status: response.status,
    text,
    body: text.startsWith('{') ? (JSON.parse(text) as Record<string, any>) : {},
  };
}

beforeAll(async () => {
  server = startVirtuosoSync(inject('virtuosoTemplate'));
  core = await openTestCore({ ...externalStoreEnv(server), REG_SPARQL_TIMEOUT: '2s' }, true);
  app = createApp(core);
  const created = await call('POST', '/api/v1/software', { name: 'Kept through the outage' });
  expect(created.status, created.text).toBe(201);
  software = created.body as { id: string; iri: string };
});

afterAll(async () => {
  await core.close();
  await server.dispose();
});

describe('an external graph store that goes away', () => {
  it('answers 503 naming the endpoint (never an empty result), fails /readyz, and recovers after a restart', async () => {
    expect((await call('GET', '/readyz')).status).toBe(200);
    expect((await call('GET', `/api/v1/software/${software.id}`)).status).toBe(200);
    await server.stop('SIGKILL');

    // A record read before is answered from memory: it is the current version (nothing wrote it since).
    const kept = await call('GET', `/api/v1/software/${software.id}`);
    expect(kept.status, kept.text).toBe(200);
    expect(kept.body.name).toBe('Kept through the outage');
    // Any other read needs the server.
    (core.graph as ExternalGraphStore).forgetReads();
    const read = await call('GET', `/api/v1/software/${software.id}`);
    expect(read.status).toBe(503);
    expect(read.body).toMatchObject({ code: 'unavailable', status: 503 });
    expect(read.body.detail).toContain(server.sparqlAuthUrl);
    expect(read.body.detail).toMatch(/unreachable/);
    // The endpoint is named without its credentials.
    expect(read.text).not.toContain('dba:');

    const list = await call('GET', '/api/v1/software');
    expect(list.status).toBe(503);
    expect(list.body.detail).toContain(server.sparqlAuthUrl);

    const sparql = await call(
      'GET',
      `/sparql?query=${encodeURIComponent('SELECT * WHERE { ?s ?p ?o } LIMIT 1')}`,
    );
    expect(sparql.status).toBe(503);

    const write = await call('POST', '/api/v1/software', { name: 'Written while away' });
    expect(write.status).toBe(503);
    // A new record's lines are posted to the Graph Store Protocol endpoint: the problem names that one.
    expect(write.body.detail).toContain(server.graphStoreAuthUrl);

    const ready = await call('GET', '/readyz');
    expect(ready.status).toBe(503);
    expect(ready.body.detail).toMatch(
      /^graph store not ready: the SPARQL endpoint http:\/\/127\.0\.0\.1:\d+\/sparql-auth is unreachable/,
    );

    await server.start();
    await waitFor(async () => (await call('GET', '/readyz')).status === 200);
    const again = await call('GET', `/api/v1/software/${software.id}`);
    expect(again.status).toBe(200);
    expect(again.body.name).toBe('Kept through the outage');
    const after = await call('POST', '/api/v1/software', { name: 'Written after the restart' });
    expect(after.status, after.text).toBe(201);
    // Nothing of the refused write reached the store.
    const names = ((await call('GET', '/api/v1/software')).body.items as { name: string }[]).map(
      (item) => item.name,
    );
    expect(names.sort()).toEqual(['Kept through the outage', 'Written after the restart']);
  });

  it('stops waiting after REG_SPARQL_TIMEOUT per request with a 504 naming the endpoint', async () => {
    // The record's read must reach the server.
    (core.graph as ExternalGraphStore).forgetReads();
    server.signal('SIGSTOP');
    try {
      const started = Date.now();
      const read = await call('GET', `/api/v1/software/${software.id}`);
      expect(Date.now() - started).toBeLessThan(6_000);
      expect(read.status, read.text).toBe(504);
      expect(read.body).toMatchObject({ code: 'query-timeout', timeout_ms: 2000 });
      expect(read.body.detail).toContain(server.sparqlAuthUrl);
      expect(read.body.detail).toContain('REG_SPARQL_TIMEOUT');
    } finally {
      server.signal('SIGCONT');
    }
    await waitFor(async () => (await call('GET', `/api/v1/software/${software.id}`)).status === 200);
  });
});
