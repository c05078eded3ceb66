/**
 * The graph view, the check for records citing stranded terms, the vocabulary rule's check of peers' concepts, the
 * lookup `reg seed` refuses a second seed by and the advertising rows a restore rebuilds are read from the lineage
 * index and the records: the same answers
 * as the query index gives on the same data (the worked example, lineage events, peers' copies, withdrawn records,
 * and records citing retired, unknown and wrong-class terms).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/core/core.js';
import { findStrandedCitations } from '../../src/core/vocab/stranded-terms.js';
import { DCAT, DCT, GRAPHS, PEER_GRAPH_PREFIX, RDF, REG, SCHEMA, SKOS } from '../../src/core/ns.js';
import { SEED_SOFTWARE } from '../../src/core/ops/ids-examples.js';
import { repositoryOf } from '../../src/core/ops/ids-payloads.js';
import { seedExample } from '../../src/core/ops/seed.js';
import {
  advertisingRowsByQuery,
  advertisingRowsFromIndex,
} from '../../src/core/provenance/advertising-keys.js';
import { lineageIndexReady } from '../../src/core/store/lineage/lineage-index.js';
import { parseNQuads } from '../../src/core/store/nquads.js';
import { nodesLinkingTo } from '../../src/core/stored/stating.js';
import { createApp } from '../../src/http/app.js';
import { openTestCore, waitFor } from '../helpers.js';
import { apiOf, type Json } from '../support/api.js';
import { readFromQueryIndex, seedWithLineage } from '../support/openlineage.js';

let core: Core;
let api: ReturnType<typeof apiOf>;
let base: string;
let dataDir: string;
const PEER = `${PEER_GRAPH_PREFIX}vocabulary-peer`;
const CACHED = 'https://peer.example/type/cached';
const PEER_ARTIFACT = 'https://peer.example/artifact/shared';
const GONE_TOPIC = 'http://example.org/vocab/topic-nobody-holds';
const GONE_TYPE = 'http://example.org/vocab/type-nobody-holds';
const UNTYPED = 'http://example.org/vocab/cited-by-no-dataset';
/** The graph view's questions: centre and depth. */
const around: string[] = [];

/** A record of `graph` from its statements (subject, predicate, object as written in N-Quads). */
const record = (graph: string, subject: string, kind: string, statements: [string, string, string][]) => ({
  graph,
  subject,
  kind,
  quads: parseNQuads(statements.map(([s, p, o]) => `<${s}> <${p}> ${o} <${graph}> .`).join('\n')),
});

/**
 * Records as a restore from elsewhere may bring them (no edit would save them today), a peer's concept and a copy
 * of a peer's artifact, written to the store as they are.
 */
async function writeStranded(): Promise<Record<string, string>> {
  const retired = core.reference.index
    .retiredTerms()
    .find((term) => term.classes.includes(REG('ArtifactType')))!.iri;
  const license = core.reference.index.termsOfClass(DCT('LicenseDocument'))[0]!.iri;
  const iri = {
    topics: `${base}/software/cites-topics`,
    types: `${base}/software/cites-types`,
    dataset: `${base}/artifact/cites-a-type`,
    untyped: `${base}/artifact/not-a-dataset`,
    minted: `${base}/type/held-here`,
    retired,
    license,
  };
  const sw = (s: string, name: string, more: [string, string, string][]) =>
    record(GRAPHS.local, s, 'software', [
      [s, RDF('type'), `<${REG('Software')}>`],
      [s, SCHEMA('name'), `"${name}"`],
      ...more,
    ]);
  await core.graph.commit(
    [
      record(PEER, CACHED, 'type', [
        [CACHED, RDF('type'), `<${SKOS('Concept')}>`],
        [CACHED, SKOS('prefLabel'), '"cached from a peer"'],
      ]),
      record(PEER, PEER_ARTIFACT, 'artifact', [
        [PEER_ARTIFACT, RDF('type'), `<${DCAT('Dataset')}>`],
        [PEER_ARTIFACT, DCT('title'), '"a peer\'s artifact"'],
      ]),
      record(GRAPHS.local, iri.minted, 'type', [
        [iri.minted, RDF('type'), `<${REG('ArtifactType')}>`],
        [iri.minted, SKOS('prefLabel'), '"held here"'],
      ]),
      sw(iri.topics, 'cites topics', [
        [iri.topics, DCT('subject'), `<${GONE_TOPIC}>`],
        [iri.topics, DCT('subject'), `<${license}>`],
        [iri.topics, DCT('subject'), '"a topic as text"'],
        [iri.topics, DCT('license'), `<${iri.types}>`],
        [iri.topics, DCT('license'), `<${CACHED}>`],
        [iri.topics, DCAT('distribution'), `<${PEER_ARTIFACT}>`],
      ]),
      sw(iri.types, 'cites types', [
        [iri.types, REG('hasCapability'), `<${iri.types}#capability>`],
        [`${iri.types}#capability`, REG('produces'), `<${GONE_TYPE}>`],
        [`${iri.types}#capability`, REG('consumes'), `<${GONE_TYPE}>`],
        [`${iri.types}#capability`, REG('produces'), `<${CACHED}>`],
        [`${iri.types}#capability`, REG('produces'), `<${retired}>`],
        [`${iri.types}#capability`, REG('produces'), `<${iri.minted}>`],
        [`${iri.types}#capability`, REG('consumes'), `<${iri.topics}>`],
      ]),
      record(GRAPHS.local, iri.dataset, 'artifact', [
        [iri.dataset, RDF('type'), `<${DCAT('Dataset')}>`],
        [iri.dataset, DCT('title'), '"cites a type nobody holds"'],
        [iri.dataset, DCT('conformsTo'), `<${GONE_TYPE}>`],
        [iri.dataset, DCT('conformsTo'), `<${iri.minted}>`],
      ]),
      record(GRAPHS.local, iri.untyped, 'artifact', [[iri.untyped, DCT('conformsTo'), `<${UNTYPED}>`]]),
    ],
    () => undefined,
  );
  return iri;
}

let stranded: Record<string, string>;

beforeAll(async () => {
  core = await openTestCore({}, true);
  base = core.config.baseIri;
  dataDir = core.config.dataDir;
  api = apiOf(createApp(core));
  const deployment = await seedWithLineage(core, api);
  stranded = await writeStranded();
  const gone = await api.deployment(deployment.software, 'withdrawn');
  await api.call('DELETE', `/api/v1/instances/${String(gone.instance.id)}`, 204);
  const runs = (await api.call('GET', '/api/v1/runs?limit=5', 200)).items as Json[];
  const artifacts = (await api.call('GET', '/api/v1/artifacts?limit=5', 200)).items as Json[];
  const centres: [string, number][] = [
    [String(deployment.software.iri), 2],
    [String(deployment.instance.iri), 1],
    [String(gone.instance.iri), 1],
    [stranded.topics!, 2],
    [stranded.types!, 2],
    [stranded.minted!, 2],
    [PEER_ARTIFACT, 1],
    [stranded.license!, 1],
    ...runs.map((run): [string, number] => [String(run.iri), 2]),
    ...artifacts.map((artifact): [string, number] => [String(artifact.iri), 1]),
  ];
  around.push(...centres.map(([iri, depth]) => `iri=${encodeURIComponent(iri)}&depth=${depth}`));
}, 180_000);

afterAll(async () => {
  await core.close();
});

/** Every graph view asked for, its edges in a fixed order (the query gives them in any). */
async function views(): Promise<Json[]> {
  const out: Json[] = [];
  for (const query of around) {
    const view = await api.call('GET', `/api/v1/graph?${query}`, 200);
    const edges = (view.edges as Json[]).map((edge) => JSON.stringify(edge)).sort();
    out.push({ ...view, edges });
  }
  return out;
}

/** What the lookup `reg seed` makes finds: the software of the example at each repository. */
async function seeded(): Promise<string[][]> {
  const found: string[][] = [];
  for (const spec of SEED_SOFTWARE)
    found.push(await nodesLinkingTo(core, SCHEMA('codeRepository'), repositoryOf(spec)));
  return found;
}

/** The advertising rows a restore rebuilds, each kind in a fixed order. */
async function advertising(): Promise<Record<string, string[]>> {
  const rows = lineageIndexReady(core.db)
    ? advertisingRowsFromIndex(core.db)
    : await advertisingRowsByQuery(core);
  const sorted = (items: readonly object[]) => items.map((item) => JSON.stringify(item)).sort();
  return { runs: sorted(rows.runKeys), artifacts: sorted(rows.artifactKeys), claims: sorted(rows.claims) };
}

/** Whether a software citing `produced` as a type it produces is accepted (201) or refused (422). */
async function accepted(produced: string, name: string): Promise<number> {
  const response = await api.send('POST', '/api/v1/software', { name, capability: { produces: [produced] } });
  return response.status;
}

describe('reads of the graph and the vocabulary', () => {
  it('give from the lineage index what the query index gives', async () => {
    expect(lineageIndexReady(core.db)).toBe(true);
    const fromIndex = {
      views: await views(),
      stranded: await findStrandedCitations(core),
      seeded: await seeded(),
      advertising: await advertising(),
    };
    // What each read found, so that the comparison below is not of empty answers.
    expect(fromIndex.seeded.every((found) => found.length === 1)).toBe(true);
    for (const rows of Object.values(fromIndex.advertising)) expect(rows.length).toBeGreaterThan(1);
    expect(fromIndex.advertising.claims!.some((claim) => claim.includes('"consumed"'))).toBe(true);
    const found = fromIndex.stranded.map(({ record, term, fields, reason }) => [
      record,
      term,
      fields,
      reason,
    ]);
    expect(found).toEqual(
      [
        [stranded.dataset, GONE_TYPE, ['conforms_to'], 'unknown'],
        [stranded.topics, CACHED, ['license'], 'unknown'],
        [stranded.topics, GONE_TOPIC, ['topics'], 'unknown'],
        [stranded.topics, stranded.license, ['topics'], 'wrong-class'],
        [stranded.topics, stranded.types, ['license'], 'wrong-class'],
        [stranded.types, GONE_TYPE, ['capability.produces', 'capability.consumes'], 'unknown'],
        [stranded.types, stranded.topics, ['capability.consumes'], 'wrong-class'],
        [stranded.types, stranded.retired, ['capability.produces'], 'retired'],
      ].sort((a, b) => (a[0] === b[0] ? (a[1]! < b[1]! ? -1 : 1) : a[0]! < b[0]! ? -1 : 1)),
    );
    for (const view of fromIndex.views) {
      expect(view.truncated).toBe(false);
      expect((view.edges as string[]).length).toBeGreaterThan(0);
    }
    const topics = fromIndex.views[3]!;
    const peerNode = (topics.nodes as Json[]).find((node) => node.iri === PEER_ARTIFACT);
    expect(peerNode).toMatchObject({
      entity_type: 'artifact',
      title: "a peer's artifact",
      origin: { kind: 'peer' },
    });
    const retiredNode = (fromIndex.views[4]!.nodes as Json[]).find((node) => node.iri === stranded.retired);
    expect(retiredNode?.title).toEqual(expect.any(String));
    await readFromQueryIndex(core, api, 'vocabulary-graph');
    const fromQuery = {
      views: await views(),
      stranded: await findStrandedCitations(core),
      seeded: await seeded(),
      advertising: await advertising(),
    };
    expect(lineageIndexReady(core.db)).toBe(false);
    expect(fromQuery).toEqual(fromIndex);
  });

  it("accept a type a peer's cache holds, refuse one nobody holds, and refuse a second seed, either way", async () => {
    const answers = async () => ({
      accepted: [await accepted(CACHED, 'a peer type'), await accepted(GONE_TYPE, 'an unknown type')],
      seed: await seedExample(core).catch((error: Error) => error.message),
    });
    // Filled again from the records at the next open, after the switch above.
    await core.close();
    core = await openTestCore({ REG_DATA_DIR: dataDir }, true);
    api = apiOf(createApp(core));
    await waitFor(() => lineageIndexReady(core.db), 30_000);
    const fromIndex = await answers();
    expect(fromIndex).toEqual({
      accepted: [201, 422],
      seed: expect.stringMatching(/already holds the .* example/),
    });
    await readFromQueryIndex(core, api, 'vocabulary-rule');
    expect(await answers()).toEqual(fromIndex);
  });
});
