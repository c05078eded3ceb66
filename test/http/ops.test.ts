import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/core/core.js';
import { GRAPHS } from '../../src/core/ns.js';
import { appendAudit } from '../../src/core/store/audit.js';
import { factory } from '../../src/core/store/nquads.js';
import { createApp } from '../../src/http/app.js';
import { openTestCore, ROOT_TOKEN } from '../helpers.js';

let core: Core;
let app: ReturnType<typeof createApp>;
const admin = { authorization: `Bearer ${ROOT_TOKEN}` };
const SUBJECT = 'http://registry.test/software/s1';

beforeAll(async () => {
  core = await openTestCore({ REG_OPERATOR: 'Example Lab', REG_MAX_PAYLOAD_BYTES: '4KiB' }, true);
  app = createApp(core);
  const { namedNode, literal, quad } = factory;
  await core.graph.commit(
    [
      {
        graph: GRAPHS.local,
        subject: SUBJECT,
        kind: 'software',
        quads: [
          quad(
            namedNode(SUBJECT),
            namedNode('https://schema.org/name'),
            literal('Thing'),
            namedNode(GRAPHS.local),
          ),
          quad(
            namedNode(SUBJECT),
            namedNode('http://www.w3.org/1999/02/22-rdf-syntax-ns#type'),
            namedNode('https://w3id.org/reg/ns#Software'),
            namedNode(GRAPHS.local),
          ),
        ],
      },
    ],
    () =>
      appendAudit(core.db, {
        actor: 'urn:reg:root',
        actorKind: 'root-token',
        action: 'software.create',
        target: SUBJECT,
      }),
  );
});
afterAll(async () => core.close());

const problem = async (response: Response, status: number, code: string) => {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toBe('application/problem+json');
  const body = (await response.json()) as Record<string, unknown>;
  expect(body).toMatchObject({ status, code, type: `https://w3id.org/reg/problem/${code}` });
  expect(typeof body.title).toBe('string');
  return body;
};

describe('probes', () => {
  it('answers liveness and readiness', async () => {
    expect(await (await app.request('/healthz')).json()).toEqual({ status: 'ok' });
    const ready = await app.request('/readyz');
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({ status: 'ready' });
  });

  it('stays reachable with a bad credential and with public reads off', async () => {
    const closed = await openTestCore({ REG_PUBLIC_READ: 'false' }, false);
    try {
      const closedApp = createApp(closed);
      expect(
        (await closedApp.request('/healthz', { headers: { authorization: 'Bearer nope' } })).status,
      ).toBe(200);
      await problem(await closedApp.request('/readyz'), 503, 'unavailable');
      expect((await closedApp.request('/metrics')).status).toBe(200);
      await problem(await closedApp.request('/api/v1/audit'), 401, 'unauthorized');
    } finally {
      await closed.close();
    }
  });

  it('exports Prometheus metrics', async () => {
    const response = await app.request('/metrics');
    expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await response.text();
    expect(text).toMatch(/^reg_triples \d{5,}$/m);
    expect(text).toMatch(/^reg_entities\{kind="software"\} 1$/m);
    expect(text).toMatch(/^reg_entities\{kind="runs"\} 0$/m);
    expect(text).toMatch(/^reg_peers 0$/m);
    expect(text).toMatch(/^reg_peers_failing 0$/m);
    expect(text).toMatch(/^reg_uptime_seconds \d+$/m);
  });

  it('describes the registry at the well-known address', async () => {
    const body = (await (await app.request('/.well-known/reg-registry')).json()) as Record<string, unknown>;
    expect(body).toMatchObject({
      '@id': 'http://registry.test',
      operator: 'Example Lab',
      base_iri: 'http://registry.test',
      sparql_url: 'http://registry.test/sparql',
    });
  });
});

describe('/sparql', () => {
  const select = `SELECT ?name WHERE { GRAPH ?g { <${SUBJECT}> <https://schema.org/name> ?name } }`;

  it('answers SELECT and ASK as SPARQL JSON results by GET and POST', async () => {
    const get = await app.request(`/sparql?query=${encodeURIComponent(select)}`);
    expect(get.headers.get('content-type')).toMatch(/^application\/sparql-results\+json/);
    const body = (await get.json()) as { results: { bindings: { name: { value: string } }[] } };
    expect(body.results.bindings.map((b) => b.name.value)).toEqual(['Thing']);
    const form = await app.request('/sparql', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ query: `ASK { <${SUBJECT}> ?p ?o }` }).toString(),
    });
    expect(await form.json()).toMatchObject({ boolean: true });
    const direct = await app.request('/sparql', {
      method: 'POST',
      headers: { 'content-type': 'application/sparql-query' },
      body: 'ASK { <http://nowhere.test/x> ?p ?o }',
    });
    expect(await direct.json()).toMatchObject({ boolean: false });
  });

  it('answers CONSTRUCT and DESCRIBE as Turtle', async () => {
    const response = await app.request(
      `/sparql?query=${encodeURIComponent(`CONSTRUCT { ?s ?p ?o } WHERE { GRAPH ?g { ?s ?p ?o } FILTER(?s = <${SUBJECT}>) }`)}`,
    );
    expect(response.headers.get('content-type')).toBe('text/turtle; charset=utf-8');
    expect(await response.text()).toContain('"Thing"');
    const describe = await app.request(`/sparql?query=${encodeURIComponent(`DESCRIBE <${SUBJECT}>`)}`);
    expect(describe.status).toBe(200);
  });

  it('refuses updates with 403 and changes nothing', async () => {
    const update = `PREFIX s: <https://schema.org/>\nINSERT DATA { GRAPH <${GRAPHS.local}> { <${SUBJECT}> s:name "Hacked" } }`;
    await problem(await app.request(`/sparql?query=${encodeURIComponent(update)}`), 403, 'forbidden');
    await problem(
      await app.request('/sparql', {
        method: 'POST',
        headers: { 'content-type': 'application/sparql-update' },
        body: update,
      }),
      403,
      'forbidden',
    );
    await problem(
      await app.request('/sparql', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ update }).toString(),
      }),
      403,
      'forbidden',
    );
    const body = (await (await app.request(`/sparql?query=${encodeURIComponent(select)}`)).json()) as {
      results: { bindings: unknown[] };
    };
    expect(body.results.bindings).toHaveLength(1);
  });

  it('answers syntax errors with 400', async () => {
    const body = await problem(
      await app.request(`/sparql?query=${encodeURIComponent('SELECT * WHERE { ?s ?p }')}`),
      400,
      'bad-request',
    );
    expect(body.detail).toMatch(/^SPARQL syntax error:/);
    // Without a query, a client that takes RDF gets the service description; one that does not forgot its query.
    const description = await app.request('/sparql');
    expect(description.status).toBe(200);
    expect(description.headers.get('content-type')).toBe('text/turtle; charset=utf-8');
    await problem(
      await app.request('/sparql', { headers: { accept: 'application/sparql-results+json' } }),
      400,
      'bad-request',
    );
  });

  it('is public unless REG_SPARQL_PUBLIC is false, independently of REG_PUBLIC_READ', async () => {
    const closed = await openTestCore({ REG_SPARQL_PUBLIC: 'false', REG_PUBLIC_READ: 'true' }, true);
    const open = await openTestCore({ REG_SPARQL_PUBLIC: 'true', REG_PUBLIC_READ: 'false' }, true);
    try {
      const q = `/sparql?query=${encodeURIComponent('ASK {}')}`;
      await problem(await createApp(closed).request(q), 401, 'unauthorized');
      expect((await createApp(closed).request(q, { headers: admin })).status).toBe(200);
      expect((await createApp(open).request(q)).status).toBe(200);
    } finally {
      await closed.close();
      await open.close();
    }
  });
});

describe('admin endpoints', () => {
  it('serves the dump to administrators only', async () => {
    await problem(await app.request('/admin/dump'), 401, 'unauthorized');
    const bad = await app.request('/admin/dump', {
      headers: { authorization: 'Bearer wrong-token-0123456789' },
    });
    await problem(bad, 401, 'unauthorized');
    expect(bad.headers.get('www-authenticate')).toBe('Bearer');
    const response = await app.request('/admin/dump', { headers: admin });
    expect(response.headers.get('content-type')).toBe('application/n-quads');
    const text = await response.text();
    expect(text).toContain(`<${SUBJECT}> <https://schema.org/name> "Thing" <${GRAPHS.local}> .`);
    expect(text).toContain(`<${GRAPHS.shapes}> .`);
  });

  it('serves one graph as N-Triples, and 404 for an unknown graph', async () => {
    const response = await app.request(`/admin/dump?graph=${encodeURIComponent(GRAPHS.local)}`, {
      headers: admin,
    });
    expect(response.headers.get('content-type')).toBe('application/n-triples');
    const lines = (await response.text()).trim().split('\n');
    expect(lines).toContain(`<${SUBJECT}> <https://schema.org/name> "Thing" .`);
    await problem(await app.request('/admin/dump?graph=urn:nothing', { headers: admin }), 404, 'not-found');
  });

  it('reads the audit log newest first, with paging', async () => {
    await problem(await app.request('/api/v1/audit'), 401, 'unauthorized');
    const body = (await (await app.request('/api/v1/audit?limit=1', { headers: admin })).json()) as {
      items: Record<string, unknown>[];
      next_cursor?: number;
    };
    expect(body.items).toHaveLength(1);
    expect(body.items[0]).toMatchObject({
      action: 'software.create',
      actor: 'urn:reg:root',
      actor_kind: 'root-token',
      target: SUBJECT,
    });
    expect(typeof body.items[0]!.at).toBe('string');
    expect(body.next_cursor).toBeTypeOf('number');
    const older = (await (
      await app.request(`/api/v1/audit?cursor=${body.next_cursor}`, { headers: admin })
    ).json()) as { items: { action: string }[] };
    expect(older.items.every((item) => item.action === 'bundle.load')).toBe(true);
    await problem(await app.request('/api/v1/audit?limit=lots', { headers: admin }), 400, 'bad-request');
  });
});

describe('requests', () => {
  it('refuses bodies over REG_MAX_PAYLOAD_BYTES with 413', async () => {
    const body = await problem(
      await app.request('/sparql', {
        method: 'POST',
        headers: { 'content-type': 'application/sparql-query', 'content-length': '5000' },
        body: `ASK {} #${'x'.repeat(4990)}`,
      }),
      413,
      'payload-too-large',
    );
    expect(body.detail).toMatch(/4096 bytes/);
  });

  it('answers unknown paths with a problem', async () => {
    await problem(await app.request('/no/such/thing'), 404, 'not-found');
  });

  it('echoes a request id', async () => {
    const response = await app.request('/healthz', { headers: { 'x-request-id': 'abc-123' } });
    expect(response.headers.get('x-request-id')).toBe('abc-123');
  });
});

describe('registry summary', () => {
  it('says what the registry is and how much it holds', async () => {
    const response = await app.request('/api/v1/registry');
    expect(response.status).toBe(200);
    const body = (await response.json()) as Record<string, any>;
    expect(body).toMatchObject({
      '@id': 'http://registry.test',
      '@type': 'dcat:Catalog',
      title: 'reg registry of Example Lab',
      operator: 'Example Lab',
      base_iri: 'http://registry.test',
      counts: { software: 1, releases: 0, instances: 0, artifacts: 0, runs: 0 },
      peer_count: 0,
      oidc_enabled: false,
      human_signin: false,
    });
    expect(body.triples).toBeGreaterThan(10_000);
    expect(Date.parse(body.started_at as string)).not.toBeNaN();
  });

  it('answers anyone on a private registry, with the figures only for callers with a credential', async () => {
    const closed = await openTestCore({ REG_PUBLIC_READ: 'false' }, true);
    try {
      const closedApp = createApp(closed);
      const anonymous = (await (await closedApp.request('/api/v1/registry')).json()) as Record<
        string,
        unknown
      >;
      expect(anonymous.base_iri).toBe('http://registry.test');
      expect(anonymous).not.toHaveProperty('counts');
      expect(anonymous).not.toHaveProperty('triples');
      const signedIn = await closedApp.request('/api/v1/registry', { headers: admin });
      expect(((await signedIn.json()) as Record<string, unknown>).counts).toMatchObject({ software: 0 });
    } finally {
      await closed.close();
    }
  });
});
