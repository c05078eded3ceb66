import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listAudit } from '../../src/core/store/audit.js';
import { findResolveRow, recordPeerSuccess } from '../../src/core/store/peers.js';
import { resolveDue, retryDelayMs } from '../../src/core/federation/peer-resolver.js';
import { freePort } from '../helpers.js';
import { artifact, type Json } from '../support/api.js';
import {
  describeFake,
  startFakePeer,
  startFakeServer,
  startLoopbackRegistry,
  type FakeServer,
  type LoopbackRegistry,
} from '../support/peers.js';

/*
 * Peer administration, announcements and resolution between two registries served on loopback (each its own
 * core and data directory), plus fake registries standing in for broken peers.
 */

let a: LoopbackRegistry;
let b: LoopbackRegistry;
let garbage: FakeServer;
let lister: FakeServer;

async function json(response: Response, status: number): Promise<Json> {
  const text = await response.text();
  expect(response.status, text).toBe(status);
  return text === '' ? {} : (JSON.parse(text) as Json);
}

beforeAll(async () => {
  [a, b] = await Promise.all([startLoopbackRegistry(), startLoopbackRegistry()]);
  garbage = await startFakePeer('garbage');
  lister = await startFakeServer((request, response, url) => {
    if (request.url === '/.well-known/reg-registry')
      response
        .writeHead(200, { 'content-type': 'application/json' })
        .end(describeFake(url, [{ base_iri: 'http://peer-of-peer.example/', title: 'Peer of a peer' }]));
    else response.writeHead(404).end();
  });
});

afterAll(async () => {
  await Promise.all([a?.close(), b?.close(), garbage?.close(), lister?.close()]);
});

describe('adding a peer', () => {
  it('refuses an unreachable registry (400), this registry itself (400) and a base mismatch (409)', async () => {
    const closed = `http://127.0.0.1:${await freePort()}`;
    const unreachable = await json(await a.call('POST', '/api/v1/peers', { base_iri: closed }), 400);
    expect(unreachable.detail).toContain('could not be reached');
    expect(unreachable.reason).toBe('unreachable');

    const self = await json(await a.call('POST', '/api/v1/peers', { base_iri: `${a.url}/` }), 400);
    expect(self.detail).toContain('cannot peer with itself');

    // The same registry under another name: its description names 127.0.0.1, not localhost.
    const alias = b.url.replace('127.0.0.1', 'localhost');
    const mismatch = await json(await a.call('POST', '/api/v1/peers', { base_iri: alias }), 409);
    expect(mismatch.declared_base_iri).toBe(b.url);

    const garbled = await json(await a.call('POST', '/api/v1/peers', { base_iri: 'not a url' }), 400);
    expect(garbled.errors[0].field).toBe('base_iri');
    expect((await json(await a.call('GET', '/api/v1/peers?state=all'), 200)).total).toBe(0);
  });

  it('previews a peer without storing anything', async () => {
    const preview = await json(
      await a.call('POST', '/api/v1/peers', { base_iri: lister.url, preview: true }),
      200,
    );
    expect(preview).toEqual({
      preview: true,
      base_iri: lister.url,
      title: `fake registry at ${lister.url}`,
      operator: null,
      software_version: '0.0.0',
      peers_of_peer: ['http://peer-of-peer.example'],
    });
    expect((await json(await a.call('GET', '/api/v1/peers?state=all'), 200)).total).toBe(0);
  });

  it('adds a peer, announces itself to it, and lists what it holds', async () => {
    const added = await json(await a.call('POST', '/api/v1/peers', { base_iri: b.url }), 201);
    expect(added).toMatchObject({
      base_iri: b.url,
      title: 'reg registry',
      state: 'active',
      resolve_status: 'ok',
      record_count: 0,
      stale: false,
      suggested_by: null,
      announced: { accepted: true, state: 'suggested' },
    });
    expect(added.id).toMatch(/^127\.0\.0\.1-\d+$/);
    expect(added.last_seen_at).toBe(added.added_at);

    // B now holds A as a suggestion; nothing was fetched from A to make it.
    const suggested = await json(await b.call('GET', '/api/v1/peers/suggested'), 200);
    expect(suggested.items).toEqual([
      expect.objectContaining({
        base_iri: a.url,
        state: 'suggested',
        suggested_by: a.url,
        resolve_status: 'unknown',
      }),
    ]);
    const audit = listAudit(b.core.db, { limit: 5, action: 'peer.announce' });
    expect(audit[0]).toMatchObject({ actor: null, actor_kind: 'anonymous', target: a.url });

    expect((await json(await a.call('GET', '/api/v1/peers'), 200)).items.map((p: Json) => p.id)).toEqual([
      added.id,
    ]);
    const again = await json(await a.call('POST', '/api/v1/peers', { base_iri: b.url }), 409);
    expect(again.peer_id).toBe(added.id);

    const described = await json(await a.call('GET', '/.well-known/reg-registry', undefined, null), 200);
    expect(described.peers).toEqual([{ base_iri: b.url, title: 'reg registry' }]);
    expect(described.capabilities).toContain('federation');
  });

  it('turns the peers a new peer lists into suggestions, and can skip announcing', async () => {
    const added = await json(
      await a.call('POST', '/api/v1/peers', { base_iri: lister.url, announce: false }),
      201,
    );
    expect(added.announced).toBeUndefined();
    expect(lister.requests).not.toContain('/api/v1/peers/announce');
    const suggested = await json(await a.call('GET', '/api/v1/peers/suggested'), 200);
    expect(suggested.items).toContainEqual(
      expect.objectContaining({
        base_iri: 'http://peer-of-peer.example',
        title: 'Peer of a peer',
        suggested_by: lister.url,
        state: 'suggested',
      }),
    );
  });
});

describe('announcements', () => {
  it('record a suggestion without fetching anything, once', async () => {
    const first = await json(
      await a.call(
        'POST',
        '/api/v1/peers/announce',
        { base_iri: 'http://announcer.example/', title: 'Hello' },
        null,
      ),
      200,
    );
    expect(first).toEqual({ accepted: true, state: 'suggested', note: 'queued for admin review' });
    const second = await json(
      await a.call('POST', '/api/v1/peers/announce', { base_iri: 'http://announcer.example' }, null),
      200,
    );
    expect(second).toEqual({ accepted: true, state: 'suggested', note: 'already known' });
    const own = await json(await a.call('POST', '/api/v1/peers/announce', { base_iri: a.url }, null), 200);
    expect(own.accepted).toBe(false);
    await json(await a.call('POST', '/api/v1/peers/announce', { base_iri: 'ftp://x' }, null), 400);
    const listed = await json(await a.call('GET', '/api/v1/peers/suggested'), 200);
    expect(listed.items).toContainEqual(
      expect.objectContaining({
        base_iri: 'http://announcer.example',
        title: 'Hello',
        suggested_by: 'http://announcer.example',
      }),
    );
  });
});

describe('resolution of foreign IRIs', () => {
  let peerId: string;
  let remote: Json;

  beforeAll(async () => {
    const peers = await json(await a.call('GET', '/api/v1/peers'), 200);
    peerId = peers.items.find((p: Json) => p.base_iri === b.url).id as string;
    remote = await json(await b.call('POST', '/api/v1/artifacts', artifact('Remote sample sheet')), 201);
  });

  it('fetches a stub into the peer graph, then answers it from the cache', async () => {
    const fresh = await json(
      await a.call('GET', `/api/v1/resolve?iri=${encodeURIComponent(remote.iri)}`),
      200,
    );
    expect(fresh).toMatchObject({
      iri: remote.iri,
      cached: false,
      graph: `urn:reg:peer:${peerId}`,
      peer: { id: peerId, base_iri: b.url },
    });
    expect(fresh.triples).toBeGreaterThan(3);
    const cached = await json(
      await a.call('GET', `/api/v1/resolve?iri=${encodeURIComponent(remote.iri)}`),
      200,
    );
    expect(cached).toMatchObject({ iri: remote.iri, cached: true, graph: `urn:reg:peer:${peerId}` });
    expect(cached.turtle).toContain('Remote sample sheet');
    const refreshed = await json(
      await a.call('GET', `/api/v1/resolve?iri=${encodeURIComponent(remote.iri)}&refresh=true`),
      200,
    );
    expect(refreshed.cached).toBe(false);

    // The stub reads back with its peer origin, and is listed under its registry only.
    const read = await json(await a.call('GET', `/api/v1/artifacts/${encodeURIComponent(remote.iri)}`), 200);
    expect(read.title).toBe('Remote sample sheet');
    expect(read.origin).toMatchObject({
      kind: 'peer',
      peer_id: peerId,
      peer_base_iri: b.url,
      resolve_status: 'ok',
    });
    expect(read.origin.cached_at).toMatch(/^\d{4}-/);
    expect(read.origin.stale).toBeUndefined();
    const fromPeer = await json(await a.call('GET', `/api/v1/artifacts?registry=${peerId}`), 200);
    expect(fromPeer.items.map((item: Json) => item.iri)).toEqual([remote.iri]);
    const byBase = await json(
      await a.call('GET', `/api/v1/artifacts?registry=${encodeURIComponent(b.url)}`),
      200,
    );
    expect(byBase.total).toBe(1);
    const local = await json(await a.call('GET', '/api/v1/artifacts?registry=local'), 200);
    expect(local.items.map((item: Json) => item.iri)).not.toContain(remote.iri);
    expect((await json(await a.call('GET', '/api/v1/artifacts?registry=nowhere'), 200)).total).toBe(0);
    const unknownBase = encodeURIComponent('https://nowhere.example');
    expect((await json(await a.call('GET', `/api/v1/artifacts?registry=${unknownBase}`), 200)).total).toBe(0);
    const ownBase = encodeURIComponent(a.url);
    expect((await json(await a.call('GET', `/api/v1/artifacts?registry=${ownBase}`), 200)).total).toBe(
      local.total,
    );
    const malformed = await json(await a.call('GET', '/api/v1/artifacts?registry=not%20a%20peer'), 400);
    expect(malformed.detail).toContain('peer');
    await json(await a.call('GET', `/api/v1/instances?registry=${peerId}`), 200);
    await json(await a.call('GET', `/api/v1/software?registry=${peerId}`), 200);
    const peer = (await json(await a.call('GET', '/api/v1/peers'), 200)).items.find(
      (p: Json) => p.id === peerId,
    );
    expect(peer.record_count).toBe(1);

    // 90 days without contact make a peer stale, and the records cached from it say so.
    recordPeerSuccess(a.core.db, peerId, new Date(Date.now() - 91 * 86_400_000).toISOString());
    const peers = await json(await a.call('GET', '/api/v1/peers'), 200);
    expect(peers.items.find((p: Json) => p.id === peerId).stale).toBe(true);
    const staleCopy = await json(
      await a.call('GET', `/api/v1/resolve?iri=${encodeURIComponent(remote.iri)}`),
      200,
    );
    expect(staleCopy.origin).toMatchObject({ kind: 'peer', peer_id: peerId, stale: true });
    recordPeerSuccess(a.core.db, peerId, new Date().toISOString());
  });

  it('refuses local IRIs and explains IRIs no peer covers', async () => {
    const own = await json(
      await a.call('GET', `/api/v1/resolve?iri=${encodeURIComponent(`${a.url}/artifact/x`)}`),
      400,
    );
    expect(own.detail).toContain('own IRI');
    const stranger = await json(
      await a.call(
        'GET',
        `/api/v1/resolve?iri=${encodeURIComponent('https://elsewhere.example/artifact/1')}`,
      ),
      400,
    );
    expect(stranger).toMatchObject({ resolve_status: 'unresolved', reason: 'no-peer', queued: false });
    await json(await a.call('GET', '/api/v1/resolve'), 400);
  });

  it('reports a peer that answers garbage, and counts it as failing', async () => {
    await json(await a.call('POST', '/api/v1/peers', { base_iri: garbage.url, announce: false }), 201);
    const iri = `${garbage.url}/artifact/0190f5d2-0000-7000-8000-000000000001`;
    const refused = await json(await a.call('GET', `/api/v1/resolve?iri=${encodeURIComponent(iri)}`), 400);
    expect(refused.resolve_status).toBe('error');
    expect(refused.reason).toContain('does not parse');
    expect(refused).toMatchObject({ queued: true, status: 'failed', attempts: 1 });
    const metrics = await (await a.call('GET', '/metrics', undefined, null)).text();
    expect(metrics).toMatch(/^reg_peers_failing 1$/m);
    expect(metrics).toMatch(/^reg_peers 3$/m);
    const peers = await json(await a.call('GET', '/api/v1/peers'), 200);
    expect(peers.items.find((p: Json) => p.base_iri === garbage.url)).toMatchObject({
      resolve_status: 'error',
      last_error: expect.stringContaining('does not parse') as unknown,
    });
  });

  it('resolves what advertising queued, in the background pass, and backs off failures', async () => {
    const source = await json(await b.call('POST', '/api/v1/artifacts', artifact('Remote source')), 201);
    const derived = await json(
      await a.call('POST', '/api/v1/artifacts', artifact('Derived here', { was_derived_from: [source.iri] })),
      201,
    );
    expect(derived.was_derived_from).toEqual([source.iri]);
    const unknownHost = 'https://nobody.example/artifact/1';
    const broken = `${garbage.url}/artifact/0190f5d2-0000-7000-8000-000000000002`;
    await json(
      await a.call(
        'POST',
        '/api/v1/artifacts',
        artifact('Derived twice', { was_derived_from: [unknownHost, broken] }),
      ),
      201,
    );
    const now = new Date();
    const pass = await resolveDue(a.core, now);
    expect(pass).toMatchObject({ resolved: 1, failed: 1, unresolved: 1 });
    expect(findResolveRow(a.core.db, unknownHost)).toMatchObject({
      status: 'no-peer',
      next_attempt_at: null,
    });
    const failed = findResolveRow(a.core.db, broken);
    expect(failed).toMatchObject({ status: 'failed', attempts: 1 });
    expect(Date.parse(failed!.next_attempt_at!) - now.getTime()).toBe(retryDelayMs(0));
    // Nothing is due again before the backoff passes; after it, the second failure doubles it.
    expect(await resolveDue(a.core, new Date(now.getTime() + 1000))).toMatchObject({
      resolved: 0,
      failed: 0,
    });
    const later = new Date(now.getTime() + retryDelayMs(0) + 1);
    expect((await resolveDue(a.core, later)).failed).toBeGreaterThanOrEqual(1);
    const twice = findResolveRow(a.core.db, broken)!;
    expect(twice.attempts).toBe(2);
    expect(Date.parse(twice.next_attempt_at!) - later.getTime()).toBe(retryDelayMs(1));
    expect(retryDelayMs(1)).toBe(120_000);
    expect(retryDelayMs(50)).toBe(60_000 * 1024);

    const lineage = await json(
      await a.call('GET', `/api/v1/artifacts/${derived.id}/lineage?direction=up`),
      200,
    );
    const node = lineage.nodes.find((n: Json) => n.iri === source.iri);
    expect(node).toMatchObject({ entity_type: 'artifact', title: 'Remote source' });
    expect(node.unresolved).toBeUndefined();
    expect(node.origin).toMatchObject({ kind: 'peer', peer_id: peerId });
  });

  it('lets types cached from a peer satisfy the vocabulary rule', async () => {
    const type = await json(
      await b.call('POST', '/api/v1/types', { label: 'Peer format', slug: 'peer-format' }),
      201,
    );
    const refused = await json(
      await a.call('POST', '/api/v1/artifacts', artifact('Typed by a peer', { conforms_to: type.iri })),
      422,
    );
    expect(refused.detail).toContain('conforms_to');
    await json(await a.call('GET', `/api/v1/resolve?iri=${encodeURIComponent(type.iri)}`), 200);
    const accepted = await json(
      await a.call('POST', '/api/v1/artifacts', artifact('Typed by a peer', { conforms_to: type.iri })),
      201,
    );
    expect(accepted.conforms_to).toEqual({ iri: type.iri, label: 'Peer format', source: 'external' });
    // A cached peer type is offered by vocabulary search, as someone else's term.
    const found = await json(await a.call('GET', '/api/v1/vocab/search?q=peer%20format&branch=data'), 200);
    expect(found.items).toContainEqual(
      expect.objectContaining({ iri: type.iri, label: 'Peer format', source: 'external' }),
    );
  });

  it('drops the peer graph when the peer is removed', async () => {
    await json(await a.call('DELETE', `/api/v1/peers/${peerId}`), 204);
    expect((await json(await a.call('GET', `/api/v1/artifacts?registry=${peerId}`), 200)).total).toBe(0);
    await json(await a.call('GET', `/api/v1/artifacts/${encodeURIComponent(remote.iri)}`), 404);
    const dismissed = await json(await a.call('GET', '/api/v1/peers?state=dismissed'), 200);
    expect(dismissed.items).toContainEqual(expect.objectContaining({ id: peerId, record_count: 0 }));
    expect(findResolveRow(a.core.db, remote.iri)).toMatchObject({ status: 'no-peer', peer_id: null });
    const dump = await json(
      await a.call('GET', `/admin/dump?graph=${encodeURIComponent(`urn:reg:peer:${peerId}`)}`),
      404,
    );
    expect(dump.detail).toContain('holds no data');
    expect(listAudit(a.core.db, { limit: 1, action: 'peer.remove' })[0]).toMatchObject({ target: b.url });
    // The dismissed peer can be added again, keeping its id; removing a dismissed one forgets it.
    const readded = await json(
      await a.call('POST', '/api/v1/peers', { base_iri: b.url, announce: false }),
      201,
    );
    expect(readded.id).toBe(peerId);
    await json(await a.call('DELETE', `/api/v1/peers/${peerId}`), 204);
    await json(await a.call('DELETE', `/api/v1/peers/${peerId}`), 204);
    await json(await a.call('DELETE', `/api/v1/peers/${peerId}`), 404);
  });
});

describe('peer descriptions', () => {
  it('are read again once per TTL, updating the peer and its suggestions', async () => {
    const later = new Date(Date.now() + 25 * 3_600_000);
    const pass = await resolveDue(a.core, later);
    expect(pass.described).toBe(2);
    const peers = await json(await a.call('GET', '/api/v1/peers'), 200);
    expect(peers.items.find((p: Json) => p.base_iri === lister.url)).toMatchObject({
      last_seen_at: later.toISOString(),
      software_version: '0.0.0',
    });
    expect((await resolveDue(a.core, later)).described).toBe(0);
  });
});

describe('who may administer peers', () => {
  it('needs the admin role; announcing needs nothing', async () => {
    expect((await a.call('GET', '/api/v1/peers', undefined, null)).status).toBe(401);
    expect((await a.call('GET', '/api/v1/peers/suggested', undefined, null)).status).toBe(401);
    expect((await a.call('POST', '/api/v1/peers', { base_iri: b.url }, null)).status).toBe(401);
    expect((await a.call('DELETE', '/api/v1/peers/x', undefined, null)).status).toBe(401);
  });
});
