/**
 * Finding what the registry already holds with the content an attestation names: artifacts whose distributions
 * carry one of its digests (by their RFC 6920 names), and releases whose container image has its SHA-256 digest.
 */
import { DCAT, GRAPHS, PROV, REG } from '../ns.js';
import { ARTIFACT } from '../records/activity-specs.js';
import { contentIdentifier, digestBytes, foldAlgorithm, spdxAlgorithmIri } from '../records/content-id.js';
import type { JsonObject } from '../records/mapper.js';
import type { Core } from '../core.js';
import type { NamedArtifact } from './attestation-map.js';

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

/** The RFC 6920 names of a DigestSet's digests. */
function contentNames(digest: Readonly<Record<string, string>>): string[] {
  return Object.entries(digest)
    .map(([algorithm, hex]) => contentIdentifier(algorithm, Buffer.from(hex, 'hex')))
    .filter((name): name is string => name !== undefined);
}

/** The artifacts of this registry with a distribution of the named content, by IRI. */
export async function artifactsWithContent(core: Core, named: NamedArtifact): Promise<string[]> {
  const names = contentNames(named.digest);
  if (names.length === 0) return [];
  const prefix = `${core.config.baseIri}/${ARTIFACT.path}/`;
  const rows = await core.graph.select(`SELECT DISTINCT ?a WHERE {
      GRAPH <${GRAPHS.local}> {
        VALUES ?name { ${names.map((name) => `<${name}>`).join(' ')} }
        ?a <${DCAT('distribution')}> ?d . ?d <${PROV('specializationOf')}> ?name .
        FILTER NOT EXISTS { ?a <${REG('tombstoned')}> true }
        FILTER(STRSTARTS(STR(?a), ${JSON.stringify(prefix)}))
      }
    } ORDER BY ?a`);
  return rows.map((row) => row.a?.value).filter((iri): iri is string => iri !== undefined);
}

/** The releases whose container image has the named content's SHA-256 digest (`image_digest`). */
export async function releasesWithImage(core: Core, named: NamedArtifact): Promise<string[]> {
  const hex = Object.entries(named.digest).find(([algorithm]) => foldAlgorithm(algorithm) === 'sha256')?.[1];
  if (hex === undefined) return [];
  const rows = await core.graph.select(`SELECT DISTINCT ?r WHERE {
      GRAPH <${GRAPHS.local}> { ?r <${REG('imageDigest')}> ?digest . }
      FILTER(LCASE(STR(?digest)) = "sha256:${hex}")
    } ORDER BY ?r`);
  return rows.map((row) => row.r?.value).filter((iri): iri is string => iri !== undefined);
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
