import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TYPE, type Json } from '../support/api.js';
import { startLoopbackRegistry, type LoopbackRegistry } from '../support/peers.js';

/* Two registries on loopback: content that only a peer recorded is found through the copy this registry cached. */

let a: LoopbackRegistry;
let b: LoopbackRegistry;
const HEX = createHash('sha256').update('a sample sheet kept by the peer').digest('hex');

async function json(response: Response, status: number): Promise<Json> {
  const text = await response.text();
  expect(response.status, text).toBe(status);
  return JSON.parse(text) as Json;
}

beforeAll(async () => {
  [a, b] = await Promise.all([startLoopbackRegistry(), startLoopbackRegistry()]);
});
afterAll(async () => {
  await Promise.all([a?.close(), b?.close()]);
});

describe('GET /api/v1/identify across peers', () => {
  it('finds a peer’s artifact once it is cached, naming the peer as its origin', async () => {
    const peer = await json(await a.call('POST', '/api/v1/peers', { base_iri: b.url }), 201);
    const remote = await json(
      await b.call('POST', '/api/v1/artifacts', {
        title: 'Sample sheet of the peer',
        conforms_to: TYPE,
        distributions: [
          {
            download_url: 'https://peer.example.org/sheet.csv',
            checksum: { algorithm: 'sha256', value: HEX },
          },
        ],
      }),
      201,
    );
    const before = await json(await a.call('GET', `/api/v1/identify?id=sha256:${HEX}`, undefined, null), 200);
    expect(before.total).toBe(0);
    await json(await a.call('GET', `/api/v1/resolve?iri=${encodeURIComponent(remote.iri as string)}`), 200);
    const after = await json(await a.call('GET', `/api/v1/identify?id=sha256:${HEX}`, undefined, null), 200);
    expect(after.matches).toEqual([
      expect.objectContaining({
        kind: 'distribution',
        artifact: remote.iri,
        title: 'Sample sheet of the peer',
        origin: expect.objectContaining({ kind: 'peer', peer_id: peer.id }),
      }),
    ]);
  });
});
