/**
 * A build-time cache of the bundles that do not depend on the base IRI. Parsing the Turtle and TSV sources
 * takes about 100 ms at every start; the cache holds the resulting N-Triples next to the SHA-256 of the
 * source each came from, and is used only while that source is unchanged.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';

/** Where `npm run build` writes the cache: `dist/bundles/` (from `dist/core/vocab`, two levels up). */
export const DEFAULT_CACHE_DIR = new URL('../../bundles/', import.meta.url);

interface CacheIndex {
  readonly layout: string;
  readonly sources: Record<string, string>;
}

/** Hex SHA-256 of a source text. */
export function sourceDigest(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** Reads the cached N-Triples of bundle `name` when they were built from exactly `sourceText` with `layout`. */
export function readCachedBundle(dir: URL, layout: string, name: string, sourceText: string): string | undefined {
  const indexFile = new URL('index.json', dir);
  if (!existsSync(indexFile)) return undefined;
  const index = JSON.parse(readFileSync(indexFile, 'utf8')) as CacheIndex;
  if (index.layout !== layout || index.sources[name] !== sourceDigest(sourceText)) return undefined;
  const file = new URL(`${name}.nt`, dir);
  return existsSync(file) ? readFileSync(file, 'utf8') : undefined;
}

/** Writes the cache: each bundle's N-Triples and the digest of the source it was built from. */
export function writeBundleCache(
  dir: URL,
  layout: string,
  entries: readonly { name: string; sourceText: string; ntriples: string }[],
): void {
  mkdirSync(dir, { recursive: true });
  const sources: Record<string, string> = {};
  for (const entry of entries) {
    writeFileSync(new URL(`${entry.name}.nt`, dir), entry.ntriples);
    sources[entry.name] = sourceDigest(entry.sourceText);
  }
  writeFileSync(new URL('index.json', dir), `${JSON.stringify({ layout, sources } satisfies CacheIndex, null, 2)}\n`);
}
