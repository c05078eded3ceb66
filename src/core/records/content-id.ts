import { SPDX } from '../ns.js';

/** Hash algorithms whose digests yield an RFC 6920 name, with their digest length in bytes. */
export const NAMING_ALGORITHMS: Readonly<Record<string, { readonly ni: string; readonly bytes: number }>> = {
  sha256: { ni: 'sha-256', bytes: 32 },
  sha384: { ni: 'sha-384', bytes: 48 },
  sha512: { ni: 'sha-512', bytes: 64 },
};

/** Digest lengths in bytes of algorithms that are recorded but yield no name (too weak or not in RFC 6920's registry). */
const OTHER_ALGORITHMS: Readonly<Record<string, number>> = {
  md2: 16,
  md4: 16,
  md5: 16,
  sha1: 20,
  sha224: 28,
  sha3256: 32,
  sha3384: 48,
  sha3512: 64,
  blake2b256: 32,
  blake2b384: 48,
  blake2b512: 64,
  blake3: 32,
};

/** An algorithm name folded for comparison: `SHA-256`, `sha256` and `sha_256` are one. */
export function foldAlgorithm(name: string): string {
  return name
    .toLowerCase()
    .replace(/[-_\s]/g, '')
    .replace(/^sha2(?=\d{3}$)/, 'sha');
}

/** The expected digest length in bytes of a known algorithm, or undefined for an unknown one. */
export function digestBytes(algorithm: string): number | undefined {
  const folded = foldAlgorithm(algorithm);
  return NAMING_ALGORITHMS[folded]?.bytes ?? OTHER_ALGORITHMS[folded];
}

/** The SPDX checksum-algorithm IRI of an algorithm name (`sha256` → spdx:checksumAlgorithm_sha256). */
export function spdxAlgorithmIri(algorithm: string): string | undefined {
  const folded = foldAlgorithm(algorithm);
  if (digestBytes(folded) === undefined) return undefined;
  const local = folded.startsWith('sha3') ? `sha3_${folded.slice(4)}` : folded;
  return SPDX(`checksumAlgorithm_${local}`);
}

/** The algorithm name of an SPDX checksum-algorithm IRI (`…checksumAlgorithm_sha3_256` → `sha3-256`). */
export function algorithmOfIri(iri: string): string {
  const local = iri.slice(iri.lastIndexOf('checksumAlgorithm_') + 'checksumAlgorithm_'.length);
  return local.replace(/^sha3_/, 'sha3-');
}

/** Parses a digest given as hex or base64/base64url into bytes, or undefined when it is neither. */
export function digestOf(value: string): Buffer | undefined {
  const text = value.trim();
  if (/^[0-9a-fA-F]+$/.test(text) && text.length % 2 === 0) return Buffer.from(text, 'hex');
  if (/^[A-Za-z0-9+/_-]+={0,2}$/.test(text))
    return Buffer.from(text.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  return undefined;
}

/**
 * The RFC 6920 content identifier `ni:///<alg>;<base64url digest>` of a digest, or undefined when the algorithm
 * yields none. It depends only on algorithm and digest, so every registry computes the same one.
 */
export function contentIdentifier(algorithm: string, digest: Buffer): string | undefined {
  const naming = NAMING_ALGORITHMS[foldAlgorithm(algorithm)];
  if (naming === undefined || digest.length !== naming.bytes) return undefined;
  return `ni:///${naming.ni};${digest.toString('base64url')}`;
}
