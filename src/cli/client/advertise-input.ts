import fs from 'node:fs';
import path from 'node:path';
import { MalformedInputError } from '../../core/errors.js';
import { AVAILABILITY } from '../../core/records/specs.js';
import { digestFile } from './checksum.js';
import { ciRunDefaults } from './ci-env.js';
import { UsageError } from './errors.js';
import type { JsonObject } from './http.js';
import { licenceIri } from './input.js';

/** One artifact as the command line describes it, before types are resolved and files digested. */
export interface ArtifactDraft {
  readonly title?: string;
  /** Artifact type: an IRI, or the slug of a type minted at the registry. */
  readonly type?: string;
  readonly description?: string;
  readonly license?: string;
  readonly downloadUrl?: string;
  readonly accessUrl?: string;
  /** A local data file: only its SHA-256 and byte size are sent. */
  readonly file?: string;
  readonly mediaType?: string;
  readonly availability?: string;
  readonly keywords: readonly string[];
  readonly derivedFrom: readonly string[];
  readonly key?: string;
  /** The artifact this one is the next version of (its IRI at this registry). */
  readonly versionOf?: string;
  /** An artifact already registered (here or at another registry), named by IRI alone. */
  readonly iri?: string;
}

type DraftField = Exclude<keyof ArtifactDraft, 'keywords' | 'derivedFrom'>;

/** The `key=value` names of `--artifact`, and the draft field each sets. */
const SPEC_KEYS: Readonly<Record<string, DraftField | 'keywords' | 'derivedFrom'>> = {
  title: 'title',
  type: 'type',
  description: 'description',
  license: 'license',
  url: 'downloadUrl',
  'download-url': 'downloadUrl',
  'access-url': 'accessUrl',
  file: 'file',
  'media-type': 'mediaType',
  availability: 'availability',
  keyword: 'keywords',
  'derived-from': 'derivedFrom',
  key: 'key',
  'version-of': 'versionOf',
  iri: 'iri',
};

/** The names `--artifact` accepts, for help texts. */
export const ARTIFACT_SPEC_KEYS = Object.keys(SPEC_KEYS);

/**
 * Parses `title=…,type=…,url=…,file=…`. A comma starts a new pair only when a known-looking `name=` follows,
 * so values may contain commas; `keyword` and `derived-from` may repeat.
 */
export function parseArtifactSpec(spec: string): ArtifactDraft {
  const draft: Record<string, unknown> = { keywords: [], derivedFrom: [] };
  for (const pair of spec.split(/,(?=\s*[a-z][a-z-]*=)/)) {
    const at = pair.indexOf('=');
    const name = pair.slice(0, Math.max(at, 0)).trim();
    const field = SPEC_KEYS[name];
    if (at < 0 || field === undefined) {
      throw new UsageError(`--artifact "${spec}": "${pair.trim()}" is not name=value with a known name`, [
        `names: ${ARTIFACT_SPEC_KEYS.join(', ')}`,
      ]);
    }
    const text = pair.slice(at + 1).trim();
    if (field === 'keywords' || field === 'derivedFrom') (draft[field] as string[]).push(text);
    else if (draft[field] !== undefined) throw new UsageError(`--artifact "${spec}" gives ${name} twice`);
    else draft[field] = text;
  }
  return draft as unknown as ArtifactDraft;
}

/** The separate artifact flags, as parsed. */
export interface ArtifactFlags {
  readonly title?: string | undefined;
  readonly type?: string | undefined;
  readonly description?: string | undefined;
  readonly license?: string | undefined;
  readonly 'download-url'?: string | undefined;
  readonly 'access-url'?: string | undefined;
  readonly 'data-file'?: string | undefined;
  readonly 'media-type'?: string | undefined;
  readonly availability?: string | undefined;
  readonly keyword?: string[] | undefined;
  readonly 'derived-from'?: string[] | undefined;
  readonly key?: string | undefined;
  readonly 'version-of'?: string | undefined;
}

/** The artifact the separate flags describe, or undefined when none of them was given. */
export function draftFromFlags(flags: ArtifactFlags): ArtifactDraft | undefined {
  const draft: ArtifactDraft = {
    ...defined('title', flags.title),
    ...defined('type', flags.type),
    ...defined('description', flags.description),
    ...defined('license', flags.license),
    ...defined('downloadUrl', flags['download-url']),
    ...defined('accessUrl', flags['access-url']),
    ...defined('file', flags['data-file']),
    ...defined('mediaType', flags['media-type']),
    ...defined('availability', flags.availability),
    ...defined('key', flags.key),
    ...defined('versionOf', flags['version-of']),
    keywords: flags.keyword ?? [],
    derivedFrom: flags['derived-from'] ?? [],
  };
  const given = Object.entries(draft).some(([, v]) => (Array.isArray(v) ? v.length > 0 : v !== undefined));
  return given ? draft : undefined;
}

function defined<K extends string>(key: K, value: string | undefined): Partial<Record<K, string>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, string>);
}

/** What `--file` held: the API's artifacts list, or a whole `{run, artifacts}` body. */
export interface AdvertiseFile {
  readonly run?: JsonObject;
  readonly artifacts: JsonObject[];
}

const isObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Reads `--file`: a JSON list of artifacts, or an object with `run` and/or `artifacts`. */
export function readAdvertiseFile(file: string): AdvertiseFile {
  let value: unknown;
  try {
    value = JSON.parse(fs.readFileSync(file === '-' ? 0 : file, 'utf8'));
  } catch (error) {
    throw new MalformedInputError(`${file === '-' ? 'standard input' : file}: ${(error as Error).message}`);
  }
  const list = Array.isArray(value) ? value : isObject(value) ? (value.artifacts ?? []) : undefined;
  const run = isObject(value) ? value.run : undefined;
  const extra = isObject(value)
    ? Object.keys(value).filter((key) => key !== 'run' && key !== 'artifacts')
    : [];
  if (
    !Array.isArray(list) ||
    !list.every(isObject) ||
    (run !== undefined && !isObject(run)) ||
    extra.length > 0
  ) {
    throw new MalformedInputError(
      `${file} must hold a list of artifact objects, or an object with run (an object) and artifacts (a list)`,
    );
  }
  return { ...(run === undefined ? {} : { run }), artifacts: list };
}

/** The run fields the flags set; undefined ones are left to the file, the CI variables or the registry. */
export interface RunFlags {
  readonly 'run-key'?: string | undefined;
  readonly label?: string | undefined;
  readonly status?: string | undefined;
  readonly 'started-at'?: string | undefined;
  readonly 'ended-at'?: string | undefined;
}

/** A timestamp flag: ISO 8601, or `now`. */
export function timestamp(flag: string, text: string | undefined, now: Date): string | undefined {
  if (text === undefined) return undefined;
  if (text.trim().toLowerCase() === 'now') return now.toISOString();
  const time = /^\d{4}-\d{2}-\d{2}T/.test(text.trim()) ? Date.parse(text) : NaN;
  if (Number.isNaN(time))
    throw new UsageError(`--${flag} must be an ISO 8601 timestamp or "now", got "${text}"`);
  return new Date(time).toISOString();
}

/**
 * The run object: the file's, with the flags laid over it, and the CI job's key, label and start filling what
 * is still missing. `ci` names the CI system whose key was used, if any.
 */
export function buildRun(
  fromFile: JsonObject | undefined,
  flags: RunFlags,
  env: Readonly<Record<string, string | undefined>>,
  now: Date,
): { run: JsonObject; ci: string | undefined } {
  const run: JsonObject = { ...fromFile };
  const set = (name: string, value: string | undefined): void => {
    if (value !== undefined) run[name] = value;
  };
  set('external_key', flags['run-key']);
  set('label', flags.label);
  set('status', flags.status);
  set('started_at', timestamp('started-at', flags['started-at'], now));
  set('ended_at', timestamp('ended-at', flags['ended-at'], now));
  const ci = ciRunDefaults(env);
  let used: string | undefined;
  if (ci !== undefined && run.external_key === undefined) {
    run.external_key = ci.externalKey;
    used = ci.system;
    if (run.label === undefined && ci.label !== undefined) run.label = ci.label;
    if (run.started_at === undefined && ci.startedAt !== undefined) run.started_at = ci.startedAt;
  }
  return { run, ci: used };
}

/** Resolves a type slug to its IRI at the registry; IRIs are kept as they are. */
export type TypeResolver = (slugOrIri: string) => Promise<string>;

/** Turns a draft into the API's artifact object: type resolved, file digested, distribution built. */
export async function artifactOf(draft: ArtifactDraft, resolveType: TypeResolver): Promise<JsonObject> {
  if (draft.iri !== undefined) {
    const others = Object.entries(draft).filter(
      ([name, value]) => name !== 'iri' && (Array.isArray(value) ? value.length > 0 : value !== undefined),
    );
    if (others.length > 0)
      throw new UsageError(`iri=${draft.iri} names an artifact already registered: give it alone`);
    return { iri: draft.iri };
  }
  if (draft.availability !== undefined && !(AVAILABILITY as readonly string[]).includes(draft.availability))
    throw new UsageError(
      `availability must be one of ${AVAILABILITY.join(', ')}, got "${draft.availability}"`,
    );
  const title = draft.title ?? (draft.file === undefined ? undefined : path.basename(draft.file));
  const artifact: JsonObject = {
    ...(title === undefined ? {} : { title }),
    ...(draft.description === undefined ? {} : { description: draft.description }),
    ...(draft.type === undefined ? {} : { conforms_to: await resolveType(draft.type) }),
    ...(draft.license === undefined ? {} : { license: licenceIri(draft.license) }),
    ...(draft.keywords.length === 0 ? {} : { keywords: [...draft.keywords] }),
    ...(draft.derivedFrom.length === 0 ? {} : { was_derived_from: [...draft.derivedFrom] }),
    ...(draft.key === undefined ? {} : { external_key: draft.key }),
    ...(draft.versionOf === undefined ? {} : { version_of: draft.versionOf }),
  };
  const distribution: JsonObject = {
    ...(draft.downloadUrl === undefined ? {} : { download_url: draft.downloadUrl }),
    ...(draft.accessUrl === undefined ? {} : { access_url: draft.accessUrl }),
    ...(draft.mediaType === undefined ? {} : { media_type: draft.mediaType }),
    ...(draft.availability === undefined ? {} : { availability: draft.availability }),
  };
  if (draft.file !== undefined) Object.assign(distribution, await checksumOf(draft.file, distribution));
  if (Object.keys(distribution).length > 0) artifact.distributions = [distribution];
  return artifact;
}

/**
 * The checksum and size of a data file for a distribution. Without a URL the registry cannot offer the bytes,
 * so such a distribution is metadata-only unless an availability was given.
 */
async function checksumOf(file: string, distribution: JsonObject): Promise<JsonObject> {
  const digest = await digestFile(file);
  const reachable = distribution.download_url !== undefined || distribution.access_url !== undefined;
  return {
    checksum: { algorithm: digest.algorithm, value: digest.value },
    byte_size: digest.byteSize,
    ...(reachable || distribution.availability !== undefined ? {} : { availability: 'metadata-only' }),
  };
}

/**
 * An artifact of `--file` with its client-side `file` member (a local data file) replaced by the checksum and
 * size on its first distribution (a metadata-only one is added when it has none). Other members pass as they are.
 */
export async function withFileDigest(artifact: JsonObject): Promise<JsonObject> {
  const { file, ...rest } = artifact;
  if (file === undefined) return rest;
  if (typeof file !== 'string')
    throw new MalformedInputError('an artifact\'s "file" must be the path of a data file');
  const list = Array.isArray(rest.distributions) ? [...(rest.distributions as unknown[])] : [];
  const first = isObject(list[0]) ? list[0] : {};
  list[0] = { ...first, ...(await checksumOf(file, first)) };
  return {
    ...(rest.title === undefined ? { title: path.basename(file) } : {}),
    ...rest,
    distributions: list,
  };
}
