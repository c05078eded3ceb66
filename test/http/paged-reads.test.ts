/**
 * Reads that grow with the data, on both graph stores. In the `sparql` project the store is a Virtuoso on its
 * stock settings, which refuses to sort more than 10,000 rows (SR353) and cuts answers at 10,000: every read
 * here must be paged for these to pass there.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/core/core.js';
import { GRAPHS } from '../../src/core/ns.js';
import { mintIri } from '../../src/core/records/ids.js';
import { recordToQuads, type JsonObject } from '../../src/core/records/mapper.js';
import type { RecordSpec } from '../../src/core/records/schema.js';
import { RELEASE } from '../../src/core/records/specs.js';
import { ARTIFACT_TYPE } from '../../src/core/records/type-specs.js';
import { PAGE_ROWS, selectByKey } from '../../src/core/stored/keyset.js';
import { createApp } from '../../src/http/app.js';
import { openTestCore, ROOT_TOKEN } from '../helpers.js';

let core: Core;
let app: ReturnType<typeof createApp>;
const auth = { authorization: `Bearer ${ROOT_TOKEN}`, 'content-type': 'application/json' };

beforeAll(async () => {
  core = await openTestCore({}, true);
  app = createApp(core);
});
afterAll(async () => core.close());

const json = async (response: Response) => (await response.json()) as Record<string, any>;

/** Writes records straight through the graph store, a few hundred per commit, as a restore would. */
async function writeMany(spec: RecordSpec, records: readonly { iri: string; json: JsonObject }[]) {
  for (let start = 0; start < records.length; start += 250) {
    const writes = records.slice(start, start + 250).map(({ iri, json: fields }) => {
      const mapped = recordToQuads(spec, iri, fields, GRAPHS.local, true);
      expect(mapped.errors).toEqual([]);
      return { graph: GRAPHS.local, subject: iri, quads: mapped.quads, kind: spec.kind };
    });
    await core.graph.commit(writes, () => undefined);
  }
}

describe('reads past one page of the store', () => {
  it('lists every release of a software, newest first, when there are more than a page of them', async () => {
    const created = await app.request('/api/v1/software', {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ name: 'many-releases' }),
    });
    expect(created.status).toBe(201);
    const software = await json(created);
    const count = PAGE_ROWS + 7;
    const now = new Date().toISOString();
    const releases = Array.from({ length: count }, (_, i) => ({
      iri: mintIri(core.config.baseIri, RELEASE.path),
      json: { version: `1.${i}.0`, software: software.iri as string, created: now, modified: now },
    }));
    await writeMany(RELEASE, releases);

    const response = await app.request(`/api/v1/software/${software.id as string}/releases`);
    const list = await json(response);
    expect(response.status, JSON.stringify(list)).toBe(200);
    expect(list.total).toBe(count);
    const listed = (list.items as { iri: string }[]).map((item) => item.iri);
    const newestFirst = releases.map((release) => release.iri).sort((a, b) => (a < b ? 1 : -1));
    expect(listed).toEqual(newestFirst);
  });

  it('offers every minted type to vocabulary search when their labels and aliases pass 10,000 values', async () => {
    const types = Array.from({ length: 1700 }, (_, i) => ({
      iri: `${core.config.baseIri}/type/paged-${String(i).padStart(4, '0')}`,
      json: {
        label: `Pagedtype number ${String(i).padStart(4, '0')}`,
        aliases: ['a', 'b', 'c', 'd', 'e'].map((letter) => `zz-${letter}-${i}`),
      },
    }));
    await writeMany(ARTIFACT_TYPE, types);
    for (const wanted of ['0000', '0199', '1699']) {
      const response = await app.request(
        `/api/v1/vocab/search?branch=data&q=${encodeURIComponent(`Pagedtype number ${wanted}`)}`,
      );
      const found = await json(response);
      expect(response.status, JSON.stringify(found)).toBe(200);
      expect(found.items.map((item: { iri: string }) => item.iri)).toContain(
        `${core.config.baseIri}/type/paged-${wanted}`,
      );
    }
  });
});

describe('keyset paging', () => {
  const prefix = 'http://paging.test/item/';
  const subjects = Array.from({ length: 11 }, (_, i) => `${prefix}${String(i).padStart(2, '0')}`);

  beforeAll(async () => {
    // Each subject has two values, so a page of keys holds twice as many solutions.
    await writeMany(
      ARTIFACT_TYPE,
      subjects.map((iri, i) => ({ iri, json: { label: `item ${i}`, aliases: [`a${i}`, `b${i}`] } })),
    );
  });

  const flat = (rows: number, descending = false, max?: number) =>
    selectByKey(
      core,
      's',
      ({ after, order }) =>
        `SELECT ?s WHERE { GRAPH <${GRAPHS.local}> { ?s a <https://w3id.org/reg/ns#ArtifactType> }
           FILTER(STRSTARTS(STR(?s), "${prefix}")) ${after} } ${order}`,
      { rows, descending, ...(max === undefined ? {} : { max }) },
    );

  it('reads every key once across pages, in either direction', async () => {
    const up = await flat(3);
    expect(up.map((row) => row.s?.value)).toEqual(subjects);
    const down = await flat(4, true);
    expect(down.map((row) => row.s?.value)).toEqual([...subjects].reverse());
    const exact = await flat(11);
    expect(exact).toHaveLength(11);
  });

  it('stops once `max` keys were read', async () => {
    const some = await flat(3, false, 5);
    expect(some.map((row) => row.s?.value)).toEqual(subjects.slice(0, 6));
  });

  it('pages keys of a subquery joined to several solutions per key', async () => {
    const rows = await selectByKey(
      core,
      's',
      ({ after, order }) =>
        `SELECT ?s ?alias WHERE {
           { SELECT DISTINCT ?s WHERE { GRAPH <${GRAPHS.local}> { ?s a <https://w3id.org/reg/ns#ArtifactType> }
               FILTER(STRSTARTS(STR(?s), "${prefix}")) ${after} } ${order} }
           GRAPH <${GRAPHS.local}> { ?s <http://www.w3.org/2004/02/skos/core#altLabel> ?alias } }`,
      { rows: 4 },
    );
    expect(rows).toHaveLength(22);
    const aliases = rows.map((row) => `${row.s?.value} ${row.alias?.value}`).sort();
    expect(aliases).toEqual(subjects.flatMap((iri, i) => [`${iri} a${i}`, `${iri} b${i}`]).sort());
  });
});
