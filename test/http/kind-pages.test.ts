/**
 * Unfiltered lists are read from the store's table of records (each row has its kind, `:withdrawn` once
 * withdrawn), not by a query: the same records, in the same order and with the same totals as the query over the
 * records' classes gives, page by page, for every record kind, with withdrawn records left out or kept, and for
 * this registry, one peer or all; and answered before the query index has loaded.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/core/core.js';
import { createApp } from '../../src/http/app.js';
import { openTestCore } from '../helpers.js';
import { apiOf, type Json } from '../support/api.js';
import { readFromQueryIndex, seedWithLineage } from '../support/openlineage.js';
import { KINDS } from '../../src/core/records/kind-registry.js';
import { listAllRecords, listRecords, type ListQuery } from '../../src/core/stored/listing.js';
import { GRAPHS, PEER_GRAPH_PREFIX, REG, RDF, XSD } from '../../src/core/ns.js';
import { parseNQuads } from '../../src/core/store/nquads.js';

let core: Core;
let api: ReturnType<typeof apiOf>;
let dataDir: string;
const PEER = 'kinds-peer';
/** Lists whose items carry what other records say of them (counts, activity, facets). */
const LISTS = [
  '/api/v1/instances?limit=200',
  '/api/v1/runs?limit=200',
  '/api/v1/types',
  '/api/v1/software?limit=200',
];

/** A pattern every listed record matches: the same list, asked of the query index. */
const ANY = '?s ?anyPredicate ?anyObject .';

/** Every page of a list, `size` records at a time, following the cursors. */
async function walk(query: ListQuery, size: number): Promise<{ items: string[]; totals: number[] }> {
  const items: string[] = [];
  const totals: number[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 1_000; page++) {
    const got = await listRecords(core, { ...query, limit: size, cursor });
    items.push(...got.items.map((item) => `${item.graph} ${item.iri}`));
    totals.push(got.total);
    if (got.next_cursor === undefined) break;
    cursor = got.next_cursor;
  }
  return { items, totals };
}

const stub = (subject: string, type: string, withdrawn: boolean) => {
  const graph = `${PEER_GRAPH_PREFIX}${PEER}`;
  const lines = [
    `<${subject}> <${RDF('type')}> <${type}> <${graph}> .`,
    `<${subject}> <http://schema.org/name> "cached ${subject.slice(-6)}" <${graph}> .`,
    ...(withdrawn ? [`<${subject}> <${REG('tombstoned')}> "true"^^<${XSD('boolean')}> <${graph}> .`] : []),
  ];
  return {
    graph,
    subject,
    quads: parseNQuads(lines.join('\n')),
    kind: withdrawn ? 'software:withdrawn' : 'software',
  };
};

beforeAll(async () => {
  core = await openTestCore({}, true);
  dataDir = core.config.dataDir;
  api = apiOf(createApp(core));
  const deployment = await seedWithLineage(core, api);
  const software = deployment.software;
  // Words beyond ASCII, in capitals.
  await api.call('POST', '/api/v1/software', 201, { name: 'ÉCLAIR Übersetzer', tagline: 'Σύνοψη' });
  // A deployment and a release that declare capabilities of their own.
  const type = ((await api.call('GET', '/api/v1/types', 200)).items as Json[])[0]!;
  await api.call('PUT', `/api/v1/instances/${deployment.instance.id}/capability`, 200, {
    produces: [type.iri],
    consumes: [],
  });
  const release = await api.call('POST', `/api/v1/software/${software.id}/releases`, 201, {
    version: '1.0.0',
    capability: { produces: [type.iri], consumes: [] },
  });
  expect(release.capability).toBeDefined();
  // Withdrawn records of several kinds.
  const withdrawn = await api.call('POST', '/api/v1/software', 201, { name: 'withdrawn' });
  await api.call('DELETE', `/api/v1/software/${withdrawn.id}`, 204);
  const idle = await api.deployment(software, 'idle');
  await api.call('DELETE', `/api/v1/instances/${idle.instance.id}`, 204);
  // Copies of another registry's records, one of them withdrawn there.
  await core.graph.commit(
    [
      stub('https://peer.example/software/aaa', REG('Software'), false),
      stub('https://peer.example/software/bbb', REG('Software'), true),
      stub('https://peer.example/software/ccc', REG('Software'), false),
    ],
    () => undefined,
  );
}, 120_000);

afterAll(async () => {
  await core.close();
});

describe('an unfiltered list, read from the table of records', () => {
  const listed = KINDS.filter((entry) => entry.kind !== 'bundle');

  it('gives every kind the records, order and totals the query gives', async () => {
    let compared = 0;
    for (const entry of listed)
      for (const withdrawn of [false, true])
        for (const registry of [undefined, 'local', PEER]) {
          const query = { type: entry.marker, patterns: [], registry, withdrawn };
          const fromTable = await walk(query, 7);
          const fromQuery = await walk({ ...query, patterns: [ANY] }, 7);
          expect({ kind: entry.kind, withdrawn, registry, ...fromTable }).toEqual({
            kind: entry.kind,
            withdrawn,
            registry,
            ...fromQuery,
          });
          const all = await listAllRecords(core, query, 10_000);
          expect(all.items.map((item) => `${item.graph} ${item.iri}`)).toEqual(fromQuery.items);
          expect(all.total).toBe(fromQuery.items.length);
          compared += fromQuery.items.length;
        }
    // The comparison covered records of many kinds, withdrawn ones and a peer's copies.
    expect(compared).toBeGreaterThan(100);
    const software = await walk({ type: REG('Software'), patterns: [], withdrawn: true }, 50);
    expect(software.items).toContain(`${PEER_GRAPH_PREFIX}${PEER} https://peer.example/software/bbb`);
    expect(software.items.some((item) => item.startsWith(`${GRAPHS.local} `))).toBe(true);
    const live = await walk({ type: REG('Software'), patterns: [] }, 50);
    expect(live.items).not.toContain(`${PEER_GRAPH_PREFIX}${PEER} https://peer.example/software/bbb`);
    expect(live.items.length).toBeLessThan(software.items.length);
  });

  it('answers the lists before the query index has loaded, as after', async () => {
    const paths = [
      '/api/v1/software',
      '/api/v1/instances',
      '/api/v1/runs',
      '/api/v1/artifacts',
      '/api/v1/types',
      '/api/v1/licenses',
      '/api/v1/vocab/search?q=conformance&branch=data',
      '/api/v1/software?q=SHACL',
      '/api/v1/software?keyword=rdf',
    ].map((path) => `${path}${path.includes('?') ? '&' : '?'}limit=5`);
    const loaded: unknown[] = [];
    for (const path of paths) loaded.push(await api.call('GET', path, 200));
    await core.close();
    core = await openTestCore({ REG_DATA_DIR: dataDir }, false);
    api = apiOf(createApp(core));
    const early: unknown[] = [];
    for (const path of paths) early.push(await api.call('GET', path, 200));
    expect(early).toEqual(loaded);
    expect((loaded[1] as Json).total).toBeGreaterThan(0);
    // Lists filtered by words and keywords found something.
    expect((loaded[7] as Json).total).toBeGreaterThan(0);
    expect((loaded[8] as Json).total).toBeGreaterThan(0);
    // The types minted here are found by vocabulary search.
    expect(((loaded[6] as Json).items as Json[]).some((item) => item.source === 'local')).toBe(true);
  });

  it('gives the same lists from the lineage index as from the query index', async () => {
    await core.graph.open();
    // Filtered lists, with values the records hold: each filter the lineage index keeps.
    const software = await api.call('GET', '/api/v1/software?limit=200', 200);
    const facet = (name: string) =>
      (software.facets as { name: string; values: { value: string }[] }[]).find((f) => f.name === name)
        ?.values[0]?.value ?? '';
    const deployments = ((await api.call('GET', '/api/v1/instances?limit=200', 200)).items as Json[]).filter(
      (item) => Number(item.runs_30d) > 0,
    );
    const busy = deployments[0] ?? {};
    const failing = deployments.find((item) => Number(item.failures_30d) > 0) ?? {};
    const q = encodeURIComponent;
    const used =
      ((await api.call('GET', '/api/v1/types', 200)).items as Json[]).find(
        (item) => Number(item.artifact_count) > 0,
      ) ?? {};
    // Runs read one by one: what they used and generated, described.
    const runs = (await api.call('GET', '/api/v1/runs?limit=200', 200)).items as Json[];
    const runReads = runs.slice(0, 20).map((item) => `/api/v1/runs/${String(item.id)}`);
    const named = (software.items as Json[]).find((item) => typeof item.name === 'string') ?? {};
    // Words: part of a word in another case, as a client types it.
    const part = (text: unknown) => q(String(text).slice(1, 5).toUpperCase());
    const artifacts = (await api.call('GET', '/api/v1/artifacts?limit=200', 200)).items as Json[];
    const titled = artifacts.find((item) => typeof item.title === 'string') ?? {};
    const labelled = runs.find((item) => typeof item.label === 'string') ?? {};
    const filtered = [
      `/api/v1/software?limit=200&license=${q(facet('license'))}`,
      `/api/v1/software?limit=200&kind=${q(facet('kind'))}`,
      `/api/v1/software?limit=200&topic=${q(facet('topic'))}`,
      `/api/v1/instances?limit=200&software=${q(String(busy.software))}`,
      `/api/v1/instances?limit=200&label=${q(String(busy.label))}`,
      `/api/v1/runs?limit=200&instance=${q(String(busy.id))}`,
      `/api/v1/runs?limit=3&instance=${q(String(failing.id))}&status=failed`,
      `/api/v1/runs?limit=200&software=${q(String(busy.software))}`,
      `/api/v1/instances?limit=200&release=${q(String(busy.release))}`,
      `/api/v1/artifacts?limit=200&conforms_to=${q(String(used.iri))}`,
      `/api/v1/software?limit=200&name=${q(String(named.name))}`,
      `/api/v1/instances/${String(busy.id)}/artifacts?limit=200`,
      `/api/v1/artifacts?limit=200&software=${q(String(busy.software))}`,
      `/api/v1/instances?limit=200&health=unknown`,
      `/api/v1/runs?limit=200&status=unknown`,
      `/api/v1/instances/${String(busy.id)}/runs?limit=2`,
      `/api/v1/artifacts?limit=200&license=${q(facet('license'))}`,
      `/api/v1/software?limit=200&q=${part(named.name)}`,
      `/api/v1/instances?limit=200&q=${part(busy.label)}`,
      `/api/v1/artifacts?limit=200&q=${part(titled.title)}`,
      `/api/v1/runs?limit=200&q=${part(labelled.label)}`,
      `/api/v1/software?limit=200&keyword=Shacl`,
      `/api/v1/artifacts?limit=200&keyword=validation`,
      `/api/v1/artifacts?limit=200&keyword=RDF`,
      `/api/v1/software?limit=2&q=E&license=${q(facet('license'))}`,
      `/api/v1/software?limit=200&q=shacl`,
      `/api/v1/software?limit=200&q=${q('éclair übersetzer σύνοψη')}`,
    ];
    // Matchmaking for every type in use, as produced and as consumed.
    const types = (await api.call('GET', '/api/v1/types', 200)).items as Json[];
    const matches = types.flatMap((type) =>
      ['produces', 'consumes'].map((side) => `/api/v1/capabilities?${side}=${q(String(type.iri))}`),
    );
    const read = async () => {
      const out: unknown[] = [];
      for (const path of [...LISTS, ...filtered, ...runReads, ...matches])
        out.push(await api.call('GET', path, 200));
      return out;
    };
    const fromIndex = await read();
    // The filters selected something, and not everything.
    for (const [n, path] of filtered.entries()) {
      // No run is without a status and no artifact has a licence in these records.
      if (path.includes('=unknown') || path.startsWith('/api/v1/artifacts?limit=200&license')) continue;
      const total = Number((fromIndex[LISTS.length + n] as Json).total);
      expect([path, total > 0]).toEqual([path, true]);
    }
    // Runs that generated artifacts and used some were read.
    const reads = fromIndex.slice(LISTS.length + filtered.length, -matches.length) as Json[];
    // Matches of each kind were found.
    const found = (fromIndex.slice(-matches.length) as Json[]).flatMap((page) => page.items as Json[]);
    expect(new Set(found.map((item) => item.entity_type))).toEqual(
      new Set(['software', 'release', 'instance']),
    );
    expect(reads.some((run) => (run.generated as unknown[]).length > 0)).toBe(true);
    expect(reads.some((run) => (run.used as unknown[]).length > 0)).toBe(true);
    expect(Number((fromIndex[LISTS.length + 5] as Json).total)).toBeLessThan(
      Number((fromIndex[1] as Json).total),
    );
    await readFromQueryIndex(core, api, 'lists');
    expect(await read()).toEqual(fromIndex);
    const instances = (fromIndex[0] as Json).items as Json[];
    // The deployments' activity was counted: runs, failures and artifacts.
    expect(instances.some((item) => Number(item.runs_30d) > 0)).toBe(true);
    expect(instances.some((item) => Number(item.failures_30d) > 0)).toBe(true);
    expect(instances.some((item) => Number(item.artifact_count) > 0)).toBe(true);
    expect(((fromIndex[2] as Json).items as Json[]).some((item) => Number(item.artifact_count) > 0)).toBe(
      true,
    );
    // Every facet of the software list has values.
    const facets = (fromIndex[3] as Json).facets as { name: string; values: unknown[] }[];
    expect(facets.map((facet) => [facet.name, facet.values.length > 0])).toEqual([
      ['license', true],
      ['kind', true],
      ['topic', true],
    ]);
  });
});
