import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  freePort,
  ROOT_TOKEN,
  runReg,
  startServe,
  tempDir,
  testEnv,
  waitFor,
  type ServerProcess,
} from '../helpers.js';
import { artifact, type Json } from '../support/api.js';
import { startFakePeer, type FakeServer } from '../support/peers.js';

/*
 * Three registries, each its own `reg serve` process and data directory on loopback, peered with each other:
 * lineage across registries resolved by the background resolver, a federated search that reaches each registry
 * once however the peers are wired, and broken peers (one hangs, one answers garbage) reported, never fatal.
 */

interface Registry {
  readonly name: string;
  readonly url: string;
  readonly server: ServerProcess;
}

let a: Registry;
let b: Registry;
let c: Registry;
let hanging: FakeServer;
let garbage: FakeServer;
const xdg = tempDir('reg-xdg-');

async function start(name: string): Promise<Registry> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const server = await startServe(
    testEnv({
      REG_BASE_IRI: url,
      REG_LISTEN: `127.0.0.1:${port}`,
      REG_PEER_RESOLVE_TICK: '300ms',
      REG_FEDERATION_PEER_TIMEOUT: '1500ms',
    }),
  );
  return { name, url, server };
}

async function call(registry: Registry, method: string, path: string, body?: unknown, token = ROOT_TOKEN) {
  const response = await fetch(`${registry.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, body: (text === '' ? {} : JSON.parse(text)) as Json, text };
}

async function ok(
  registry: Registry,
  method: string,
  path: string,
  status: number,
  body?: unknown,
  token?: string,
) {
  const answer = await call(registry, method, path, body, token);
  expect(answer.status, `${registry.name} ${method} ${path}: ${answer.text}`).toBe(status);
  return answer.body;
}

/** Runs `reg <args> --json` against a registry as its administrator. */
async function reg(registry: Registry, args: string[]): Promise<Json> {
  const result = await runReg([...args, '--json'], {
    REG_URL: registry.url,
    REG_TOKEN: ROOT_TOKEN,
    XDG_CONFIG_HOME: xdg,
  });
  expect(result.code, `reg ${args.join(' ')}: ${result.stdout}${result.stderr}`).toBe(0);
  return JSON.parse(result.stdout) as Json;
}

beforeAll(async () => {
  // One after another: a first start loads the reference bundles, which is slow on a shared machine.
  a = await start('A');
  b = await start('B');
  c = await start('C');
  [hanging, garbage] = await Promise.all([startFakePeer('hang'), startFakePeer('garbage')]);
}, 180_000);

afterAll(async () => {
  await Promise.all([a?.server.stop(), b?.server.stop(), c?.server.stop()]);
  await Promise.all([hanging?.close(), garbage?.close()]);
});

describe('three registries on loopback', () => {
  it('peer with each other through reg peers and the API; announcements become suggestions', async () => {
    const added = await reg(a, ['peers', 'add', b.url]);
    expect(added).toMatchObject({ base_iri: b.url, state: 'active', announced: { accepted: true } });
    const preview = await reg(a, ['peers', 'add', c.url, '--preview']);
    expect(preview).toMatchObject({ preview: true, base_iri: c.url, peers_of_peer: [] });
    await reg(a, ['peers', 'add', c.url]);
    const listed = await reg(a, ['peers', 'list']);
    expect(listed.items.map((peer: Json) => peer.base_iri).sort()).toEqual([b.url, c.url].sort());

    // A announced itself to B and C: each holds A as a suggestion, promoted when they add it.
    const suggested = await reg(b, ['peers', 'list', '--state', 'suggested']);
    expect(suggested.items).toEqual([expect.objectContaining({ base_iri: a.url, suggested_by: a.url })]);
    for (const [from, to] of [
      [b, a],
      [b, c],
      [c, a],
      [c, b],
    ] as const)
      await ok(from, 'POST', '/api/v1/peers', 201, { base_iri: to.url });
    for (const registry of [a, b, c]) {
      const peers = await ok(registry, 'GET', '/api/v1/peers', 200);
      expect(peers.total, registry.name).toBe(2);
      const described = await ok(registry, 'GET', '/.well-known/reg-registry', 200);
      expect(described.peers).toHaveLength(2);
    }
  });

  it('resolves lineage that crosses registries in the background', async () => {
    const source = await ok(a, 'POST', '/api/v1/artifacts', 201, artifact('Cross-registry source at A'));
    const software = await ok(b, 'POST', '/api/v1/software', 201, { name: 'deriver' });
    const instance = await ok(b, 'POST', '/api/v1/instances', 201, {
      software: software.iri,
      label: 'deriver at B',
    });
    const minted = await ok(b, 'POST', `/api/v1/instances/${instance.id}/tokens`, 201, {});
    const stranger = 'https://unknown-registry.example/artifact/0190f5d2-0000-7000-8000-00000000aaaa';
    const advertised = await ok(
      b,
      'POST',
      '/api/v1/advertise/produced',
      201,
      {
        run: { external_key: 'federation-job-1' },
        artifacts: [artifact('Derived at B', { was_derived_from: [source.iri, stranger] })],
      },
      minted.token as string,
    );
    expect(advertised.queued_for_resolution.sort()).toEqual([source.iri, stranger].sort());
    const derived = advertised.artifacts[0] as string;
    const lineagePath = `/api/v1/artifacts/${derived.slice(derived.lastIndexOf('/') + 1)}/lineage?direction=up&depth=2`;
    const node = async (iri: string) =>
      ((await ok(b, 'GET', lineagePath, 200)).nodes as Json[]).find((n) => n.iri === iri)!;

    await waitFor(async () => (await node(source.iri)).unresolved !== true, 20_000);
    const resolved = await node(source.iri);
    expect(resolved).toMatchObject({ entity_type: 'artifact', title: 'Cross-registry source at A' });
    expect(resolved.origin).toMatchObject({ kind: 'peer', peer_base_iri: a.url, resolve_status: 'ok' });
    // An IRI of a registry that is nobody's peer stays unresolved, and says why.
    const unknown = await node(stranger);
    expect(unknown).toMatchObject({ entity_type: 'unknown', unresolved: true });
    expect(unknown.origin).toMatchObject({ kind: 'peer', resolve_status: 'unknown' });
    expect(unknown.origin.reason).toContain('no active peer');

    const cached = await ok(b, 'GET', `/api/v1/resolve?iri=${encodeURIComponent(source.iri)}`, 200);
    expect(cached).toMatchObject({ cached: true, peer: { base_iri: a.url } });
    const peerOfA = (await ok(b, 'GET', '/api/v1/peers', 200)).items.find((p: Json) => p.base_iri === a.url);
    expect(peerOfA.record_count).toBe(1);
    const fromA = await ok(b, 'GET', `/api/v1/artifacts?registry=${peerOfA.id}`, 200);
    expect(fromA.items.map((item: Json) => item.iri)).toEqual([source.iri]);
  });

  it('answers a federated search once per registry, however the peers are wired', async () => {
    const own: Record<string, string> = {};
    for (const registry of [a, b, c])
      own[registry.url] = (
        await ok(registry, 'POST', '/api/v1/artifacts', 201, artifact(`Zebrafish atlas at ${registry.name}`))
      ).iri as string;
    const result = await ok(a, 'GET', '/api/v1/search?q=zebrafish&federated=true', 200);
    const iris = (result.hits as Json[]).map((hit) => hit.iri as string);
    expect(iris.sort()).toEqual(Object.values(own).sort());
    const local = (result.hits as Json[]).find((hit) => hit.iri === own[a.url])!;
    expect(local).toMatchObject({ reach: 'local', hops: 0, origin: { kind: 'local' } });
    for (const registry of [b, c]) {
      const hit = (result.hits as Json[]).find((h) => h.iri === own[registry.url])!;
      expect(hit.origin).toMatchObject({ kind: 'peer', peer_base_iri: registry.url, resolve_status: 'live' });
      // Each registry answered the query once; any other request for it was answered already_handled.
      const answers = (result.peers as Json[]).filter(
        (s) => s.base_iri === registry.url && s.status === 'ok',
      );
      expect(answers, registry.name).toHaveLength(1);
    }
    const statuses = result.peers as Json[];
    expect(statuses.filter((s) => s.status === 'already_handled').length).toBeGreaterThanOrEqual(1);
    expect(statuses.filter((s) => s.base_iri === a.url).map((s) => s.status)).toEqual(
      expect.arrayContaining(['skipped']),
    );
    expect(statuses.some((s) => s.base_iri === a.url && s.status === 'ok')).toBe(false);
    expect(result.federation).toMatchObject({ origin: a.url, registry: a.url, max_hops: 3, hops_granted: 3 });
    expect(result.partial).toBe(false);
    const logs = [b, c].map((registry) => registry.server.logs()).join('\n');
    expect(logs).toContain('federated query already handled');

    // The same query id again is a repeat: answered already_handled, with nothing searched.
    const repeat = await ok(
      b,
      'GET',
      `/api/v1/search?q=zebrafish&fed_id=${encodeURIComponent(result.federation.query_id as string)}&fed_hops=1&fed_origin=${encodeURIComponent(a.url)}&fed_path=${encodeURIComponent(a.url)}`,
      200,
    );
    expect(repeat).toMatchObject({ already_handled: true, hits: [], total: 0 });
    await ok(b, 'GET', '/api/v1/search?q=zebrafish&fed_id=not%20valid!', 400);
  });

  it('reports a peer that hangs and one that answers garbage, and still answers', async () => {
    for (const fake of [hanging, garbage])
      await ok(a, 'POST', '/api/v1/peers', 201, { base_iri: fake.url, announce: false });
    const started = Date.now();
    const result = await ok(a, 'GET', '/api/v1/search?q=zebrafish&federated=true', 200);
    expect(Date.now() - started).toBeLessThan(6000);
    expect(result.total).toBe(3);
    expect(result.partial).toBe(true);
    const status = (fake: FakeServer) => (result.peers as Json[]).find((s) => s.base_iri === fake.url)!;
    expect(status(hanging)).toMatchObject({ status: 'timeout', hits: 0, reach: 'direct' });
    expect(status(garbage)).toMatchObject({ status: 'error', hits: 0, reach: 'direct' });
    expect(status(garbage).error).toContain('not JSON');

    const metrics = await (await fetch(`${a.url}/metrics`)).text();
    expect(metrics).toMatch(/^reg_peers 4$/m);
    expect(metrics).toMatch(/^reg_peers_failing 1$/m);

    const listed = await reg(a, ['peers', 'list']);
    const broken = listed.items.find((peer: Json) => peer.base_iri === garbage.url);
    expect(broken.resolve_status).toBe('error');
    expect(await reg(a, ['peers', 'remove', broken.id])).toEqual({ id: broken.id, removed: true });
    const after = await reg(a, ['peers', 'list']);
    expect(after.items.map((peer: Json) => peer.base_iri)).not.toContain(garbage.url);
  });
});
