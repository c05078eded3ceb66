import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { artifact, type Json } from '../support/api.js';
import { callTool, connectMcp } from '../support/mcp.js';
import { startLoopbackRegistry, type LoopbackRegistry } from '../support/peers.js';

let here: LoopbackRegistry;
let peer: LoopbackRegistry;
let client: Client;
let remote: Json;

async function json(response: Response, status: number): Promise<Json> {
  const text = await response.text();
  expect(response.status, text).toBe(status);
  return JSON.parse(text) as Json;
}

beforeAll(async () => {
  [here, peer] = await Promise.all([startLoopbackRegistry(), startLoopbackRegistry()]);
  await json(await here.call('POST', '/api/v1/peers', { base_iri: peer.url }), 201);
  remote = await json(await peer.call('POST', '/api/v1/artifacts', artifact('Sample sheet of a peer')), 201);
  await json(await here.call('GET', `/api/v1/resolve?iri=${encodeURIComponent(remote.iri)}`), 200);
  client = await connectMcp({ url: here.url }, '2026-07-28');
});
afterAll(async () => {
  await client?.close();
  await Promise.all([here?.close(), peer?.close()]);
});

describe('get_record of a record another registry holds', () => {
  it("reads this registry's copy by IRI alone, as the REST API reads it, with its origin", async () => {
    const result = await callTool(client, 'get_record', { iri: remote.iri });
    expect(result.isError, result.text).toBe(false);
    const direct = await json(
      await here.call('GET', `/api/v1/artifacts/${encodeURIComponent(remote.iri)}`, undefined, null),
      200,
    );
    expect(result.content).toEqual(direct);
    expect(result.content).toMatchObject({ title: 'Sample sheet of a peer', origin: { kind: 'peer' } });
  });

  it('answers an IRI held nowhere with the not-found problem of the API', async () => {
    const result = await callTool(client, 'get_record', { iri: `${peer.url}/artifact/never-made` });
    expect(result.isError).toBe(true);
    expect(result.content).toMatchObject({ status: 404, code: 'not-found' });
  });
});
