/**
 * Finding what the registry already holds with the content an attestation names, by any of its names (the one
 * content lookup of `identify.ts`): artifacts whose distributions carry one of its digests, and releases whose
 * container image or recorded source it is.
 */
import { GRAPHS } from '../ns.js';
import { digestBytes, digestSetName, foldAlgorithm, spdxAlgorithmIri } from '../records/content-id.js';
import type { JsonObject } from '../records/mapper.js';
import type { Core } from '../core.js';
import type { NamedArtifact } from './attestation-map.js';
import { findByContent, type ContentMatch } from './identify.js';

/** Algorithms in the order a digest is preferred as an artifact's checksum. */
const PREFERRED = ['sha256', 'sha512', 'sha384'];

/** The digests of a DigestSet the registry can record as checksums, preferred first. */
export function checksumsOf(
  digest: Readonly<Record<string, string>>,
): { algorithm: string; value: string }[] {
  const known = Object.entries(digest).filter(
    ([algorithm, hex]) =>
      spdxAlgorithmIri(algorithm) !== undefined && digestBytes(algorithm) === hex.length / 2,
  );
  const rank = (algorithm: string) => {
    const at = PREFERRED.indexOf(foldAlgorithm(algorithm));
    return at < 0 ? PREFERRED.length : at;
  };
  return known.sort(([a], [b]) => rank(a) - rank(b)).map(([algorithm, value]) => ({ algorithm, value }));
}

/** What this registry's own records hold of the named content (`findByContent`, peers' copies left out). */
async function heldHere(core: Core, named: NamedArtifact): Promise<ContentMatch[]> {
  const name = digestSetName(named.digest);
  if (name === undefined) return [];
  return (await findByContent(core, name)).filter((match) => match.graph === GRAPHS.local);
}

/** The artifacts of this registry with a distribution of the named content (by checksum or SWHID), by IRI. */
export async function artifactsWithContent(core: Core, named: NamedArtifact): Promise<string[]> {
  const held = await heldHere(core, named);
  const artifacts = held.filter((match) => match.kind === 'distribution').map((match) => match.record);
  return [...new Set(artifacts)].sort();
}

/** The releases whose container image (`image_digest`) or recorded source (`swhids`) is the named content. */
export async function releasesWithImage(core: Core, named: NamedArtifact): Promise<string[]> {
  const held = await heldHere(core, named);
  return [...new Set(held.filter((match) => match.kind === 'release').map((match) => match.record))].sort();
}

/**
 * An artifact as advertised for something an attestation names: its name or URI as title, the URI as its source
 * when it is an IRI, each recordable digest as a checksum of a distribution known by its content only, and a key
 * made of the URI or name and every digest, so that naming it again finds the same artifact.
 */
export function advertisedArtifact(named: NamedArtifact, role: 'subject' | 'dependency'): JsonObject {
  const label = named.name ?? named.uri ?? '';
  const digests = Object.entries(named.digest)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([algorithm, hex]) => `${algorithm}:${hex}`);
  return {
    title: label,
    external_key: `attested-${role}:${named.uri ?? named.name ?? ''}@${digests.join(',')}`,
    ...(named.uri !== undefined && /^[A-Za-z][A-Za-z0-9+.-]*:\S+$/.test(named.uri)
      ? { source: named.uri }
      : {}),
    distributions: checksumsOf(named.digest).map((checksum) => ({
      title: label,
      availability: 'metadata-only',
      checksum,
    })),
  };
}
