/**
 * The bundle catalogue: one node per bundle graph in `GRAPHS.catalogue` recording its source, size, load time
 * and digest. At start-up the stored digests are compared with freshly built ones, and only bundles whose
 * digest differs are reloaded, so a warm start writes nothing.
 */
import { Parser } from 'n3';
import { DCT, RDF, SPDX, VOID } from '../ns.js';
import type { Bundle } from './bundles.js';
import { T } from './bundle-terms.js';
import { joinSortedLines, ntInteger, ntIri, ntLine, ntLiteral } from './ntriples.js';

/** What the catalogue graph records about one bundle graph. */
export interface CatalogueEntry {
  /** The bundle graph IRI (the subject of the catalogue node). */
  readonly graph: string;
  /** Hex SHA-256 digest the bundle had when it was loaded. */
  readonly digest: string;
  /** When the bundle was loaded (xsd:dateTime lexical form). */
  readonly loadedAt: string;
  readonly source?: string;
  readonly tripleCount?: number;
}

/** IRI of the checksum node of a bundle graph; an IRI rather than a blank node so reloading never duplicates it. */
export function catalogueChecksumIri(graph: string): string {
  return `${graph}#checksum`;
}

/** N-Triples (for graph `GRAPHS.catalogue`) describing one loaded bundle: VoID dataset, title, size, time, digest. */
export function catalogueNTriples(bundle: Bundle, loadedAtIso: string): string {
  if (Number.isNaN(Date.parse(loadedAtIso))) throw new Error(`loadedAt is not an ISO timestamp: ${loadedAtIso}`);
  const s = ntIri(bundle.graph);
  const checksum = ntIri(catalogueChecksumIri(bundle.graph));
  return joinSortedLines([
    ntLine(s, T.type, T.voidDataset),
    ntLine(s, T.title, ntLiteral(bundle.source)),
    ntLine(s, T.voidTriples, ntInteger(bundle.tripleCount)),
    ntLine(s, T.modified, ntLiteral(loadedAtIso, T.dateTime)),
    ntLine(s, T.checksum, checksum),
    ntLine(checksum, T.type, T.checksumClass),
    ntLine(checksum, T.algorithm, T.sha256),
    ntLine(checksum, T.checksumValue, ntLiteral(bundle.digest)),
  ]).text;
}

/** Reads catalogue entries, keyed by bundle graph IRI, back from N-Triples or N-Quads of the catalogue graph. */
export function parseCatalogue(text: string): Map<string, CatalogueEntry> {
  // Nodes without both a digest and a load time are left out: such a bundle must be reloaded anyway.
  const quads = new Parser({ format: 'application/n-quads' }).parse(text);
  const checksumOf = new Map<string, string>();
  const valueOf = new Map<string, string>();
  const drafts = new Map<string, { loadedAt?: string; source?: string; tripleCount?: number }>();
  const draft = (graph: string) => {
    let found = drafts.get(graph);
    if (found === undefined) {
      found = {};
      drafts.set(graph, found);
    }
    return found;
  };
  for (const { subject, predicate, object } of quads) {
    const p = predicate.value;
    if (p === SPDX('checksum')) checksumOf.set(subject.value, object.value);
    else if (p === SPDX('checksumValue')) valueOf.set(subject.value, object.value);
    else if (p === DCT('modified')) draft(subject.value).loadedAt = object.value;
    else if (p === DCT('title')) draft(subject.value).source = object.value;
    else if (p === VOID('triples')) draft(subject.value).tripleCount = Number(object.value);
    else if (p === RDF('type') && object.value === VOID('Dataset')) draft(subject.value);
  }
  const entries = new Map<string, CatalogueEntry>();
  for (const [graph, found] of drafts) {
    const checksumNode = checksumOf.get(graph);
    const digest = checksumNode === undefined ? undefined : valueOf.get(checksumNode);
    if (digest === undefined || found.loadedAt === undefined) continue;
    entries.set(graph, {
      graph,
      digest,
      loadedAt: found.loadedAt,
      ...(found.source === undefined ? {} : { source: found.source }),
      ...(found.tripleCount === undefined || Number.isNaN(found.tripleCount) ? {} : { tripleCount: found.tripleCount }),
    });
  }
  return entries;
}
