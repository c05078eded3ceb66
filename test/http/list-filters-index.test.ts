/**
 * The software list's publisher and capability filters, the artifact list's availability, run and content filters
 * and content identification (`/api/v1/identify`) are read from the lineage index in `registry.db`: the same
 * answers as the query index gives, on the worked example and genuine OpenLineage events with records of this
 * file (publishers by IRI and by name, capabilities of software and of their releases, distributions at each
 * availability, content names, a withdrawn copy and a peer's cached copies); and answered before the query index
 * has loaded. Each software's deployments view, which lists them by the software they are of, is compared too.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveCredential } from '../../src/core/access/credentials.js';
import type { Core } from '../../src/core/core.js';
import { ARTIFACT } from '../../src/core/records/activity-specs.js';
import { requireStored, tombstoneRecord } from '../../src/core/stored/records.js';
import { actOf } from '../../src/core/stored/write-path.js';
import { createApp } from '../../src/http/app.js';
import { openTestCore, ROOT_TOKEN } from '../helpers.js';
import { apiOf, type Json } from '../support/api.js';
import { DCAT, DCT, PEER_GRAPH_PREFIX, PROV, RDF, REG, SCHEMA, SPDX } from '../../src/core/ns.js';
import { parseNQuads } from '../../src/core/store/nquads.js';
import { lineageIndexReady } from '../../src/core/store/lineage/lineage-index.js';
import { readFromQueryIndex, seedWithLineage } from '../support/openlineage.js';

let core: Core;
let api: ReturnType<typeof apiOf>;
let dataDir: string;
const q = encodeURIComponent;
const ROR = 'https://ror.org/00filter0';
const HEX = createHash('sha256').update('open table').digest('hex');
const GATED = createHash('sha256').update('gated table').digest('hex');
const IMAGE = createHash('sha256').update('filter group image').digest('hex');
const FILE = `swh:1:cnt:${createHash('sha1').update('open table').digest('hex')}`;
const SOURCE = `swh:1:rel:${createHash('sha1').update('filter group 1.0').digest('hex')}`;
const NI = `ni:///sha-256;${Buffer.from(HEX, 'hex').toString('base64url')}`;
const PEER = `${PEER_GRAPH_PREFIX}filters-peer`;

/** Lists and content questions asked of both indexes, filled in as the records are made. */
const paths: string[] = [];
/** Those of `paths` that must find something, and less than the whole list. */
const narrowing: string[] = [];

/** A peer's record as this registry caches it: its statements (subject, predicate, object) in the peer's graph. */
const cached = (subject: string, kind: string, statements: [string, string, string][]) => ({
  graph: PEER,
  subject,
  kind,
  quads: parseNQuads(statements.map(([s, p, o]) => `<${s}> <${p}> ${o} <${PEER}> .`).join('\n')),
});

/**
 * A peer's software published by the same organisation, its copy of the open table (restricted there), and an
 * artifact whose distribution states no availability.
 */
async function cachePeerRecords(produced: string): Promise<void> {
  const software = 'https://peer.example/software/mirror';
  const artifact = 'https://peer.example/artifact/open-table';
  const distribution = `${artifact}#distribution-1`;
  await core.graph.commit(
    [
      cached(software, 'software', [
        [software, RDF('type'), `<${REG('Software')}>`],
        [software, SCHEMA('name'), '"peer mirror"'],
        [software, DCT('publisher'), `<${ROR}>`],
        [ROR, SCHEMA('name'), '"Filter Laboratory"'],
        [software, REG('hasCapability'), `<${software}#capability>`],
        [`${software}#capability`, REG('produces'), `<${produced}>`],
      ]),
      cached(artifact, 'artifact', [
        [artifact, RDF('type'), `<${DCAT('Dataset')}>`],
        [artifact, DCT('title'), '"peer open table"'],
        [artifact, DCAT('distribution'), `<${distribution}>`],
        [distribution, REG('availability'), '"restricted"'],
        [distribution, PROV('specializationOf'), `<${NI}>`],
        [distribution, SPDX('checksum'), `<${distribution}-checksum>`],
        [`${distribution}-checksum`, SPDX('algorithm'), `<${SPDX('checksumAlgorithm_sha256')}>`],
        [`${distribution}-checksum`, SPDX('checksumValue'), `"${HEX}"`],
      ]),
      // A distribution that states no availability: public, as the artifact presents it.
      cached(`${artifact}-unstated`, 'artifact', [
        [`${artifact}-unstated`, RDF('type'), `<${DCAT('Dataset')}>`],
        [`${artifact}-unstated`, DCT('title'), '"peer unstated table"'],
        [`${artifact}-unstated`, DCAT('distribution'), `<${artifact}-unstated#distribution-1>`],
        [`${artifact}-unstated#distribution-1`, DCAT('downloadURL'), '<https://peer.example/unstated>'],
      ]),
    ],
    () => undefined,
  );
}

/** Software with publishers and capabilities, artifacts at each availability and by content, one withdrawn. */
async function seedFilters(): Promise<void> {
  const types = ((await api.call('GET', '/api/v1/types', 200)).items as Json[]).map((t) => String(t.iri));
  const [made, read] = [types[0]!, types[1]!];
  await api.call('POST', '/api/v1/software', 201, {
    name: 'filter lab tool',
    publisher: { kind: 'organization', name: 'Filter Laboratory', identifier: ROR },
    capability: { produces: [made], consumes: [read] },
  });
  const group = await api.call('POST', '/api/v1/software', 201, {
    name: 'filter group tool',
    publisher: { kind: 'person', name: 'Ada Filterer' },
  });
  // Only its release declares what it produces.
  await api.call('POST', `/api/v1/software/${group.id}/releases`, 201, {
    version: '1.0',
    image_digest: `sha256:${IMAGE}`,
    swhids: [SOURCE],
    capability: { produces: [read], consumes: [] },
  });
  await api.call('POST', '/api/v1/software', 201, { name: 'unpublished tool' });
  const dist = (name: string, extra: Json = {}) => ({
    download_url: `https://data.example.org/${name}`,
    ...extra,
  });
  const post = async (title: string, distributions: Json[]) =>
    api.call('POST', '/api/v1/artifacts', 201, { title, distributions });
  await post('Open table', [
    dist('open', { checksum: { algorithm: 'sha256', value: HEX }, swhids: [`${FILE};origin=https://x.org`] }),
  ]);
  await post('Gated table', [
    dist('gated', { availability: 'restricted', checksum: { algorithm: 'sha256', value: GATED } }),
  ]);
  await post('Mixed table', [
    dist('m1', { availability: 'embargoed' }),
    dist('m2', { availability: 'restricted' }),
  ]);
  await post('Embargoed table', [dist('e', { availability: 'embargoed' })]);
  await post('Catalogue entry', [dist('c', { availability: 'metadata-only' })]);
  await post('Bare entry', []);
  // The same bytes, withdrawn: left out of every answer.
  const twin = await post('Withdrawn twin', [
    dist('twin', { checksum: { algorithm: 'sha256', value: HEX } }),
  ]);
  const root = await resolveCredential(core, `Bearer ${ROOT_TOKEN}`);
  await tombstoneRecord(core, ARTIFACT, await requireStored(core, ARTIFACT, String(twin.iri)), actOf(root));
  await cachePeerRecords(made);

  const software = [
    `publisher=${q(ROR)}`,
    'publisher=filter%20LABORATORY',
    `publisher=${q('ada filterer')}`,
    `publisher=${q(ROR)}&produces=${q(made)}`,
  ];
  // Matchmaking over every type in use, as produced and as consumed.
  const sides = types.flatMap((type) => [`produces=${q(type)}`, `consumes=${q(type)}`]);
  const artifacts = [
    ...['public', 'restricted', 'embargoed', 'metadata-only'].map((level) => `availability=${level}`),
    `content=${HEX}`,
    `content=${q(NI)}`,
    `content=${GATED}`,
    `content=${HEX}&availability=restricted`,
    `content=${HEX}&registry=local`,
  ];
  // Runs of the worked example and of the OpenLineage events: what they generated and used.
  const runs = ((await api.call('GET', '/api/v1/runs?limit=200', 200)).items as Json[]).slice(0, 25);
  const byRun = runs.map((run) => `run=${String(run.id)}`);
  const content = [`sha256:${HEX}`, FILE, NI, `sha256:${IMAGE}`, SOURCE, GATED, `sha256:${'0'.repeat(64)}`];
  paths.push(
    ...[...software, ...sides, 'publisher=nobody'].map((p) => `/api/v1/software?limit=200&${p}`),
    ...[...artifacts, ...byRun].map((p) => `/api/v1/artifacts?limit=200&${p}`),
    ...content.map((id) => `/api/v1/identify?id=${q(id)}`),
  );
  narrowing.push(
    ...software.map((p) => `/api/v1/software?limit=200&${p}`),
    `/api/v1/software?limit=200&produces=${q(made)}`,
    `/api/v1/software?limit=200&consumes=${q(read)}`,
    `/api/v1/software?limit=200&produces=${q(read)}`,
    ...artifacts.map((p) => `/api/v1/artifacts?limit=200&${p}`),
  );
}

beforeAll(async () => {
  core = await openTestCore({}, true);
  dataDir = core.config.dataDir;
  api = apiOf(createApp(core));
  await seedWithLineage(core, api);
  await seedFilters();
  // The deployments of each software, listed by the software they are of.
  const software = (await api.call('GET', '/api/v1/software?limit=200&registry=local', 200)).items as Json[];
  paths.push(...software.map((item) => `/api/v1/software/${String(item.id)}/deployments`));
}, 180_000);

afterAll(async () => {
  await core.close();
});

/** Every answer, in the order of `paths`. */
async function readAll(): Promise<Json[]> {
  const out: Json[] = [];
  for (const path of paths) out.push({ path, ...(await api.call('GET', path, 200)) });
  return out;
}

const answerTo = (answers: Json[], path: string): Json => answers.find((answer) => answer.path === path)!;
const names = (answer: Json): string[] =>
  (answer.items as Json[]).map((item) => String(item.name ?? item.title)).sort();

describe('list filters and content identification, read from the lineage index', () => {
  let fromIndex: Json[];

  it('select what the records say, and narrow the lists', async () => {
    expect(lineageIndexReady(core.db)).toBe(true);
    fromIndex = await readAll();
    const software = Number((await api.call('GET', '/api/v1/software?limit=1', 200)).total);
    const artifacts = Number((await api.call('GET', '/api/v1/artifacts?limit=1', 200)).total);
    for (const path of narrowing) {
      const total = Number(answerTo(fromIndex, path).total);
      const all = path.startsWith('/api/v1/software') ? software : artifacts;
      expect([path, total > 0, total < all]).toEqual([path, true, true]);
    }
    const softwareBy = (filter: string) => names(answerTo(fromIndex, `/api/v1/software?limit=200&${filter}`));
    // By the publisher's IRI or its name in any case, here and in the peer's copy.
    expect(softwareBy(`publisher=${q(ROR)}`)).toEqual(['filter lab tool', 'peer mirror']);
    expect(softwareBy('publisher=filter%20LABORATORY')).toEqual(['filter lab tool', 'peer mirror']);
    expect(softwareBy(`publisher=${q('ada filterer')}`)).toEqual(['filter group tool']);
    expect(softwareBy('publisher=nobody')).toEqual([]);
    // A capability the software declares, or one of its releases does.
    const types = ((await api.call('GET', '/api/v1/types', 200)).items as Json[]).map((t) => String(t.iri));
    expect(softwareBy(`produces=${q(types[0]!)}`)).toEqual(
      expect.arrayContaining(['filter lab tool', 'peer mirror']),
    );
    expect(softwareBy(`produces=${q(types[1]!)}`)).toContain('filter group tool');
    expect(softwareBy(`consumes=${q(types[1]!)}`)).toContain('filter lab tool');
    expect(softwareBy(`consumes=${q(types[1]!)}`)).not.toContain('filter group tool');
    const artifactsBy = (filter: string) =>
      names(answerTo(fromIndex, `/api/v1/artifacts?limit=200&${filter}`)).filter(
        (title) => title.includes('table') || title.includes('entry'),
      );
    // The most open distribution, a missing availability read as public, none read as metadata-only.
    expect(artifactsBy('availability=public')).toEqual(['Open table', 'peer unstated table']);
    expect(artifactsBy('availability=restricted')).toEqual(['Gated table', 'Mixed table', 'peer open table']);
    expect(artifactsBy('availability=embargoed')).toEqual(['Embargoed table']);
    expect(artifactsBy('availability=metadata-only')).toEqual(['Bare entry', 'Catalogue entry']);
    expect(artifactsBy(`content=${HEX}`)).toEqual(['Open table', 'peer open table']);
    expect(artifactsBy(`content=${q(NI)}`)).toEqual(['Open table', 'peer open table']);
    expect(artifactsBy(`content=${HEX}&availability=restricted`)).toEqual(['peer open table']);
    expect(artifactsBy(`content=${HEX}&registry=local`)).toEqual(['Open table']);
    // Runs that generated artifacts and runs that used some.
    const byRun = fromIndex.filter((answer) => String(answer.path).includes('&run='));
    expect(byRun.filter((answer) => Number(answer.total) > 0).length).toBeGreaterThan(5);
    expect(byRun.every((answer) => Number(answer.total) < artifacts)).toBe(true);
    const deployed = fromIndex.filter((answer) => String(answer.path).endsWith('/deployments'));
    expect(deployed.some((answer) => Number(answer.total) > 1)).toBe(true);
    // Content: every record holding it, how it matched and its title.
    const identified = (id: string) => answerTo(fromIndex, `/api/v1/identify?id=${q(id)}`);
    const held = identified(`sha256:${HEX}`);
    const byTitle = (a: Json, b: Json) => (String(a.title) < String(b.title) ? -1 : 1);
    expect(
      (held.matches as Json[]).map((m) => ({ title: m.title, matched: m.matched })).sort(byTitle),
    ).toEqual([
      {
        title: 'Open table',
        matched: [
          { field: 'distributions.checksum', value: HEX },
          { field: 'distributions.swhids', value: `${FILE};origin=https://x.org` },
        ],
      },
      { title: 'peer open table', matched: [{ field: 'distributions.checksum', value: HEX }] },
    ]);
    expect(held.swhids).toEqual([FILE]);
    expect((identified(FILE).matches as Json[]).map((m) => m.title).sort()).toEqual([
      'Open table',
      'peer open table',
    ]);
    expect((identified(`sha256:${IMAGE}`).matches as Json[]).map((m) => [m.kind, m.title])).toEqual([
      ['release', 'filter group tool 1.0'],
    ]);
    expect((identified(SOURCE).matches as Json[]).map((m) => m.matched)).toEqual([
      [{ field: 'swhids', value: SOURCE }],
    ]);
    expect(identified(`sha256:${'0'.repeat(64)}`).total).toBe(0);
  });

  it('answers before the query index has loaded, as after', async () => {
    await core.close();
    core = await openTestCore({ REG_DATA_DIR: dataDir }, false);
    api = apiOf(createApp(core));
    expect(await readAll()).toEqual(fromIndex);
  });

  it('gives the answers the query index gives', async () => {
    await core.graph.open();
    await readFromQueryIndex(core, api, 'filters');
    expect(await readAll()).toEqual(fromIndex);
  });
});
