import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/core/core.js';
import type { IndexClient } from '../../src/core/store/graph/embedded/index-client.js';
import { createApp } from '../../src/http/app.js';
import { openTestCore, ROOT_TOKEN, waitFor } from '../helpers.js';

/*
 * The embedded store's two copies of the query index: client queries from /sparql run on a copy of their own,
 * stopped (and loaded again) when a query runs past its time limit or breaks the engine, while the copy the API
 * reads from keeps answering; and that copy, should it fail, is loaded again at once without waiting for a write.
 */

/** A cross product of every quad with itself three times: oxigraph would run it for hours. */
const HEAVY = 'SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i }';
/** A chain of negations deep enough to exhaust the engine's stack (about 2,200 on oxigraph 0.5). */
const BREAKING = `ASK { FILTER(${'!'.repeat(3000)}true) }`;
const ADMIN = { authorization: `Bearer ${ROOT_TOKEN}` };
const ask = (name: string) =>
  `ASK { GRAPH <urn:reg:local> { ?s <https://schema.org/name> ${JSON.stringify(name)} } }`;

let core: Core;
let app: ReturnType<typeof createApp>;

async function sparql(query: string, headers: Record<string, string> = {}) {
  const response = await app.request(`/sparql?query=${encodeURIComponent(query)}`, { headers });
  return { status: response.status, type: response.headers.get('content-type'), text: await response.text() };
}

async function createSoftware(name: string): Promise<string> {
  const response = await app.request('/api/v1/software', {
    method: 'POST',
    headers: { ...ADMIN, 'content-type': 'application/json' },
    body: JSON.stringify({ name }),
  });
  expect(response.status).toBe(201);
  return ((await response.json()) as { id: string }).id;
}

async function expectFound(name: string): Promise<void> {
  const answer = await sparql(ask(name));
  expect(answer.status, answer.text).toBe(200);
  expect(JSON.parse(answer.text), name).toMatchObject({ boolean: true });
}

beforeAll(async () => {
  // Chains of operators are let through here (REG_SPARQL_MAX_TOKENS at its maximum) to reach the engine.
  core = await openTestCore(
    { REG_SPARQL_TIMEOUT: '4s', REG_SPARQL_ANONYMOUS_TIMEOUT: '1s', REG_SPARQL_MAX_TOKENS: '100000' },
    true,
  );
  app = createApp(core);
  await createSoftware('before the timeout');
});
afterAll(async () => core.close());

describe('a client query past its time limit', () => {
  it('is stopped with a 504 problem; a query waiting behind it is answered within its own limit', async () => {
    const heavy = sparql(HEAVY);
    const behind = sparql(ask('before the timeout'), ADMIN);
    const stopped = await heavy;
    expect(stopped.status).toBe(504);
    expect(stopped.type).toBe('application/problem+json');
    const problem = JSON.parse(stopped.text) as Record<string, any>;
    expect(problem).toMatchObject({
      type: 'https://w3id.org/reg/problem/query-timeout',
      code: 'query-timeout',
      status: 504,
      timeout_ms: 1000,
    });
    expect(problem.detail).toContain('REG_SPARQL_ANONYMOUS_TIMEOUT');
    expect(problem.hints[0]).toContain('LIMIT');
    const answered = await behind;
    expect(answered.status, answered.text).toBe(200);
    expect(JSON.parse(answered.text)).toMatchObject({ boolean: true });
  });

  it('leaves the API index ready, and the next client query sees writes made meanwhile', async () => {
    // A caller with a credential has the larger budget, REG_SPARQL_TIMEOUT.
    const stopped = await sparql(HEAVY, ADMIN);
    expect(stopped.status).toBe(504);
    expect(JSON.parse(stopped.text)).toMatchObject({ timeout_ms: 4000 });
    expect(JSON.parse(stopped.text).detail).toContain('REG_SPARQL_TIMEOUT');
    expect(core.graph.ready).toBe(true);
    expect((await app.request('/readyz')).status).toBe(200);
    await createSoftware('after the timeout');
    for (const name of ['before the timeout', 'after the timeout']) await expectFound(name);
    const listed = await app.request('/api/v1/software');
    expect(((await listed.json()) as any).total).toBe(2);
  });
});

/** The nice values of this process's threads (Linux). */
function threadNiceness(): number[] {
  return fs.readdirSync('/proc/self/task').map((tid) => {
    const stat = fs.readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
  });
}

describe('the copy that runs client queries', () => {
  it.runIf(process.platform === 'linux')(
    'runs at the lowest CPU priority, the API at the normal one',
    async () => {
      await expectFound('before the timeout');
      const niceness = threadNiceness();
      expect(niceness).toContain(19);
      expect(niceness.filter((nice) => nice === 0).length).toBeGreaterThan(1);
    },
  );
});

describe('the copy that runs client queries, idle', () => {
  it.runIf(process.platform === 'linux')(
    'is dropped after REG_SPARQL_INDEX_IDLE, and loaded again by the next query',
    async () => {
      const idle = await openTestCore({ REG_SPARQL_INDEX_IDLE: '300ms' }, true);
      try {
        const idleApp = createApp(idle);
        const ask = () =>
          idleApp.request(`/sparql?query=${encodeURIComponent('ASK { GRAPH ?g { ?s ?p ?o } }')}`);
        const before = threadNiceness().filter((nice) => nice === 19).length;
        expect((await ask()).status).toBe(200);
        expect(threadNiceness().filter((nice) => nice === 19).length).toBe(before + 1);
        await waitFor(() => threadNiceness().filter((nice) => nice === 19).length === before, 10_000);
        expect((await ask()).status).toBe(200);
      } finally {
        await idle.close();
      }
    },
  );
});

describe('a client query that breaks the engine', () => {
  it('is refused with a 400 problem; its copy is replaced and the registry stays ready', async () => {
    const broken = await sparql(BREAKING);
    expect(broken.status, broken.text).toBe(400);
    const problem = JSON.parse(broken.text) as Record<string, any>;
    expect(problem).toMatchObject({ code: 'query-too-complex' });
    expect(problem.detail).toContain('restarted');
    expect((await app.request('/readyz')).status).toBe(200);
    await createSoftware('after the crash');
    await expectFound('after the crash');
  });
});

describe('the index the API reads from, when it fails', () => {
  it('is loaded again at once, without a write; record reads and /healthz answer meanwhile', async () => {
    const id = await createSoftware('through the failure');
    const main = (core.graph as unknown as { main: { replica: { client: IndexClient } } }).main.replica;
    main.client.abandon('stopped by a test');
    expect(core.graph.ready).toBe(false);
    expect((await app.request('/healthz')).status).toBe(200);
    const read = await app.request(`/api/v1/software/${id}`);
    expect(read.status).toBe(200);
    expect(((await read.json()) as { name: string }).name).toBe('through the failure');
    await waitFor(async () => (await app.request('/readyz')).status === 200, 20_000);
    const listed = await app.request('/api/v1/software?limit=10');
    expect(((await listed.json()) as { total: number }).total).toBe(4);
  });

  it('holds the reads that need it until it is back instead of failing them', async () => {
    const main = (core.graph as unknown as { main: { replica: { client: IndexClient } } }).main.replica;
    main.client.abandon('stopped by a test');
    expect(core.graph.ready).toBe(false);
    const listed = await app.request('/api/v1/software?limit=7');
    expect(listed.status).toBe(200);
    expect(((await listed.json()) as { total: number }).total).toBe(4);
  });
});
