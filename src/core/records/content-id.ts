import { DCAT, REG, SPDX } from '../ns.js';
import { factory, type Quad } from '../store/nquads.js';

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

/** The forms a content name may be given in. */
export const CONTENT_NAME_FORMS = ['ni', 'hash-uri', 'hex', 'oci', 'digest-set', 'swhid'] as const;
/** One form of a content name. */
export type ContentNameForm = (typeof CONTENT_NAME_FORMS)[number];

/** One digest of some content: a folded algorithm name (`sha256`) and the digest in lower-case hex. */
export interface ContentDigest {
  readonly algorithm: string;
  readonly hex: string;
}

/**
 * What a content name says: the digests it carries and the Software Heritage identifiers (core part only, without
 * qualifiers) it names. A DigestSet may carry several digests; any one of them matching is a match.
 */
export interface ContentName {
  readonly form: ContentNameForm;
  readonly digests: readonly ContentDigest[];
  readonly swhids: readonly string[];
}

/** One name of some content, in one form. */
export interface ContentAlias {
  readonly form: ContentNameForm;
  readonly name: string;
}

/**
 * A Software Heritage identifier (SWHID 1): `swh:1:<object type>:<40 lower-case hex>` with optional qualifiers.
 * The same text is the SHACL pattern of the `swhids` fields in shapes/registry-shapes.ttl.
 */
export const SWHID_PATTERN =
  '^swh:1:(cnt|dir|rel|rev|snp):[0-9a-f]{40}(;(origin|visit|anchor|path|lines|bytes)=[^;\\s]+)*$';
const SWHID = new RegExp(SWHID_PATTERN);

/** The in-toto DigestSet keys of git object ids, by the SWHID object type that names the same object. */
const GIT_OBJECTS: Readonly<Record<string, string>> = {
  cnt: 'gitBlob',
  dir: 'gitTree',
  rev: 'gitCommit',
  rel: 'gitTag',
};
/** Algorithms a bare hex digest of each length is read as (the conventional one where lengths collide). */
const BARE_HEX: Readonly<Record<number, string>> = {
  32: 'md5',
  40: 'sha1',
  64: 'sha256',
  96: 'sha384',
  128: 'sha512',
};
/** Algorithms OCI image digests are written with. */
const OCI_ALGORITHMS = ['sha256', 'sha512'];

/** The core of a SWHID (`swh:1:<type>:<hex>`, qualifiers dropped), or undefined when the text is not a SWHID. */
export function swhidCore(text: string): string | undefined {
  return SWHID.test(text) ? text.split(';')[0] : undefined;
}

/** A digest of a known algorithm given in hex, or undefined when the algorithm is unknown or the length wrong. */
export function hexDigest(algorithm: string, hex: string): ContentDigest | undefined {
  const folded = foldAlgorithm(algorithm);
  const bytes = digestBytes(folded);
  if (bytes === undefined || !/^[0-9a-fA-F]+$/.test(hex) || hex.length !== bytes * 2) return undefined;
  return { algorithm: folded, hex: hex.toLowerCase() };
}

/**
 * Reads a content name in any of its forms: `ni:///sha-256;<base64url>` (RFC 6920), `hash://sha256/<hex>`, a bare
 * hex digest (its length says the algorithm), an OCI digest `sha256:<hex>`, an in-toto DigestSet as JSON, or a
 * SWHID. Undefined when the text is none of them.
 */
export function parseContentName(text: string): ContentName | undefined {
  const value = text.trim();
  const swhid = swhidCore(value);
  if (swhid !== undefined) return { form: 'swhid', digests: [], swhids: [swhid] };
  const ni = /^ni:\/\/[^/]*\/([^;?#]+);([A-Za-z0-9_-]+)$/i.exec(value);
  if (ni !== null) {
    const naming = NAMING_ALGORITHMS[foldAlgorithm(ni[1]!)];
    const digest = Buffer.from(ni[2]!, 'base64url');
    if (naming === undefined || digest.length !== naming.bytes || digest.toString('base64url') !== ni[2])
      return undefined;
    return {
      form: 'ni',
      digests: [{ algorithm: foldAlgorithm(ni[1]!), hex: digest.toString('hex') }],
      swhids: [],
    };
  }
  const hash = /^hash:\/\/([A-Za-z0-9_-]+)\/([0-9a-fA-F]+)$/.exec(value);
  if (hash !== null) return digestName('hash-uri', hexDigest(hash[1]!, hash[2]!));
  if (value.startsWith('{')) return digestSet(value);
  const oci = /^([A-Za-z0-9_-]+):([0-9a-fA-F]+)$/.exec(value);
  if (oci !== null) return digestName('oci', hexDigest(oci[1]!, oci[2]!));
  const bare = BARE_HEX[value.length];
  return bare === undefined ? undefined : digestName('hex', hexDigest(bare, value));
}

function digestName(form: ContentNameForm, digest: ContentDigest | undefined): ContentName | undefined {
  return digest === undefined ? undefined : { form, digests: [digest], swhids: [] };
}

function digestSet(text: string): ContentName | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return undefined;
  return digestSetName(parsed as Readonly<Record<string, unknown>>);
}

/**
 * The content an in-toto DigestSet names: algorithm names to hex digests, git object ids as SWHIDs. Keys this
 * registry does not know are passed over (the set matches on any one digest); a known key with a malformed digest
 * makes the whole set unreadable (undefined), as does a set with no key it knows.
 */
export function digestSetName(set: Readonly<Record<string, unknown>>): ContentName | undefined {
  const digests: ContentDigest[] = [];
  const swhids: string[] = [];
  for (const [key, value] of Object.entries(set)) {
    if (typeof value !== 'string') return undefined;
    const object = Object.entries(GIT_OBJECTS).find(([, name]) => name === key)?.[0];
    if (object !== undefined) {
      if (!/^[0-9a-f]{40}$/i.test(value)) return undefined;
      swhids.push(`swh:1:${object}:${value.toLowerCase()}`);
      continue;
    }
    if (digestBytes(key) === undefined) continue;
    const digest = hexDigest(key, value);
    if (digest === undefined) return undefined;
    digests.push(digest);
  }
  return digests.length + swhids.length === 0 ? undefined : { form: 'digest-set', digests, swhids };
}

/**
 * Every name of the content a set of digests and SWHIDs name: per digest its `ni:` name (sha-256/384/512 only),
 * `hash://` URI, OCI digest (sha256 and sha512), and bare hex; each SWHID; and one in-toto DigestSet of them all.
 */
export function contentAliases(digests: readonly ContentDigest[], swhids: readonly string[]): ContentAlias[] {
  const aliases: ContentAlias[] = [];
  const set: Record<string, string> = {};
  for (const { algorithm, hex } of digests) {
    const ni = contentIdentifier(algorithm, Buffer.from(hex, 'hex'));
    if (ni !== undefined) aliases.push({ form: 'ni', name: ni });
    aliases.push({ form: 'hash-uri', name: `hash://${algorithm}/${hex}` });
    if (OCI_ALGORITHMS.includes(algorithm)) aliases.push({ form: 'oci', name: `${algorithm}:${hex}` });
    aliases.push({ form: 'hex', name: hex });
    set[algorithm] = hex;
  }
  for (const swhid of swhids) {
    aliases.push({ form: 'swhid', name: swhid });
    const [, , type, hex] = swhid.split(':');
    const key = GIT_OBJECTS[type!];
    if (key !== undefined) set[key] = hex!;
  }
  if (Object.keys(set).length > 0) aliases.push({ form: 'digest-set', name: JSON.stringify(set) });
  return dedupeAliases(aliases);
}

function dedupeAliases(aliases: ContentAlias[]): ContentAlias[] {
  const seen = new Set<string>();
  return aliases.filter((alias) => !seen.has(alias.name) && seen.add(alias.name));
}

/** The content a record describes at one node: a distribution of an artifact, or a release (its image, its source). */
export interface NodeContent {
  readonly node: string;
  readonly digests: readonly ContentDigest[];
  readonly swhids: readonly string[];
}

/**
 * The content named in a record's quads: each distribution's checksum and SWHIDs, and a release's image digest
 * and SWHIDs. Nodes that name no content are left out.
 */
export function recordContent(iri: string, quads: readonly Quad[]): NodeContent[] {
  const objects = (subject: string, predicate: string): string[] =>
    quads
      .filter((quad) => quad.subject.value === subject && quad.predicate.value === predicate)
      .map((quad) => quad.object.value);
  const found: NodeContent[] = [];
  for (const node of [iri, ...objects(iri, DCAT('distribution'))]) {
    const digests: ContentDigest[] = [];
    for (const checksum of objects(node, SPDX('checksum'))) {
      const algorithm = objects(checksum, SPDX('algorithm'))[0];
      const value = objects(checksum, SPDX('checksumValue'))[0];
      const digest =
        algorithm === undefined || value === undefined
          ? undefined
          : hexDigest(algorithmOfIri(algorithm), value);
      if (digest !== undefined) digests.push(digest);
    }
    for (const image of objects(node, REG('imageDigest'))) {
      const digest = parseContentName(image);
      if (digest?.form === 'oci') digests.push(...digest.digests);
    }
    const swhids = objects(node, REG('swhid')).flatMap((text) => swhidCore(text) ?? []);
    if (digests.length + swhids.length > 0) found.push({ node, digests, swhids });
  }
  return found;
}

/** Forms of a content name that are IRIs, which links and RDF can carry (bare hex and OCI digests are not). */
const IRI_FORMS: readonly ContentNameForm[] = ['ni', 'hash-uri', 'swhid'];

/**
 * The IRI names of the content a record describes, by node: `ni:` and `hash://` names of each digest and the
 * core of each SWHID, in the order `contentAliases` gives them.
 */
export function contentNames(iri: string, quads: readonly Quad[]): { node: string; names: string[] }[] {
  return recordContent(iri, quads).map(({ node, digests, swhids }) => ({
    node,
    names: contentAliases(digests, swhids)
      .filter((alias) => IRI_FORMS.includes(alias.form))
      .map((alias) => alias.name),
  }));
}

/**
 * The `reg:contentName` statements of a record (derived when it is served, never stored): one per IRI name of the
 * content of each node, in the record's graph.
 */
export function contentNameQuads(iri: string, quads: readonly Quad[]): Quad[] {
  const graph = quads[0]?.graph ?? factory.defaultGraph();
  return contentNames(iri, quads).flatMap(({ node, names }) =>
    names.map((name) =>
      factory.quad(
        factory.namedNode(node),
        factory.namedNode(REG('contentName')),
        factory.namedNode(name),
        graph,
      ),
    ),
  );
}
