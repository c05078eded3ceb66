/**
 * Observed capability and observed matchmaking are read from the lineage index in `registry.db`: the same answers
 * as the query index gives (for every deployment and software, every type in use each way and on both bases, and
 * every artifact), before the query index has loaded as after, and without a query to an external store.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/core/core.js';
import type { ExternalGraphStore } from '../../src/core/store/graph/external/external.js';
import { createApp } from '../../src/http/app.js';
import { openTestCore } from '../helpers.js';
import { apiOf, artifact, TYPE, type Json } from '../support/api.js';
import { DCAT, DCT, PEER_GRAPH_PREFIX, RDF } from '../../src/core/ns.js';
import { parseNQuads } from '../../src/core/store/nquads.js';
import { lineageIndexReady } from '../../src/core/store/lineage/lineage-index.js';
import { readFromQueryIndex, seedWithLineage } from '../support/openlineage.js';

let core: Core;
let api: ReturnType<typeof apiOf>;
let dataDir: string;
const PEER = 'observed-peer';
/** An artifact another registry holds, cached here, that a run here used. */
const PEER_ARTIFACT = 'https://peer.example/artifact/observed';
/** A type only the cached artifact has, so only the peer's graph says what that run consumed. */
const PEER_TYPE = 'http://edamontology.org/data_0842';
const q = encodeURIComponent;

/** Queries sent to the external store so far (none for the embedded store). */
const queriesSent = (): number =>
  core.graph.kind === 'sparql' ? (core.graph as ExternalGraphStore).client.sent.queries : 0;

beforeAll(async () => {
  core = await openTestCore({}, true);
  dataDir = core.config.dataDir;
  api = apiOf(createApp(core));
  const emitting = await seedWithLineage(core, api);
  const software = emitting.software;
  const types = (await api.call('GET', '/api/v1/types', 200)).items as Json[];
  const declared = String(types[0]!.iri);
  await api.call('PUT', `/api/v1/instances/${emitting.instance.id}/capability`, 200, {
    produces: [declared, TYPE],
    consumes: [PEER_TYPE],
  });
  await api.call('POST', `/api/v1/software/${software.id}/releases`, 201, {
    version: '1.0.0',
    capability: { produces: [declared], consumes: [TYPE] },
  });
  // A run long ago, and a run that made two artifacts of one type and used one made here and one cached.
  await api.call(
    'POST',
    '/api/v1/advertise/produced',
    201,
    {
      run: { external_key: 'old', started_at: '2020-01-01T00:00:00Z', ended_at: '2020-01-01T01:00:00Z' },
      artifacts: [artifact('Old data')],
    },
    emitting.token,
  );
  await core.graph.commit([peerArtifact()], () => undefined);
  const input = await api.call('POST', '/api/v1/artifacts', 201, artifact('Input'));
  await api.advertise(emitting.token, 'consumed', 'busy', [{ iri: input.iri }, { iri: PEER_ARTIFACT }]);
  await api.advertise(emitting.token, 'produced', 'busy', [artifact('Made 1'), artifact('Made 2')]);
  // A deployment withdrawn after its runs: its software still counts them, matchmaking leaves it out.
  const retired = await api.deployment(software, 'retired');
  await api.advertise(retired.token, 'consumed', 'last', [{ iri: input.iri }]);
  await api.advertise(retired.token, 'produced', 'last', [artifact('Last 1'), artifact('Last 2')]);
  await api.call('DELETE', `/api/v1/instances/${retired.instance.id}`, 204);
}, 120_000);

afterAll(async () => {
  await core.close();
});

/** The cached copy of the peer's artifact, with a type. */
function peerArtifact() {
  const graph = `${PEER_GRAPH_PREFIX}${PEER}`;
  const lines = [
    `<${PEER_ARTIFACT}> <${RDF('type')}> <${DCAT('Dataset')}> <${graph}> .`,
    `<${PEER_ARTIFACT}> <${DCT('title')}> "cached input" <${graph}> .`,
    `<${PEER_ARTIFACT}> <${DCT('conformsTo')}> <${PEER_TYPE}> <${graph}> .`,
  ];
  return { graph, subject: PEER_ARTIFACT, quads: parseNQuads(lines.join('\n')), kind: 'artifact' };
}

/** Every read compared: observed capability, observed and merged matchmaking, and who consumed each artifact. */
async function pathsToRead(): Promise<{ capability: string[]; matches: string[]; artifacts: string[] }> {
  const list = async (path: string) => (await api.call('GET', path, 200)).items as Json[];
  const capability = [
    ...(await list('/api/v1/instances?limit=200')).map((item) => `/api/v1/instances/${String(item.id)}`),
    ...(await list('/api/v1/software?limit=200')).map((item) => `/api/v1/software/${String(item.id)}`),
  ].flatMap((path) => [`${path}/observed-capability`, `${path}/observed-capability?days=1`]);
  const types = [...(await list('/api/v1/types')).map((item) => String(item.iri)), TYPE, PEER_TYPE];
  const matches = types.flatMap((type) =>
    ['observed', 'both'].flatMap((basis) =>
      ['produces', 'consumes'].map((way) => `/api/v1/capabilities?basis=${basis}&${way}=${q(type)}`),
    ),
  );
  // The cached artifact is left out: a peer's records are read through the peer's resolve state. An artifact
  // without a type is asked with one, so that there is something to match.
  const artifacts = (await list('/api/v1/artifacts?limit=200'))
    .filter((item) => item.iri !== PEER_ARTIFACT)
    .map(
      (item) =>
        `/api/v1/capabilities?basis=both&artifact=${String(item.id)}${item.conforms_to === undefined ? `&consumes=${q(TYPE)}` : ''}`,
    );
  return { capability, matches, artifacts };
}

async function read(paths: readonly string[]): Promise<Json[]> {
  const out: Json[] = [];
  for (const path of paths) out.push(await api.call('GET', path, 200));
  return out;
}

/** The answers hold something to compare: observed types each way, matches of each basis, consumers. */
function expectNonTrivial(capability: Json[], matches: Json[], artifacts: Json[]): void {
  const observed = (way: string) => capability.flatMap((answer) => answer.observed[way] as Json[]);
  expect(observed('produces').length).toBeGreaterThan(10);
  expect(observed('consumes').length).toBeGreaterThan(5);
  expect(observed('produces').some((type) => type.artifacts > type.runs)).toBe(true);
  expect(observed('consumes').map((type) => type.type)).toContain(PEER_TYPE);
  expect(capability.some((answer) => answer.declared_unobserved.produces.length > 0)).toBe(true);
  expect(capability.some((answer) => answer.observed_undeclared.produces.length > 0)).toBe(true);
  const found = matches.flatMap((answer) => answer.items as Json[]);
  expect([...new Set(found.map((item) => `${String(item.entity_type)} ${String(item.basis)}`))]).toEqual(
    expect.arrayContaining(['software observed', 'instance observed', 'software both', 'instance both']),
  );
  const consumers = artifacts.flatMap((answer) => answer.consumed_by as Json[]);
  expect(consumers.length).toBeGreaterThan(5);
  expect(consumers.map((consumer) => consumer.name)).toContain('retired');
  expect(artifacts.some((answer) => (answer.items as Json[]).length > 0)).toBe(true);
}

describe('observed capability read from the lineage index', () => {
  it('answers before the query index has loaded, as after', async () => {
    const { capability, matches, artifacts } = await pathsToRead();
    const paths = [...capability, ...matches, ...artifacts];
    const loaded = await read(paths);
    await core.close();
    core = await openTestCore({ REG_DATA_DIR: dataDir }, false);
    api = apiOf(createApp(core));
    expect(core.graph.ready).toBe(false);
    const early = await read(paths);
    expect(core.graph.ready).toBe(false);
    expect(early).toEqual(loaded);
    expectNonTrivial(
      early.slice(0, capability.length),
      early.slice(capability.length, -artifacts.length),
      early.slice(-artifacts.length),
    );
    await core.graph.open();
  });

  it('gives the answers the query index gives, without asking it', async () => {
    const { capability, matches, artifacts } = await pathsToRead();
    const paths = [...capability, ...matches, ...artifacts];
    expect(lineageIndexReady(core.db)).toBe(true);
    const before = queriesSent();
    const fromIndex = await read(paths);
    expect(queriesSent()).toBe(before);
    expectNonTrivial(
      fromIndex.slice(0, capability.length),
      fromIndex.slice(capability.length, -artifacts.length),
      fromIndex.slice(-artifacts.length),
    );
    await readFromQueryIndex(core, api, 'observed');
    const fromQueries = await read(paths);
    // The external store was asked this time (the embedded store's queries are not counted).
    if (core.graph.kind === 'sparql') expect(queriesSent()).toBeGreaterThan(before);
    expect(fromQueries).toEqual(fromIndex);
  });
});
