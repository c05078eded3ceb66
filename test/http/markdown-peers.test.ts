import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordMarkdown } from '../../src/core/discovery/markdown.js';
import { getArtifact } from '../../src/core/provenance/artifact-view.js';
import { recordPeerSuccess } from '../../src/core/store/peers.js';
import { artifact, type Json } from '../support/api.js';
import { startLoopbackRegistry, type LoopbackRegistry } from '../support/peers.js';

/*
 * The Markdown page of a peer's record cached here: written from the JSON the API returns for the copy, it says
 * where the copy comes from, when it was cached, and whether the peer has gone stale.
 */

let here: LoopbackRegistry;
let peer: LoopbackRegistry;
let remote: Json;
let peerId: string;

async function json(response: Response, status: number): Promise<Json> {
  const text = await response.text();
  expect(response.status, text).toBe(status);
  return JSON.parse(text) as Json;
}

beforeAll(async () => {
  [here, peer] = await Promise.all([
    startLoopbackRegistry(),
    startLoopbackRegistry({ REG_OPERATOR: 'Peer [Lab](javascript:alert(1))' }),
  ]);
  const added = await json(await here.call('POST', '/api/v1/peers', { base_iri: peer.url }), 201);
  peerId = added.id as string;
  remote = await json(await peer.call('POST', '/api/v1/artifacts', artifact('Remote sample sheet')), 201);
  await json(await here.call('GET', `/api/v1/resolve?iri=${encodeURIComponent(remote.iri as string)}`), 200);
});

afterAll(async () => {
  await Promise.all([here?.close(), peer?.close()]);
});

/** The page of the cached copy, as this registry writes it from the copy's JSON. */
async function cachedPage(): Promise<{ json: Json; page: string }> {
  const read = await json(
    await here.call('GET', `/api/v1/artifacts/${encodeURIComponent(remote.iri as string)}`),
    200,
  );
  const copy = await getArtifact(here.core, remote.iri as string);
  expect(copy).toEqual(read);
  return { json: read, page: recordMarkdown('artifact', copy, { baseIri: here.url }) };
}

/** The lines of the Provenance section. */
function provenance(page: string): string {
  const start = page.indexOf('\n## Provenance\n');
  expect(start).toBeGreaterThan(0);
  const rest = page.slice(start + 15);
  return rest.slice(0, rest.indexOf('\n## '));
}

describe('the Markdown page of a peer copy', () => {
  it('names the peer, its base IRI and when the copy was cached', async () => {
    const { json: read, page } = await cachedPage();
    expect(read.origin).toMatchObject({ kind: 'peer', peer_id: peerId, peer_base_iri: peer.url });
    expect(page.startsWith('# Remote sample sheet\n')).toBe(true);
    expect(page).toContain(`IRI: [${remote.iri as string}](<${remote.iri as string}>)`);
    const section = provenance(page);
    expect(section).toContain(`cached from the peer registry [reg registry of Peer \\[Lab\\]`);
    expect(section).toContain(`](<${peer.url}>)`);
    expect(section).toContain(`- **Peer base IRI:** [${peer.url}](<${peer.url}>)`);
    expect(section).toContain(`- **Cached at:** ${read.origin.cached_at as string}`);
    expect(section).toContain('- **Stale:** no');
    expect(page).not.toContain('](javascript:');
    // Its links to the peer's record pages point at the peer, which serves them.
    expect(page).toContain(`(<${remote.iri as string}.json>)`);
  });

  it('says so when the peer has not been reached for a long time', async () => {
    recordPeerSuccess(here.core.db, peerId, new Date(Date.now() - 91 * 86_400_000).toISOString());
    try {
      const stale = await json(
        await here.call('GET', `/api/v1/resolve?iri=${encodeURIComponent(remote.iri as string)}`),
        200,
      );
      expect(stale.origin).toMatchObject({ stale: true });
      // Reads are cached until the next write; a write makes the read (and so the page) see the stale peer.
      await json(
        await here.call('POST', '/api/v1/artifacts', artifact('A write after the peer went quiet')),
        201,
      );
      const { page } = await cachedPage();
      expect(provenance(page)).toContain('- **Stale:** yes');
    } finally {
      recordPeerSuccess(here.core.db, peerId, new Date().toISOString());
    }
  });

  it('has no provenance section for a record of this registry', async () => {
    const local = await json(await here.call('POST', '/api/v1/artifacts', artifact('Local sheet')), 201);
    const page = await (await fetch(`${local.iri as string}.md`)).text();
    expect(page.startsWith('# Local sheet\n')).toBe(true);
    expect(page).not.toContain('## Provenance');
  });
});
