/**
 * Content identifiers from digests (RFC 6920): the identify endpoint, and reading the `content` filter of the
 * artifact list. Only digests are taken, never bytes; nothing is written. The records holding some content are
 * read from the lineage index (`insight/content-index.ts`), or asked of the query index while it is filled
 * (`insight/content-query.ts`).
 */
import { requireReader } from '../access/policy.js';
import type { Principal } from '../access/principal.js';
import { BadRequestError, RegError } from '../errors.js';
import {
  CONTENT_NAME_FORMS,
  contentAliases,
  contentIdentifier,
  digestBytes,
  algorithmOfIri,
  foldAlgorithm,
  hexDigest,
  NAMING_ALGORITHMS,
  parseContentName,
  swhidCore,
  type ContentDigest,
  type ContentName,
} from '../records/content-id.js';
import { idOf } from '../records/ids.js';
import { originOf } from '../stored/records.js';
import type { Core } from '../core.js';
import { invalidChecksum } from './artifact-input.js';
import { lineageIndexReady } from '../store/lineage/lineage-index.js';
import {
  contentMatchesFromIndex,
  distributionNamesFromIndex,
  titleRowsFromIndex,
} from '../insight/content-index.js';
import {
  contentMatchesFromQuery,
  distributionNamesFromQuery,
  titleRowsFromQuery,
} from '../insight/content-query.js';
import type {
  ContentIdentity,
  ContentMatchJson,
  DigestIdentity,
  HowToCompute,
} from '../../api/operations.js';

/** The RFC that defines `ni:` names. */
const SPECIFICATION = 'https://www.rfc-editor.org/rfc/rfc6920';
/** Names of the algorithms that yield a content identifier, as they appear in one. */
const NAMING = Object.values(NAMING_ALGORITHMS).map((algorithm) => algorithm.ni);

/** How to compute a content identifier without the registry, and the answer of `/api/v1/artifacts/identify`. */
export type IdentifyResult = DigestIdentity;
export type { HowToCompute };

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
 * `<algorithm>:<digest>`, `hash://<algorithm>/<hex>`, an in-toto DigestSet, or a bare hex or base64 digest whose
 * length says the algorithm. Undefined for anything else, which therefore matches nothing.
 */
export function contentIdOf(value: string): string | undefined {
  const text = value.trim();
  // Any other form of a SHA-256/384/512 digest (hash://, a DigestSet) names the same content.
  const digest = parseContentName(text)?.digests.find((d) => NAMING_ALGORITHMS[d.algorithm] !== undefined);
  if (digest !== undefined) return contentIdentifier(digest.algorithm, Buffer.from(digest.hex, 'hex'));
  const ni = /^ni:\/\/[^/]*\/([^;]+);([^?#]+)/i.exec(text);
  if (ni !== null) return nameOf(ni[1]!, ni[2]!);
  const prefixed = /^([A-Za-z0-9_-]+):(.+)$/.exec(text);
  if (prefixed !== null) return nameOf(prefixed[1]!, prefixed[2]!);
  for (const algorithm of Object.keys(NAMING_ALGORITHMS)) {
    const identifier = nameOf(algorithm, text);
    if (identifier !== undefined) return identifier;
  }
  return undefined;
}

function nameOf(algorithm: string, digest: string): string | undefined {
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

function refuseBytes(input: IdentifyInput): void {
  for (const member of ['bytes', 'data'])
    if (input[member] !== undefined)
      throw new RegError(
        'bytes-not-accepted',
        `${member}: the registry never takes file contents; compute the digest where the file is (for example sha256sum FILE) and send it as value`,
      );
}

/**
 * `POST|GET /api/v1/artifacts/identify`: the content identifier of a digest (`algorithm`, default sha256, and
 * `value`, hex or base64). Pure: nothing is written. It counts as a read, so it needs a reader when reads are
 * not public. Bytes are refused (422 `bytes-not-accepted`); an unknown or non-naming algorithm or a malformed
 * digest is a 422 `invalid-checksum`.
 */
export function identify(core: Core, principal: Principal, input: IdentifyInput): IdentifyResult {
  if (!core.config.publicRead) requireReader(principal);
  refuseBytes(input);
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
  return named(core, naming.ni, digest);
}

function named(core: Core, algorithm: string, digest: Buffer): IdentifyResult {
  const identifier = contentIdentifier(algorithm, digest)!;
  return {
    content_identifier: identifier,
    algorithm,
    digest_hex: digest.toString('hex'),
    digest_base64url: digest.toString('base64url'),
    find: `${core.config.baseIri}/api/v1/artifacts?content=${encodeURIComponent(identifier)}`,
    how_to_compute: howToCompute(algorithm),
  };
}

/** Which recorded value of a record matched a content name: the JSON field and the value as recorded. */
export interface MatchedName {
  readonly field: string;
  readonly value: string;
}

/** A record holding some content: a distribution (with the artifact it belongs to) or a release. */
export interface ContentMatch {
  readonly kind: 'distribution' | 'release';
  /** The distribution's node IRI, or the release's IRI. */
  readonly iri: string;
  /** The record the node belongs to: the artifact of a distribution, the release itself. */
  readonly record: string;
  readonly graph: string;
  readonly matched: readonly MatchedName[];
}

/** A checksum (algorithm IRI and hex value) or a SWHID a distribution states (`distributionNames`). */
export interface DistributionNameRow {
  readonly algorithm: string | null;
  readonly hex: string | null;
  readonly swhid: string | null;
}

/** What titles a matched record (`titlesOf`): its title, version, and the name of what it is a version of. */
export interface TitleRow {
  readonly graph: string;
  readonly record: string;
  readonly title: string | null;
  readonly version: string | null;
  readonly name: string | null;
}

/** The most records one answer lists; each lookup reads one more, to tell that there are more. */
const MATCH_LIMIT = 200;
/** Orders strings by code point. */
const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The other names of the bytes of matched distributions: their checksums and the SWHIDs of the same bytes
 * (`swh:1:cnt:`). A release's image and its source are different content, so a release adds nothing.
 */
async function distributionNames(core: Core, matches: readonly ContentMatch[]): Promise<ContentName> {
  const nodes = [...new Set(matches.filter((m) => m.kind === 'distribution').map((m) => m.iri))];
  if (nodes.length === 0) return { form: 'digest-set', digests: [], swhids: [] };
  const rows = lineageIndexReady(core.db)
    ? distributionNamesFromIndex(core, nodes)
    : await distributionNamesFromQuery(core, nodes);
  const digests: ContentDigest[] = [];
  const swhids: string[] = [];
  for (const { algorithm, hex, swhid } of rows) {
    const digest = algorithm === null || hex === null ? undefined : hexDigest(algorithmOfIri(algorithm), hex);
    if (digest !== undefined) digests.push(digest);
    const id = swhid === null ? undefined : swhidCore(swhid);
    if (id?.startsWith('swh:1:cnt:') === true) swhids.push(id);
  }
  // In one order whichever way they were read.
  digests.sort((a, b) => compare(`${a.algorithm} ${a.hex}`, `${b.algorithm} ${b.hex}`));
  swhids.sort(compare);
  return { form: 'digest-set', digests, swhids };
}

/**
 * Every record holding the content a name names, in this registry and in cached peers, each once, in IRI order:
 * from the lineage index when it is complete, else from the query index.
 */
export async function findByContent(core: Core, name: ContentName): Promise<ContentMatch[]> {
  const found = lineageIndexReady(core.db)
    ? contentMatchesFromIndex(core, name, MATCH_LIMIT + 1)
    : await contentMatchesFromQuery(core, name, MATCH_LIMIT + 1);
  const merged = new Map<string, ContentMatch>();
  for (const match of found) {
    const key = `${match.graph} ${match.iri}`;
    const seen = merged.get(key);
    merged.set(key, seen === undefined ? match : { ...seen, matched: [...seen.matched, ...match.matched] });
  }
  // The values that matched by field (checksums, image digests, SWHIDs), in one order whichever way they were read.
  for (const [key, match] of merged)
    merged.set(key, {
      ...match,
      matched: [...match.matched].sort((a, b) => compare(a.field, b.field) || compare(a.value, b.value)),
    });
  return [...merged.values()].sort((a, b) => a.kind.localeCompare(b.kind) || a.iri.localeCompare(b.iri));
}

/** A record holding the content, and the answer of `GET /api/v1/identify`: declared in `src/api`. */
export type PresentedMatch = ContentMatchJson;
export type { ContentIdentity };

/** The content name the identify endpoint was given, or a 400 naming `id` and the forms it takes. */
export function readContentName(input: IdentifyInput): ContentName {
  refuseBytes(input);
  const id = input.id;
  const forms =
    'ni:///sha-256;<base64url>, hash://sha256/<hex>, a bare hex digest, sha256:<hex> (an OCI digest), an in-toto DigestSet as JSON ({"sha256":"<hex>"}) or a SWHID (swh:1:cnt:<40 hex>, also dir, rel, rev, snp)';
  const given = typeof id === 'string' ? parseContentName(id) : undefined;
  if (given !== undefined) return given;
  const detail = `id ${typeof id === 'string' && id.trim() !== '' ? `${JSON.stringify(id)} is not a content name` : 'is required'}: give ${forms}`;
  // One sentence, not a field error: the parameter is the whole request, and the sentence lists every form.
  throw new BadRequestError(detail, { extra: { field: 'id', forms: CONTENT_NAME_FORMS } });
}

/**
 * `GET /api/v1/identify?id=…`: every record holding the content `id` names (in any form `parseContentName`
 * reads) and every name of that content. Distributions found add the names of their own bytes, which are looked
 * up once more, so a SWHID finds the records that know the same file only by its checksum. For a sha-256/384/512
 * digest the answer also carries what `/api/v1/artifacts/identify` answers. Pure; a read.
 */
export async function identifyContent(
  core: Core,
  principal: Principal,
  input: IdentifyInput,
): Promise<ContentIdentity> {
  if (!core.config.publicRead) requireReader(principal);
  const name = readContentName(input);
  let matches = await findByContent(core, name);
  const learned = await distributionNames(core, matches);
  const digests = unique([...name.digests, ...learned.digests], (d) => `${d.algorithm} ${d.hex}`);
  const swhids = unique([...name.swhids, ...learned.swhids], (id) => id);
  if (digests.length > name.digests.length || swhids.length > name.swhids.length)
    matches = await findByContent(core, { form: name.form, digests, swhids });
  const naming = name.digests.find((d) => NAMING_ALGORITHMS[d.algorithm] !== undefined);
  const shown = matches.slice(0, MATCH_LIMIT);
  const titles = await titlesOf(core, shown);
  return {
    id: input.id as string,
    form: name.form,
    ...(naming === undefined
      ? {}
      : named(core, NAMING_ALGORITHMS[naming.algorithm]!.ni, Buffer.from(naming.hex, 'hex'))),
    digests,
    swhids,
    aliases: contentAliases(digests, swhids),
    matches: shown.map((match) => presentMatch(match, titles)),
    total: shown.length,
    ...(matches.length > MATCH_LIMIT ? { truncated: true } : {}),
  };
}

function unique<T>(items: readonly T[], key: (item: T) => string): T[] {
  const seen = new Set<string>();
  return items.filter((item) => !seen.has(key(item)) && seen.add(key(item)));
}

/** The titles of matched records, in one query: an artifact's title, a release's software name and version. */
async function titlesOf(core: Core, matches: readonly ContentMatch[]): Promise<Map<string, string>> {
  const titles = new Map<string, string>();
  const records = [
    ...new Map(matches.map((m) => [`${m.graph} ${m.record}`, [m.graph, m.record] as const])).values(),
  ];
  if (records.length === 0) return titles;
  const rows = lineageIndexReady(core.db)
    ? titleRowsFromIndex(core, records)
    : await titleRowsFromQuery(core, records);
  for (const row of rows) {
    const release = [row.name, row.version].filter((part) => part !== null).join(' ');
    const title = row.title ?? release;
    if (title !== '') titles.set(`${row.graph} ${row.record}`, title);
  }
  return titles;
}

function presentMatch(match: ContentMatch, titles: ReadonlyMap<string, string>): PresentedMatch {
  const title = titles.get(`${match.graph} ${match.record}`);
  return {
    kind: match.kind,
    iri: match.iri,
    ...(match.kind === 'distribution' ? { artifact: match.record } : {}),
    id: idOf(match.record),
    ...(title === undefined ? {} : { title }),
    origin: originOf(match.graph),
    matched: match.matched,
  };
}
