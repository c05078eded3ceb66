import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/core/core.js';
import { searchVocabulary } from '../../src/core/discovery/vocab-search.js';
import { createApp } from '../../src/http/app.js';
import { openTestCore, ROOT_TOKEN } from '../helpers.js';

let core: Core;
let app: ReturnType<typeof createApp>;
const auth = { authorization: `Bearer ${ROOT_TOKEN}`, 'content-type': 'application/json' };
const BASE = 'http://registry.test';
const REG = 'https://w3id.org/reg/ns#';
const TABULAR = `${REG}TabularDataset`;
const CONTAINER = `${REG}ContainerImage`;

beforeAll(async () => {
  core = await openTestCore({}, true);
  app = createApp(core);
});
afterAll(async () => core.close());

const send = (method: string, path: string, body?: unknown) =>
  app.request(path, { method, headers: auth, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
const json = async (response: Response) => (await response.json()) as Record<string, any>;
const search = async (query: string) => {
  const response = await app.request(`/api/v1/vocab/search?${query}`);
  expect(response.status).toBe(200);
  return json(response);
};
type Hit = { iri: string; label: string; score: number; branch: string; source: string };

describe('vocabulary search', () => {
  it('scores exact, prefix, substring and synonym-only matches', async () => {
    expect((await search('q=Tabular%20Dataset')).items[0]).toMatchObject({
      iri: TABULAR,
      score: 1,
      source: 'bundled',
      branch: 'data',
    });
    const prefix = (await search('q=tabular&branch=data')).items.find((hit: Hit) => hit.iri === TABULAR);
    expect(prefix.score).toBe(0.8);
    const contains = (await search('q=ular%20data&branch=data')).items.find(
      (hit: Hit) => hit.iri === TABULAR,
    );
    expect(contains.score).toBe(0.6);
    // "OCI image" is only an alternative label of the container image type.
    const synonym = await search('q=oci%20image&branch=data');
    expect(synonym.items.find((hit: Hit) => hit.iri === CONTAINER)).toMatchObject({
      score: 0.3,
      label: 'Container image',
    });
  });

  it('orders hits by score, then by shorter label', async () => {
    const { items } = await search('q=sequence&branch=data&limit=100');
    expect(items.length).toBeGreaterThan(10);
    expect(items[0]).toMatchObject({ label: 'Sequence', score: 1 });
    for (let i = 1; i < items.length; i++) {
      const [before, after] = [items[i - 1] as Hit, items[i] as Hit];
      expect(before.score).toBeGreaterThanOrEqual(after.score);
      if (before.score === after.score) expect(before.label.length).toBeLessThanOrEqual(after.label.length);
    }
  });

  it('narrows to one branch, finds nothing in an unknown one and everything offered without one', async () => {
    const topics = await search('q=biology&branch=topic');
    expect(topics.total).toBeGreaterThan(0);
    for (const hit of topics.items as Hit[]) {
      expect(hit.branch).toBe('topic');
      expect(core.reference.index.hasClass(hit.iri, `${REG}ResearchTopic`)).toBe(true);
    }
    const keyword = await search('q=rml&branch=keyword');
    expect(keyword.items).toEqual([
      expect.objectContaining({ iri: `${BASE}/keyword/mappings`, branch: 'keyword', score: 0.3 }),
    ]);
    const licence = await search('q=apache-2.0&branch=license');
    expect(licence.items[0]).toMatchObject({
      iri: 'https://spdx.org/licenses/Apache-2.0',
      score: 1,
      branch: 'license',
    });
    const legacy = await search('q=bioinformatics&branch=topic-edam');
    expect(legacy.total).toBeGreaterThan(0);
    expect(
      legacy.items.every((hit: Hit) => core.reference.index.hasClass(hit.iri, `${REG}LegacyTopic`)),
    ).toBe(true);
    expect(await search('q=data&branch=nonsense')).toEqual({ items: [], total: 0 });
    const all = await search('q=data&limit=100');
    expect(new Set(all.items.map((hit: Hit) => hit.branch))).toEqual(new Set(['data', 'topic', 'license']));
    // Legacy topics are offered only when asked for by name.
    expect(
      (await search('q=bioinformatics&limit=100')).items.some((hit: Hit) => hit.branch === 'topic-edam'),
    ).toBe(false);
  });

  it('leaves retired terms out and never names a vocabulary', async () => {
    const retired = core.reference.index
      .retiredTerms()
      .find((term) => term.classes.includes(`${REG}ArtifactType`) && term.label !== undefined)!;
    const hits = await search(`q=${encodeURIComponent(retired.label!)}&branch=data&limit=100`);
    expect(hits.items.map((hit: Hit) => hit.iri)).not.toContain(retired.iri);
    const gpl = await search('q=GPL-2.0&branch=license&limit=100');
    expect(gpl.items.map((hit: Hit) => hit.iri)).not.toContain('https://spdx.org/licenses/GPL-2.0');
    expect(gpl.items.map((hit: Hit) => hit.iri)).toContain('https://spdx.org/licenses/GPL-2.0-only');
    const all = await search('q=data&limit=100');
    for (const hit of all.items as Hit[]) expect(['bundled', 'local', 'external']).toContain(hit.source);
  });

  it('ignores queries under two characters and clamps limit to 1–100', async () => {
    expect(await search('q=d')).toEqual({ items: [], total: 0 });
    expect(await search('q=%20d%20')).toEqual({ items: [], total: 0 });
    expect(await search('branch=data')).toEqual({ items: [], total: 0 });
    const byDefault = await search('q=data');
    expect(byDefault.items).toHaveLength(20);
    expect(byDefault.total).toBeGreaterThan(100);
    expect((await search('q=data&limit=500')).items).toHaveLength(100);
    expect((await search('q=data&limit=0')).items).toHaveLength(1);
    expect((await app.request('/api/v1/vocab/search?q=data&limit=many')).status).toBe(400);
  });

  it('finds types minted and adopted here, with their source', async () => {
    await send('POST', '/api/v1/types', { label: 'Zebrafish image stack', slug: 'zebrafish-stack' });
    await send('POST', '/api/v1/types', {
      label: 'Morphant',
      iri: 'https://example.org/zfin/Morphant',
      aliases: ['zebrafish knockdown'],
    });
    const { items } = await search('q=zebrafish&branch=data');
    expect(items).toEqual([
      expect.objectContaining({ iri: `${BASE}/type/zebrafish-stack`, source: 'local', score: 0.8 }),
      expect.objectContaining({ iri: 'https://example.org/zfin/Morphant', source: 'external', score: 0.3 }),
    ]);
  });

  it('answers a bundled search well under 5 ms', async () => {
    await searchVocabulary(core, { q: 'warm' });
    const times: number[] = [];
    for (let i = 0; i < 50; i++) {
      const start = performance.now();
      await searchVocabulary(core, { q: 'sequence' });
      times.push(performance.now() - start);
    }
    times.sort((a, b) => a - b);
    expect(times[25]).toBeLessThan(5);
  });
});

describe('resolving terms', () => {
  it('describes each IRI in order with label, definition and source', async () => {
    const minted = await json(
      await send('POST', '/api/v1/types', {
        label: 'Resolved kind',
        slug: 'resolved-kind',
        definition: 'Resolved.',
      }),
    );
    const unknown = 'https://example.org/unknown/term';
    const response = await app.request(
      `/api/v1/vocab/resolve?iris=${[TABULAR, minted.iri, unknown].map(encodeURIComponent).join(',')}`,
    );
    expect(response.status).toBe(200);
    expect(await json(response)).toEqual([
      {
        iri: TABULAR,
        label: 'Tabular dataset',
        definition: expect.stringContaining('rows'),
        source: 'bundled',
      },
      { iri: minted.iri, label: 'Resolved kind', definition: 'Resolved.', source: 'local' },
      { iri: unknown, source: 'external' },
    ]);
  });

  it('takes at most 100 IRIs and only absolute ones', async () => {
    const many = Array.from({ length: 101 }, (_, i) => `https://example.org/t/${i}`).join(',');
    expect((await app.request(`/api/v1/vocab/resolve?iris=${many}`)).status).toBe(400);
    const hundred = Array.from({ length: 100 }, (_, i) => `https://example.org/t/${i}`).join(',');
    expect(await json(await app.request(`/api/v1/vocab/resolve?iris=${hundred}`))).toHaveLength(100);
    expect((await app.request('/api/v1/vocab/resolve?iris=not-an-iri')).status).toBe(400);
    expect(await json(await app.request('/api/v1/vocab/resolve'))).toEqual([]);
  });
});

describe('keywords', () => {
  it('lists the seven keyword entries with their concept IRIs', async () => {
    const body = await json(await app.request('/api/v1/keywords'));
    expect(body.scheme).toBe(`${BASE}/scheme/artifact-keywords`);
    expect(body.total).toBe(7);
    expect(body.items.map((item: { slug: string }) => item.slug)).toEqual([
      'embeddings',
      'owl',
      'rdf-graphs',
      'shacl',
      'shex',
      'mappings',
      'sparql-query',
    ]);
    expect(body.items[2]).toEqual({
      iri: `${BASE}/keyword/rdf-graphs`,
      slug: 'rdf-graphs',
      label: 'RDF Graphs',
      definition: expect.any(String),
      aliases: ['rdf graph', 'rdf', 'rdf data', 'rdf dataset', 'triples', 'quads'],
    });
    expect(typeof body.note).toBe('string');
  });
});

describe('licences', () => {
  const LAB = 'https://example.org/licences/lab-licence-1.0';

  it('adopting a licence makes a software citing it acceptable', async () => {
    const software = { name: 'lab-tool', license: LAB };
    const before = await send('POST', '/api/v1/software', software);
    expect(before.status).toBe(422);
    expect((await json(before)).errors).toEqual([expect.objectContaining({ field: 'license' })]);

    const adopted = await send('POST', '/api/v1/licenses', { iri: LAB, label: 'Lab Licence 1.0' });
    expect(adopted.status).toBe(201);
    expect(await json(adopted)).toEqual({
      iri: LAB,
      id: 'lab-licence-1.0',
      label: 'Lab Licence 1.0',
      source: 'external',
      adopted: true,
    });

    const after = await send('POST', '/api/v1/software', software);
    expect(after.status).toBe(201);
    expect((await json(after)).license_label).toBe('Lab Licence 1.0');
    const found = await json(await app.request('/api/v1/licenses?q=lab%20licence'));
    expect(found.items[0]).toMatchObject({ iri: LAB, source: 'external', score: 0.8 });
    const inSearch = await search('q=lab%20licence&branch=license');
    expect(inSearch.items[0]).toMatchObject({ iri: LAB, branch: 'license' });
  });

  it('lists current SPDX licences, searchable by id, and leaves deprecated ones out', async () => {
    const all = await json(await app.request('/api/v1/licenses?limit=1000'));
    const iris = all.items.map((item: { iri: string }) => item.iri);
    expect(iris).toContain('https://spdx.org/licenses/MIT');
    expect(iris).not.toContain('https://spdx.org/licenses/GPL-2.0');
    expect(all.total).toBe(all.items.length);
    const mit = await json(await app.request('/api/v1/licenses?q=mit&limit=3'));
    expect(mit.items[0]).toEqual({
      iri: 'https://spdx.org/licenses/MIT',
      id: 'MIT',
      label: 'MIT License',
      source: 'bundled',
      score: 1,
    });
    expect(mit.items).toHaveLength(3);
    expect(mit.total).toBeGreaterThan(3);
  });

  it('refuses a bad IRI, an empty label, a term of another kind, and callers without a credential', async () => {
    expect((await send('POST', '/api/v1/licenses', { iri: 'lab licence', label: 'Lab' })).status).toBe(400);
    expect(
      (await send('POST', '/api/v1/licenses', { iri: 'https://example.org/l/2', label: ' ' })).status,
    ).toBe(400);
    const topic = core.reference.index.termsOfClass(`${REG}ResearchTopic`)[0]!.iri;
    expect((await send('POST', '/api/v1/licenses', { iri: topic, label: 'Topic' })).status).toBe(409);
    expect(
      (await send('POST', '/api/v1/licenses', { iri: 'https://spdx.org/licenses/MIT', label: 'MIT' })).status,
    ).toBe(409);
    const anonymous = await app.request('/api/v1/licenses', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ iri: 'https://example.org/l/3', label: 'Three' }),
    });
    expect(anonymous.status).toBe(401);
  });
});
