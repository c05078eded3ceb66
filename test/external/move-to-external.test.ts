/**
 * Moving a registry from the embedded store to an external one, as the README tells operators to: stop it,
 * `reg dump` its graph, start nothing, `reg restore --nquads` the dump into the same data directory with
 * REG_SPARQL_* set, start it again. Records read back exactly as before (JSON and N-Quads), and the operational
 * data (tokens, subscriptions with their queued deliveries, the audit log, advertising keys) is still there.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  GENEROUS_RATE_LIMITS,
  ROOT_TOKEN,
  runReg,
  startServe,
  tempDir,
  type ServerProcess,
} from '../helpers.js';
import { artifact } from '../support/api.js';
import { externalStoreEnv, startVirtuosoSync, type VirtuosoServer } from '../support/virtuoso.js';

let server: VirtuosoServer;
const dir = tempDir();
/** The registry on its embedded store: no REG_SPARQL_* at all. */
const embedded: Record<string, string> = {
  REG_BASE_IRI: 'http://registry.test',
  REG_DATA_DIR: dir,
  REG_ROOT_TOKEN: ROOT_TOKEN,
  REG_LISTEN: '127.0.0.1:0',
  REG_LOG_LEVEL: 'warn',
  ...GENEROUS_RATE_LIMITS,
};

beforeAll(() => {
  server = startVirtuosoSync(inject('virtuosoTemplate'));
});

afterAll(async () => {
  await server.dispose();
});

async function call(
  registry: ServerProcess,
  method: string,
  pathname: string,
  body?: unknown,
  token = ROOT_TOKEN,
  accept = 'application/json',
): Promise<{ status: number; text: string; json: any }> {
  const response = await fetch(`${registry.url}${pathname}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, text, json };
}

describe('moving a registry to the external graph store', () => {
  it('keeps every record and all operational data through dump and restore into the same data directory', async () => {
    const before = await startServe(embedded);
    let token: string;
    let reads: string[];
    const seen = new Map<string, { json: string; nquads: string }>();
    let subscription: string;
    try {
      const software = (await call(before, 'POST', '/api/v1/software', { name: 'Moved software' })).json;
      const deployment = (
        await call(before, 'POST', '/api/v1/instances', { software: software.id, label: 'moved' })
      ).json;
      token = (await call(before, 'POST', `/api/v1/instances/${deployment.id}/tokens`, {})).json.token;
      const other = (await call(before, 'POST', '/api/v1/software', { name: 'Watcher' })).json;
      const watcher = (
        await call(before, 'POST', '/api/v1/instances', { software: other.id, label: 'watcher' })
      ).json;
      const subscribed = await call(before, 'POST', `/api/v1/instances/${watcher.id}/subscriptions`, {
        label: 'all',
        filter: {},
      });
      expect(subscribed.status, subscribed.text).toBe(201);
      subscription = subscribed.json.subscription.id;
      const advertised = await call(
        before,
        'POST',
        '/api/v1/advertise/produced',
        { run: { external_key: 'nightly-1' }, artifacts: [artifact('moved data')] },
        token,
      );
      expect(advertised.status, advertised.text).toBe(201);
      const run = advertised.json.run as string;
      const made = advertised.json.artifacts[0] as string;
      reads = [
        `/api/v1/software/${software.id}`,
        `/api/v1/instances/${deployment.id}`,
        `/api/v1/runs/${run.split('/').pop()}`,
        `/api/v1/artifacts/${made.split('/').pop()}`,
        '/api/v1/software',
      ];
      for (const read of reads) {
        const json = await call(before, 'GET', read);
        expect(json.status, read).toBe(200);
        const nquads =
          read === '/api/v1/software'
            ? ''
            : (await call(before, 'GET', read, undefined, ROOT_TOKEN, 'application/n-quads')).text;
        seen.set(read, { json: JSON.stringify(json.json), nquads });
      }
    } finally {
      await before.stop();
    }

    const dump = path.join(tempDir(), 'graph.nq');
    const dumped = await runReg(['dump', '--output', dump], embedded);
    expect(dumped.code, dumped.stderr).toBe(0);
    const external = { ...embedded, ...externalStoreEnv(server) };
    const restored = await runReg(['restore', '--nquads', dump, '--json'], external);
    expect(restored.code, restored.stderr).toBe(0);
    expect(JSON.parse(restored.stdout).new).toBeGreaterThan(0);

    const after = await startServe(external);
    try {
      for (const read of reads) {
        const json = await call(after, 'GET', read);
        expect(json.status, read).toBe(200);
        expect(JSON.stringify(json.json), read).toBe(seen.get(read)?.json);
        if (read !== '/api/v1/software')
          expect(
            (await call(after, 'GET', read, undefined, ROOT_TOKEN, 'application/n-quads')).text,
            read,
          ).toBe(seen.get(read)?.nquads);
      }
      // The deployment's token still works, and its advertising key finds the run it made before.
      const again = await call(
        after,
        'POST',
        '/api/v1/advertise/produced',
        { run: { external_key: 'nightly-1' }, artifacts: [artifact('moved data')] },
        token,
      );
      expect(again.status, again.text).toBe(200);
      // The subscription and the delivery queued for it before the move are still there.
      const deliveries = await call(after, 'GET', `/api/v1/subscriptions/${subscription}/deliveries`);
      expect(deliveries.status, deliveries.text).toBe(200);
      expect(deliveries.json.items.length).toBeGreaterThan(0);
      // The audit log kept what happened before the move.
      const audit = await call(after, 'GET', '/api/v1/audit?limit=1000&action=software.create');
      expect(audit.status).toBe(200);
      expect(JSON.stringify(audit.json)).toContain('software.create');
      // The graph is now on the server.
      const counted = await call(
        after,
        'GET',
        `/sparql?query=${encodeURIComponent('SELECT (COUNT(*) AS ?n) WHERE { GRAPH <urn:reg:local> { ?s ?p ?o } }')}`,
        undefined,
        ROOT_TOKEN,
        'application/sparql-results+json',
      );
      expect(Number(counted.json.results.bindings[0].n.value)).toBeGreaterThan(20);
    } finally {
      await after.stop();
    }
  }, 240_000);
});
