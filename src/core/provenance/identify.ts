/**
 * Content identifiers from digests (RFC 6920): the identify endpoint, and reading the `content` filter of the
 * artifact list. Only digests are taken, never bytes; nothing is written.
 */
import { requireReader } from '../access/policy.js';
import type { Principal } from '../access/principal.js';
import { BadRequestError, RegError } from '../errors.js';
import { contentIdentifier, digestBytes, foldAlgorithm, NAMING_ALGORITHMS } from '../records/content-id.js';
import type { Core } from '../core.js';
import { invalidChecksum } from './artifact-input.js';

/** The RFC that defines `ni:` names. */
const SPECIFICATION = 'https://www.rfc-editor.org/rfc/rfc6920';
/** Names of the algorithms that yield a content identifier, as they appear in one. */
const NAMING = Object.values(NAMING_ALGORITHMS).map((algorithm) => algorithm.ni);

/** How to compute a content identifier without the registry. */
export interface HowToCompute {
  readonly summary: string;
  readonly shell: string;
  readonly shell_digest_only: string;
  readonly python: string;
  readonly javascript: string;
  readonly algorithms: readonly string[];
  readonly specification: string;
}

/** The answer of the identify endpoint. */
export interface IdentifyResult {
  readonly content_identifier: string;
  readonly algorithm: string;
  readonly digest_hex: string;
  readonly digest_base64url: string;
  readonly find: string;
  readonly how_to_compute: HowToCompute;
}

/**
 * Reads a digest of exactly `bytes` bytes given as hex or as base64/base64url (padding optional); undefined when
 * it is neither. Text of hex digits only is read as hex: 64 hex digits are a SHA-256 digest, never a SHA-384
 * one in base64 (a real base64 digest of hex digits only is vanishingly unlikely).
 */
export function parseDigest(value: string, bytes: number): Buffer | undefined {
  const text = value.trim();
  if (/^[0-9a-fA-F]+$/.test(text)) return text.length === bytes * 2 ? Buffer.from(text, 'hex') : undefined;
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(text)) return undefined;
  const digest = Buffer.from(text.replace(/=+$/, ''), 'base64url');
  // Node skips characters it cannot decode; a round trip proves every character counted.
  if (digest.toString('base64url') !== text.replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_'))
    return undefined;
  return digest.length === bytes ? digest : undefined;
}

/**
 * The `ni:///…` name a `content` filter value means: an `ni:` name (any authority, padding or query dropped),
 * `<algorithm>:<digest>`, or a bare hex or base64 digest whose length says the algorithm. Undefined for
 * anything else, which therefore matches nothing.
 */
export function contentIdOf(value: string): string | undefined {
  const text = value.trim();
  const ni = /^ni:\/\/[^/]*\/([^;]+);([^?#]+)/i.exec(text);
  if (ni !== null) return named(ni[1]!, ni[2]!);
  const prefixed = /^([A-Za-z0-9_-]+):(.+)$/.exec(text);
  if (prefixed !== null) return named(prefixed[1]!, prefixed[2]!);
  for (const algorithm of Object.keys(NAMING_ALGORITHMS)) {
    const identifier = named(algorithm, text);
    if (identifier !== undefined) return identifier;
  }
  return undefined;
}

function named(algorithm: string, digest: string): string | undefined {
  const bytes = NAMING_ALGORITHMS[foldAlgorithm(algorithm)]?.bytes;
  const parsed = bytes === undefined ? undefined : parseDigest(digest, bytes);
  return parsed === undefined ? undefined : contentIdentifier(algorithm, parsed);
}

function howToCompute(algorithm: string): HowToCompute {
  const bits = algorithm.slice('sha-'.length);
  return {
    summary: `Compute the ${algorithm.toUpperCase()} digest of the file's bytes where the file is, and send only the digest (hex or base64). The content identifier is ni:///${algorithm};<digest as base64url without padding>; it depends on nothing else, so every registry computes the same one.`,
    shell: `printf 'ni:///${algorithm};%s\\n' "$(openssl dgst -sha${bits} -binary FILE | base64 | tr '+/' '-_' | tr -d '=\\n')"`,
    shell_digest_only: `sha${bits}sum FILE | cut -d' ' -f1`,
    python: `import base64, hashlib; print('ni:///${algorithm};' + base64.urlsafe_b64encode(hashlib.sha${bits}(open('FILE', 'rb').read()).digest()).rstrip(b'=').decode())`,
    javascript: `import { createHash } from 'node:crypto'; import { readFileSync } from 'node:fs'; console.log('ni:///${algorithm};' + createHash('sha${bits}').update(readFileSync('FILE')).digest('base64url'));`,
    algorithms: NAMING,
    specification: SPECIFICATION,
  };
}

/** Input of the identify endpoint: the JSON body of a POST or the query of a GET. */
export type IdentifyInput = Readonly<Record<string, unknown>>;

/**
 * `POST|GET /api/v1/artifacts/identify`: the content identifier of a digest (`algorithm`, default sha256, and
 * `value`, hex or base64). Pure: nothing is written. It counts as a read, so it needs a reader when reads are
 * not public. Bytes are refused (422 `bytes-not-accepted`); an unknown or non-naming algorithm or a malformed
 * digest is a 422 `invalid-checksum`.
 */
export function identify(core: Core, principal: Principal, input: IdentifyInput): IdentifyResult {
  if (!core.config.publicRead) requireReader(principal);
  for (const member of ['bytes', 'data'])
    if (input[member] !== undefined)
      throw new RegError(
        'bytes-not-accepted',
        `${member}: the registry never takes file contents; compute the digest where the file is (for example sha256sum FILE) and send it as value`,
      );
  const value = input.value;
  if (value === undefined || value === null || (typeof value === 'string' && value.trim() === ''))
    throw new BadRequestError('value is required: the hex or base64 digest of the file');
  if (typeof value !== 'string') throw new BadRequestError('value must be a string (hex or base64 digest)');
  const given = input.algorithm ?? 'sha256';
  if (typeof given !== 'string') throw new BadRequestError('algorithm must be a string such as sha256');
  const naming = NAMING_ALGORITHMS[foldAlgorithm(given)];
  if (naming === undefined) {
    const reason =
      digestBytes(given) !== undefined
        ? `"${given}" digests are recorded but yield no content identifier`
        : `"${given}" is not a checksum algorithm this registry knows`;
    const detail = `algorithm: ${reason}; use ${NAMING.join(', ')}`;
    throw new RegError('invalid-checksum', detail, {
      errors: [{ field: 'algorithm', message: detail }],
      extra: { field: 'algorithm', algorithms: NAMING },
    });
  }
  const digest = parseDigest(value, naming.bytes);
  if (digest === undefined)
    throw invalidChecksum(
      'value',
      `is not a ${naming.ni} digest (${naming.bytes * 2} hex characters, or base64)`,
      naming.bytes * 2,
    );
  const identifier = contentIdentifier(naming.ni, digest)!;
  return {
    content_identifier: identifier,
    algorithm: naming.ni,
    digest_hex: digest.toString('hex'),
    digest_base64url: digest.toString('base64url'),
    find: `${core.config.baseIri}/api/v1/artifacts?content=${encodeURIComponent(identifier)}`,
    how_to_compute: howToCompute(naming.ni),
  };
}
