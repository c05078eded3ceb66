import net from 'node:net';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Core } from '../../src/core/core.js';
import { createApp } from '../../src/http/app.js';
import { openTestCore } from '../helpers.js';
import { apiOf } from '../support/api.js';
import { externalStoreEnv, startVirtuosoSync, type VirtuosoServer } from '../support/virtuoso.js';

/*
 * The registry keeps its connections to the graph store open between requests. Virtuoso closes the connection
 * after every compressed answer, so the registry must not ask it for compression: a TCP relay in front of the
 * server counts the connections a burst of reads opens.
 */

let server: VirtuosoServer;
let relay: net.Server;
let core: Core;
let connections = 0;
const sockets = new Set<net.Socket>();

beforeAll(async () => {
  server = startVirtuosoSync(inject('virtuosoTemplate'));
  relay = net.createServer((client) => {
    connections++;
    const upstream = net.connect(server.httpPort, '127.0.0.1');
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => socket.destroy());
      socket.on('close', () => sockets.delete(socket));
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
  const port = (relay.address() as net.AddressInfo).port;
  const through = (url: string) => url.replace(`:${server.httpPort}/`, `:${port}/`);
  const env = externalStoreEnv(server);
  core = await openTestCore(
    {
      ...env,
      REG_SPARQL_ENDPOINT: through(env.REG_SPARQL_ENDPOINT!),
      REG_SPARQL_GRAPH_STORE_ENDPOINT: through(env.REG_SPARQL_GRAPH_STORE_ENDPOINT!),
    },
    true,
  );
}, 120_000);

afterAll(async () => {
  await core.close();
  for (const socket of sockets) socket.destroy();
  await new Promise<void>((resolve) => relay.close(() => resolve()));
  await server.dispose();
});

describe('connections to the external graph store', () => {
  it('reuses one connection for requests sent one after the other', async () => {
    const api = apiOf(createApp(core));
    const created = await api.call('POST', '/api/v1/software', 201, { name: 'Kept alive' });
    const before = connections;
    const answers: string[] = [];
    for (let i = 0; i < 30; i++) {
      // Each read goes to the store: an empty commit leaves nothing cached from the one before.
      await core.graph.commit([], () => undefined);
      const rows = await core.graph.select(
        `SELECT ?name WHERE { GRAPH ?g { <${String(created.iri)}> <https://schema.org/name> ?name } }`,
      );
      answers.push(rows[0]?.name?.value ?? '');
    }
    expect(answers).toEqual(new Array<string>(30).fill('Kept alive'));
    // Thirty queries: one connection (a second if the first was closed as idle meanwhile), not thirty.
    expect(connections - before).toBeLessThanOrEqual(2);
  });
});
