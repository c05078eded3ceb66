import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Parser } from 'n3';
import * as ox from 'oxigraph';
import { describe, expect, it } from 'vitest';
import { GRAPHS } from '../../src/core/ns.js';
import { buildBundles, bundleDigest, writeBundlesCache, type Bundle } from '../../src/core/vocab/bundles.js';
import { catalogueNTriples, parseCatalogue } from '../../src/core/vocab/catalogue.js';

const BASE = 'https://reg.example.org';

function byName(bundles: Bundle[]): Record<string, Bundle> {
  return Object.fromEntries(bundles.map((b) => [b.name, b]));
}

describe('buildBundles', () => {
  it('is deterministic: two builds are byte-identical', () => {
    const first = buildBundles(BASE);
    const second = buildBundles(`${BASE}/`);
    expect(second).toEqual(first);
    expect(first.map((b) => b.ntriples).join('')).toBe(second.map((b) => b.ntriples).join(''));
  });

  it('builds the six bundle graphs with their sources', () => {
    const bundles = buildBundles(BASE);
    expect(bundles.map((b) => [b.name, b.graph, b.source])).toEqual([
      ['shapes', GRAPHS.shapes, 'registry-shapes.ttl'],
      ['vocab', GRAPHS.vocab, 'vocab.ttl'],
      ['edam', GRAPHS.edam, 'edam.tsv'],
      ['euroscivoc', GRAPHS.euroscivoc, 'euroscivoc.tsv'],
      ['spdx', GRAPHS.spdx, 'spdx-licenses.tsv'],
      ['keywords', GRAPHS.keywords, 'artifact-keywords'],
    ]);
    for (const bundle of bundles) expect(bundle.digest).toMatch(/^[0-9a-f]{64}$/);
  });

  it('changes every digest when the base IRI changes, and only the keyword content', () => {
    const a = byName(buildBundles(BASE));
    const b = byName(buildBundles('https://other.example.org'));
    for (const name of Object.keys(a)) {
      expect(b[name]?.digest, name).not.toBe(a[name]?.digest);
      if (name !== 'keywords') expect(b[name]?.ntriples, name).toBe(a[name]?.ntriples);
    }
    expect(b.keywords?.ntriples).toContain('<https://other.example.org/keyword/shacl>');
    expect(a.keywords?.ntriples).not.toContain('other.example.org');
    expect(bundleDigest('edam', GRAPHS.edam, BASE, a.edam?.ntriples ?? '')).toBe(a.edam?.digest);
  });

  it('writes sorted, unique lines whose count is the triple count', () => {
    for (const bundle of buildBundles(BASE)) {
      const lines = bundle.ntriples.split('\n');
      expect(lines.pop(), bundle.name).toBe('');
      expect(lines.length, bundle.name).toBe(bundle.tripleCount);
      expect([...lines].sort(), bundle.name).toEqual(lines);
      expect(new Set(lines).size, bundle.name).toBe(lines.length);
      const parsed = new Parser({ format: 'N-Triples' }).parse(bundle.ntriples);
      expect(parsed.length, bundle.name).toBe(bundle.tripleCount);
    }
  });

  it('labels blank nodes per bundle, so no label is shared between bundles', () => {
    const bundles = buildBundles(BASE);
    const labelsOf = (b: Bundle) => new Set(b.ntriples.match(/_:[A-Za-z0-9_]+/g) ?? []);
    const shapes = labelsOf(bundles[0] as Bundle);
    expect(shapes.size).toBeGreaterThan(100);
    for (const label of shapes) expect(label).toMatch(/^_:shapes_b\d+$/);
    for (const bundle of bundles.slice(1)) {
      for (const label of labelsOf(bundle)) expect(label.startsWith(`_:${bundle.name}_b`), label).toBe(true);
    }
  });

  it('has the expected triple counts per bundle', () => {
    const counts = Object.fromEntries(buildBundles(BASE).map((b) => [b.name, b.tripleCount]));
    console.info('bundle triple counts', counts);
    expect(counts.keywords).toBe(88);
    expect(counts.edam).toBeGreaterThan(12000);
    expect(counts.euroscivoc).toBeGreaterThan(9000);
    expect(counts.spdx).toBeGreaterThan(5000);
  });

  it('builds the same bundles again, digests included', () => {
    const first = buildBundles(BASE);
    const again = buildBundles(BASE);
    expect(again.map((bundle) => [bundle.graph, bundle.digest, bundle.tripleCount])).toEqual(
      first.map((bundle) => [bundle.graph, bundle.digest, bundle.tripleCount]),
    );
  });

  it('loads into oxigraph with each bundle in its own graph', () => {
    const bundles = buildBundles(BASE);
    const store = new ox.Store();
    for (const bundle of bundles) {
      store.load(bundle.ntriples, {
        format: 'application/n-triples',
        to_graph_name: ox.namedNode(bundle.graph),
      });
    }
    expect(store.size).toBe(bundles.reduce((sum, b) => sum + b.tripleCount, 0));
    expect(store.match(null, null, null, ox.namedNode(GRAPHS.keywords)).length).toBe(88);
  });

  it('reads from another package root, and a changed file changes only its digest', () => {
    const root = mkdtempSync(join(tmpdir(), 'reg-bundles-'));
    try {
      const here = new URL('../../', import.meta.url);
      cpSync(new URL('shapes', here), join(root, 'shapes'), { recursive: true });
      cpSync(new URL('vocab', here), join(root, 'vocab'), { recursive: true });
      const vocabFile = join(root, 'shapes', 'vocab.ttl');
      writeFileSync(vocabFile, `${readFileSync(vocabFile, 'utf8')}\n<urn:x:a> <urn:x:b> "c" .\n`);
      const rootUrl = pathToFileURL(`${root}/`);
      const original = byName(buildBundles(BASE));
      const changed = byName(buildBundles(BASE, { root: rootUrl }));
      expect(changed.vocab?.digest).not.toBe(original.vocab?.digest);
      expect(changed.vocab?.tripleCount).toBe((original.vocab?.tripleCount ?? 0) + 1);
      expect(changed.edam?.digest).toBe(original.edam?.digest);
      writeFileSync(join(root, 'shapes', 'registry-shapes.ttl'), '<urn:x:a> <urn:x:b');
      expect(() => buildBundles(BASE, { root: rootUrl })).toThrow(/registry-shapes\.ttl does not parse/);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('refuses a base IRI that is not an http(s) URL', () => {
    expect(() => buildBundles('urn:reg:x')).toThrow(/base IRI/);
    expect(() => buildBundles('')).toThrow(/base IRI/);
  });
});

describe('bundle catalogue', () => {
  it('describes a bundle and reads digest and load time back', () => {
    const bundles = buildBundles(BASE);
    const loadedAt = '2026-11-21T06:00:00.000Z';
    const text = bundles.map((b) => catalogueNTriples(b, loadedAt)).join('');
    const edam = bundles.find((b) => b.name === 'edam') as Bundle;
    const edamText = catalogueNTriples(edam, loadedAt);
    expect(edamText).toContain(`<${GRAPHS.edam}> <http://purl.org/dc/terms/title> "edam.tsv" .`);
    expect(edamText).toContain(
      `<${GRAPHS.edam}#checksum> <http://spdx.org/rdf/terms#checksumValue> "${edam.digest}" .`,
    );
    expect(edamText).toContain('<http://spdx.org/rdf/terms#checksumAlgorithm_sha256>');
    expect(edamText.split('\n').filter(Boolean)).toHaveLength(8);

    const entries = parseCatalogue(text);
    expect(entries.size).toBe(6);
    for (const bundle of bundles) {
      expect(entries.get(bundle.graph)).toEqual({
        graph: bundle.graph,
        digest: bundle.digest,
        loadedAt,
        source: bundle.source,
        tripleCount: bundle.tripleCount,
      });
    }
  });

  it('reads a catalogue dumped by oxigraph as N-Quads', () => {
    const bundle = buildBundles(BASE)[0] as Bundle;
    const store = new ox.Store();
    store.load(catalogueNTriples(bundle, '2026-11-21T06:00:00Z'), {
      format: 'application/n-triples',
      to_graph_name: ox.namedNode(GRAPHS.catalogue),
    });
    const dumped = store.dump({ format: 'application/n-quads' });
    expect(parseCatalogue(dumped).get(bundle.graph)?.digest).toBe(bundle.digest);
  });

  it('leaves out nodes without a digest and refuses a bad timestamp', () => {
    const bundle = buildBundles(BASE)[1] as Bundle;
    const text = catalogueNTriples(bundle, '2026-11-21T06:00:00Z')
      .split('\n')
      .filter((line) => !line.includes('checksumValue'))
      .join('\n');
    expect(parseCatalogue(text).size).toBe(0);
    expect(() => catalogueNTriples(bundle, 'yesterday')).toThrow(/ISO timestamp/);
  });
});

describe('build-time bundle cache', () => {
  it('gives byte-identical bundles, and is ignored once its source changed', () => {
    const dir = pathToFileURL(`${mkdtempSync(join(tmpdir(), 'reg-cache-'))}/`);
    expect(writeBundlesCache(dir)).toBe(5);
    const fresh = buildBundles('http://cache.test', { cache: null });
    const cached = buildBundles('http://cache.test', { cache: dir });
    expect(cached).toEqual(fresh);
    // A cache entry whose source digest no longer matches is not used.
    const indexFile = new URL('index.json', dir);
    const index = JSON.parse(readFileSync(indexFile, 'utf8')) as { sources: Record<string, string> };
    index.sources.edam = '0'.repeat(64);
    writeFileSync(indexFile, JSON.stringify(index));
    writeFileSync(new URL('edam.nt', dir), '<http://stale.test/x> <http://stale.test/p> "stale" .\n');
    const edam = buildBundles('http://cache.test', { cache: dir }).find((bundle) => bundle.name === 'edam');
    expect(edam?.ntriples).toBe(fresh.find((bundle) => bundle.name === 'edam')?.ntriples);
  });
});
