/**
 * Impact is read from the lineage index in `registry.db` (runs' deployments, releases and starts, a release's runs,
 * deployments running it, what they produced since): the same answers as the query index gives, for artifacts, a
 * release, an artifact of another registry a run used and content names, with withdrawn artifacts and deployments
 * among the records; and answered before the query index has loaded.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveCredential } from '../../src/core/access/credentials.js';
import type { Core } from '../../src/core/core.js';
import { ARTIFACT } from '../../src/core/records/activity-specs.js';
import { requireStored, tombstoneRecord } from '../../src/core/stored/records.js';
import { actOf } from '../../src/core/stored/write-path.js';
import { createApp } from '../../src/http/app.js';
import { openTestCore, ROOT_TOKEN } from '../helpers.js';
import { apiOf, artifact, type Json } from '../support/api.js';
import { DCAT, DCT, PEER_GRAPH_PREFIX, PROV, RDF, RDFS, REG, SPDX, XSD } from '../../src/core/ns.js';
import { parseNQuads } from '../../src/core/store/nquads.js';
import { lineageIndexReady } from '../../src/core/store/lineage/lineage-index.js';
import { readFromQueryIndex, seedWithLineage } from '../support/openlineage.js';

let core: Core;
let api: ReturnType<typeof apiOf>;
let dataDir: string;
const HEX = 'c4'.repeat(32);
const IMAGE = 'd5'.repeat(32);
const FOREIGN = 'https://elsewhere.example.org/artifact/raw-index';
const FILE = `swh:1:cnt:${'e6'.repeat(20)}`;
const TREE = `swh:1:dir:${'f7'.repeat(20)}`;
/** Impact questions asked of the index and of the queries, by `of` and extra parameters. */
const asked: string[] = [];
/** The questions asked of what this file's own records say (the rest come from the worked example). */
let own: Record<'a0' | 'release' | 'announced' | 'foreign' | 'content', string>;

async function step(token: string, key: string, input: string, title: string) {
  await api.advertise(token, 'consumed', key, [{ iri: input }]);
  const made = await api.advertise(token, 'produced', key, [artifact(title)]);
  return { run: made.run as string, artifact: made.artifacts[0] as string };
}

const q = encodeURIComponent;

const PEER = `${PEER_GRAPH_PREFIX}impact-peer`;
const PEER_DEPLOYMENT = 'https://peer.example/instance/i1';

/** A peer's record as this registry caches it: its statements (subject, predicate, object) in the peer's graph. */
const cached = (subject: string, kind: string, statements: [string, string, string][]) => ({
  graph: PEER,
  subject,
  kind,
  quads: parseNQuads(statements.map(([s, p, o]) => `<${s}> <${p}> ${o} <${PEER}> .`).join('\n')),
});
const at = (time: string) => `"${time}"^^<${XSD('dateTime')}>`;

/**
 * A peer's copies: a run of its deployment that used A0 with release 1.0 and generated an artifact carrying A0's
 * bytes, and an older run of that deployment whose output was made before it.
 */
async function cachePeerRecords(a0: string, release: string): Promise<void> {
  const run = (id: string, started: string, used: [string, string][]) =>
    cached(`https://peer.example/run/${id}`, 'run', [
      [`https://peer.example/run/${id}`, RDF('type'), `<${PROV('Activity')}>`],
      [`https://peer.example/run/${id}`, PROV('wasAssociatedWith'), `<${PEER_DEPLOYMENT}>`],
      [`https://peer.example/run/${id}`, PROV('startedAtTime'), at(started)],
      [`https://peer.example/run/${id}`, RDFS('label'), `"peer run ${id}"`],
      ...used.map(([p, o]): [string, string, string] => [`https://peer.example/run/${id}`, p, `<${o}>`]),
    ]);
  const made = (id: string, by: string, created: string) => {
    const iri = `https://peer.example/artifact/${id}`;
    return cached(iri, 'artifact', [
      [iri, RDF('type'), `<${DCAT('Dataset')}>`],
      [iri, DCT('title'), `"peer ${id}"`],
      [iri, DCT('created'), at(created)],
      [iri, PROV('wasGeneratedBy'), `<https://peer.example/run/${by}>`],
      [iri, DCAT('distribution'), `<${iri}#distribution-1>`],
      [`${iri}#distribution-1`, SPDX('checksum'), `<${iri}#distribution-1-checksum>`],
      [`${iri}#distribution-1-checksum`, SPDX('algorithm'), `<${SPDX('checksumAlgorithm_sha256')}>`],
      [`${iri}#distribution-1-checksum`, SPDX('checksumValue'), `"${HEX}"`],
    ]);
  };
  await core.graph.commit(
    [
      run('p1', '2026-01-01T00:00:00.000Z', [
        [PROV('used'), a0],
        [REG('usedRelease'), release],
      ]),
      run('p0', '2025-06-01T00:00:00.000Z', []),
      made('before', 'p0', '2025-06-01T01:00:00.000Z'),
      made('after', 'p1', '2026-01-01T01:00:00.000Z'),
    ],
    () => undefined,
  );
}

/**
 * A lineage of three generations from A0 by two deployments of one software on release 1.0, one of which moved to
 * 2.0 since; what they made before and after (one of it withdrawn); a withdrawn deployment of 1.0; one that
 * announced itself on a release; and a run that used an artifact of another registry.
 */
async function seedImpact(): Promise<void> {
  const software = await api.call('POST', '/api/v1/software', 201, { name: 'impact index' });
  const r1 = await api.call('POST', `/api/v1/software/${software.id}/releases`, 201, {
    version: '1.0',
    image_digest: `sha256:${IMAGE}`,
    swhids: [TREE],
  });
  const r2 = await api.call('POST', `/api/v1/software/${software.id}/releases`, 201, { version: '2.0' });
  const one = await api.deployment(software, 'one');
  const two = await api.deployment(software, 'two');
  const gone = await api.deployment(software, 'gone');
  for (const d of [one, two, gone])
    await api.call('PATCH', `/api/v1/instances/${d.instance.id}`, 200, { release: r1.iri });
  await api.call('DELETE', `/api/v1/instances/${gone.instance.id}`, 204);
  // Made before deployment one first used A0: not produced since.
  await api.advertise(one.token, 'produced', 'early', [artifact('Early')]);
  await new Promise((resolve) => setTimeout(resolve, 5));
  const held = (title: string, swhids: string[]) =>
    artifact(title, {
      distributions: [
        {
          download_url: `https://data.example.org/${title}.tsv`,
          checksum: { algorithm: 'sha256', value: HEX },
          swhids,
        },
      ],
    });
  const a0 = await api.call(
    'POST',
    '/api/v1/artifacts',
    201,
    held('A0', [`${FILE};origin=https://example.org/repo`]),
  );
  // The same bytes, withdrawn: no longer found by their names.
  const twin = await api.call('POST', '/api/v1/artifacts', 201, held('Twin', [FILE]));
  const s1 = await step(one.token, 'k1', a0.iri, 'A1');
  const s2 = await step(two.token, 'k2', s1.artifact, 'A2');
  const s3 = await step(one.token, 'k3', s2.artifact, 'A3');
  const withdrawn = await api.advertise(one.token, 'produced', 'k4', [
    artifact('Later'),
    artifact('Dropped'),
  ]);
  const root = await resolveCredential(core, `Bearer ${ROOT_TOKEN}`);
  for (const iri of [String(withdrawn.artifacts[1]), String(twin.iri)])
    await tombstoneRecord(core, ARTIFACT, await requireStored(core, ARTIFACT, iri), actOf(root));
  await api.advertise(two.token, 'consumed', 'k5', [{ iri: FOREIGN }]);
  await api.call('PATCH', `/api/v1/instances/${two.instance.id}`, 200, { release: r2.iri });
  await cachePeerRecords(a0.iri, r1.iri);
  const announcer = await api.call('POST', '/api/v1/software', 201, { name: 'announcer' });
  const v1 = await api.call('POST', `/api/v1/software/${announcer.id}/releases`, 201, { version: '1.0' });
  const { token } = await api.call('POST', `/api/v1/software/${announcer.id}/tokens`, 201, {});
  await api.call('PUT', '/api/v1/instances/self', 201, { instance_key: 'node', version: '1.0' }, token);
  own = {
    a0: `of=${q(a0.iri)}`,
    release: `of=${q(r1.iri)}`,
    announced: `of=${q(v1.iri)}`,
    foreign: `of=${q(FOREIGN)}`,
    content: `of=sha256:${HEX}`,
  };
  asked.push(
    ...Object.values(own),
    `of=${q(a0.iri)}&depth=1`,
    `of=${q(a0.iri)}&max_nodes=3`,
    `of=${String(a0.id)}`,
    `of=${String(r1.id)}`,
    `of=${q(r2.iri)}`,
    `of=sha256:${IMAGE}`,
    `of=${q(FILE)}`,
    `of=${q(TREE)}`,
    `of=${q(`ni:///sha-256;${Buffer.from(HEX, 'hex').toString('base64url')}`)}`,
    ...[s1, s2, s3].map((s) => `of=${q(s.artifact)}`),
  );
}

beforeAll(async () => {
  core = await openTestCore({}, true);
  dataDir = core.config.dataDir;
  api = apiOf(createApp(core));
  await seedWithLineage(core, api);
  await seedImpact();
  // Artifacts the worked example and the lineage events recorded, and every software's releases.
  const artifacts = (await api.call('GET', '/api/v1/artifacts?limit=200', 200)).items as Json[];
  // (A peer's copies are read here only for a peer this registry knows: these are not asked about directly.)
  const listed = artifacts.filter((item) => !String(item.iri).startsWith('https://peer.example/'));
  asked.push(...listed.slice(0, 40).map((item) => `of=${q(String(item.iri))}`));
  for (const software of (await api.call('GET', '/api/v1/software?limit=200', 200)).items as Json[]) {
    const releases = (await api.call('GET', `/api/v1/software/${String(software.id)}/releases`, 200))
      .items as Json[];
    asked.push(...releases.map((item) => `of=${q(String(item.iri))}`));
  }
}, 180_000);

afterAll(async () => {
  await core.close();
});

/** The impact answers to every question, with the cursor of a partial one (a new one each time) left out. */
async function readAll(): Promise<Json[]> {
  const out: Json[] = [];
  for (const query of asked) {
    const response = await api.send('GET', `/api/v1/impact?${query}`);
    const { cursor, ...body } = (await response.json()) as Json;
    expect([query, response.status, body.detail]).toEqual([query, 200, undefined]);
    out.push({ query, ...body, ...(cursor === undefined ? {} : { cursor: 'given' }) });
  }
  return out;
}

const answerTo = (answers: Json[], query: string): Json => answers.find((answer) => answer.query === query)!;

describe('impact, read from the lineage index', () => {
  let fromIndex: Json[];

  it('finds runs, deployments and what they produced since, leaving withdrawn records out', async () => {
    expect(lineageIndexReady(core.db)).toBe(true);
    fromIndex = await readAll();
    const a0 = answerTo(fromIndex, own.a0);
    // Three generations here, and a run of a peer's deployment whose copy is cached here.
    expect(a0.summary).toMatchObject({ runs: 4, direct_runs: 2, artifacts: 5, deployments: 3 });
    const produced = (answer: Json) =>
      Object.fromEntries(
        (answer.deployments as Json[]).map((d) => [d.label ?? d.iri, d.produced_since.count]),
      );
    // One made A1, A3 and Later since it first used A0 (not Early before it, nor Dropped, withdrawn since); the
    // peer's deployment made one artifact before and one after.
    expect(produced(a0)).toEqual({ one: 3, two: 1, [PEER_DEPLOYMENT]: 1 });
    const release = answerTo(fromIndex, own.release);
    expect(release.summary).toMatchObject({
      direct_runs: 7,
      deployments: 3,
      deployments_still_on_release: 1,
    });
    // Deployment one made Early with 1.0 too; the withdrawn deployment is not among those running it.
    expect(produced(release)).toEqual({ one: 4, two: 1, [PEER_DEPLOYMENT]: 1 });
    expect(release.edges.filter((edge: Json) => edge.to === release.subject.releases[0])).toHaveLength(7);
    const announced = answerTo(fromIndex, own.announced);
    expect(announced.deployments.map((d: Json) => d.still_on_release)).toEqual([true]);
    const foreign = answerTo(fromIndex, own.foreign);
    expect(foreign.subject).toEqual({ kind: 'artifact', artifacts: [FOREIGN], releases: [] });
    expect(foreign.summary).toMatchObject({ runs: 1, deployments: 1 });
    // The same bytes: A0 (by checksum and by its SWHID with qualifiers) and the peer's copies (by checksum), not
    // the withdrawn twin.
    expect(answerTo(fromIndex, `of=${q(FILE)}`)).toMatchObject({
      subject: { kind: 'content', artifacts: a0.subject.artifacts },
      summary: a0.summary,
    });
    expect(answerTo(fromIndex, own.content).subject.artifacts).toEqual(
      [
        ...a0.subject.artifacts,
        'https://peer.example/artifact/after',
        'https://peer.example/artifact/before',
      ].sort(),
    );
    expect(answerTo(fromIndex, `of=${q(TREE)}`).subject.releases).toEqual(release.subject.releases);
    expect(answerTo(fromIndex, `${own.a0}&max_nodes=3`).partial).toBe(true);
    // The worked example's and the lineage events' artifacts were used by runs too.
    const busy = fromIndex.filter((answer) => answer.summary.runs > 0 && answer.summary.deployments > 0);
    expect(busy.length).toBeGreaterThan(15);
    expect(busy.some((answer) => answer.deployments.some((d: Json) => d.produced_since.count > 0))).toBe(
      true,
    );
  });

  it('answers before the query index has loaded, as after', async () => {
    await core.close();
    core = await openTestCore({ REG_DATA_DIR: dataDir }, false);
    api = apiOf(createApp(core));
    expect(await readAll()).toEqual(fromIndex);
  });

  it('gives the answers the query index gives', async () => {
    await core.graph.open();
    await readFromQueryIndex(core, api, 'impact');
    expect(await readAll()).toEqual(fromIndex);
  });
});
