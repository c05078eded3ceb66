/**
 * Builds the reference bundles: the graphs of reference data (shapes, the registry's own terms, EDAM,
 * EuroSciVoc, SPDX licences, the keyword list) that are compiled in and reloaded at every start. Each bundle
 * is canonical, sorted N-Triples with a digest, so a store reloads a bundle only when its digest changed.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { GRAPHS } from '../ns.js';
import { edamLines } from './edam-bundle.js';
import { euroscivocLines } from './euroscivoc-bundle.js';
import { keywordLines } from './keyword-bundle.js';
import { joinSortedLines } from './ntriples.js';
import { DEFAULT_CACHE_DIR, readCachedBundle, writeBundleCache } from './bundle-cache.js';
import { spdxLines } from './spdx-bundle.js';
import { readTsv } from './tsv.js';
import { turtleLines } from './turtle-bundle.js';

/** Version of the bundle layout; part of every digest, so changing how bundles are built reloads them all. */
export const BUNDLE_LAYOUT_VERSION = 'reg-bundle-layout/1';

/** Names of the bundles, which are also the keys of their graphs in `GRAPHS`. */
export type BundleName = 'shapes' | 'vocab' | 'edam' | 'euroscivoc' | 'spdx' | 'keywords';

/** One bundle graph, ready to be loaded with `to_graph_name: graph`. */
export interface Bundle {
  readonly name: BundleName;
  /** Named graph the bundle is loaded into. */
  readonly graph: string;
  /** File the bundle is built from (recorded as dct:title in the catalogue). */
  readonly source: string;
  /** Sorted, de-duplicated canonical N-Triples, one triple per line, ending in a newline. */
  readonly ntriples: string;
  readonly tripleCount: number;
  /** Hex SHA-256 over the layout version, name, graph, base IRI and content. */
  readonly digest: string;
}

/** Options of `buildBundles`; tests use `root` to build from another copy of the package files. */
export interface BuildBundlesOptions {
  /** Package root holding `shapes/` and `vocab/` (default: this package's root). */
  readonly root?: URL;
  /** Build-time cache of the base-independent bundles (default: `dist/bundles/`); `null` disables it. */
  readonly cache?: URL | null;
}

/** File name the keyword bundle records as its source: the list lives in code, not in a file of its own. */
export const KEYWORD_BUNDLE_SOURCE = 'artifact-keywords';

/** Builds every bundle for one base IRI, deterministically: the same inputs give byte-identical bundles. */
export function buildBundles(baseIri: string, options: BuildBundlesOptions = {}): Bundle[] {
  const base = baseIri.replace(/\/+$/, '');
  if (!/^https?:\/\/[^/]/.test(base)) throw new Error(`base IRI must be an http(s) URL, got ${JSON.stringify(baseIri)}`);
  // The same relative depth reaches the package root from src/core/vocab and from dist/core/vocab.
  const root = options.root ?? new URL('../../../', import.meta.url);
  const read = (path: string): string => readFileSync(new URL(path, root), 'utf8');

  const cache = options.cache === undefined ? DEFAULT_CACHE_DIR : options.cache;
  return bundleSpecs(read, base).map(({ name, source, sourceText, lines }) => {
    const graph = GRAPHS[name];
    const cached = cache === null || sourceText === undefined ? undefined : readCachedBundle(cache, BUNDLE_LAYOUT_VERSION, name, sourceText());
    const { text, count } = cached === undefined ? joinSortedLines(lines()) : { text: cached, count: countLines(cached) };
    return Object.freeze({
      name,
      graph,
      source,
      ntriples: text,
      tripleCount: count,
      digest: bundleDigest(name, graph, base, text),
    });
  });
}

interface BundleSpec {
  readonly name: BundleName;
  readonly source: string;
  /** The text the bundle is built from, for bundles that do not depend on the base IRI (and so can be cached). */
  readonly sourceText?: () => string;
  readonly lines: () => string[];
}

function bundleSpecs(read: (path: string) => string, base: string): BundleSpec[] {
  const fromFile = (name: BundleName, path: string, build: (text: string) => string[]): BundleSpec => {
    const file = path.slice(path.lastIndexOf('/') + 1);
    let text: string | undefined;
    const sourceText = (): string => (text ??= read(path));
    return { name, source: file, sourceText, lines: () => build(sourceText()) };
  };
  return [
    fromFile('shapes', 'shapes/registry-shapes.ttl', (text) => turtleLines(text, 'shapes', 'registry-shapes.ttl')),
    fromFile('vocab', 'shapes/vocab.ttl', (text) => turtleLines(text, 'vocab', 'vocab.ttl')),
    fromFile('edam', 'vocab/edam.tsv', (text) => edamLines(readTsv(text, 'edam.tsv'))),
    fromFile('euroscivoc', 'vocab/euroscivoc.tsv', (text) => euroscivocLines(readTsv(text, 'euroscivoc.tsv'))),
    fromFile('spdx', 'vocab/spdx-licenses.tsv', (text) => spdxLines(readTsv(text, 'spdx-licenses.tsv'))),
    { name: 'keywords', source: KEYWORD_BUNDLE_SOURCE, lines: () => keywordLines(base) },
  ];
}

/** Builds the base-independent bundles from source and writes them to the build-time cache. */
export function writeBundlesCache(dir: URL = DEFAULT_CACHE_DIR, root: URL = new URL('../../../', import.meta.url)): number {
  const read = (path: string): string => readFileSync(new URL(path, root), 'utf8');
  const entries = bundleSpecs(read, 'http://cache.invalid').flatMap((spec) =>
    spec.sourceText === undefined ? [] : [{ name: spec.name, sourceText: spec.sourceText(), ntriples: joinSortedLines(spec.lines()).text }],
  );
  writeBundleCache(dir, BUNDLE_LAYOUT_VERSION, entries);
  return entries.length;
}

function countLines(text: string): number {
  let count = 0;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) count++;
  return count;
}

/** Computes a bundle digest; exported so that a loader can recompute it for content it holds. */
export function bundleDigest(name: string, graph: string, baseIri: string, ntriples: string): string {
  const hash = createHash('sha256');
  // Separators keep field boundaries unambiguous, so no two inputs can collide by shifting text between fields.
  for (const part of [BUNDLE_LAYOUT_VERSION, name, graph, baseIri.replace(/\/+$/, '')]) hash.update(`${part}\n`);
  hash.update(ntriples);
  return hash.digest('hex');
}
