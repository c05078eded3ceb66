/**
 * How a forge's view of a repository becomes field values of a software record: which value each managed field
 * takes, which fields that changes, and which of the forge's releases the registry does not hold yet.
 */
import { SPDX } from '../ns.js';
import type { ForgeLicense, ForgeRelease, ForgeSnapshot } from './types.js';
import { isAbsoluteIri, type Json, type JsonObject } from '../records/mapper.js';
import type { ReferenceIndex } from '../vocab/reference-index.js';
import { normaliseKeywords } from '../vocab/keywords.js';
import type { SyncField } from './sync-settings.js';

/** A forge value the registry cannot take as it is; the run fails with this message and changes nothing. */
export class SyncRefusal extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SyncRefusal';
  }
}

/** What one run would change: the record after it, the fields that differ, and the releases to register. */
export interface SyncPlan {
  /** The stored record with the managed fields replaced (registry bookkeeping untouched). */
  readonly candidate: JsonObject;
  /** Fields whose value changes (`releases` when releases are registered), sorted. */
  readonly changed: string[];
  /** Releases to register, oldest first, as release record input. */
  readonly releases: JsonObject[];
}

const licenceIds = new WeakMap<ReferenceIndex, Map<string, string>>();

/** SPDX licence IRIs the registry holds, by lower-cased licence id (GitLab's keys are lower case). */
function heldLicences(index: ReferenceIndex): Map<string, string> {
  let ids = licenceIds.get(index);
  if (ids === undefined) {
    ids = new Map();
    for (const term of index.termsOfClass(SPDX('ListedLicense')))
      ids.set(term.iri.slice(term.iri.lastIndexOf('/') + 1).toLowerCase(), term.iri);
    licenceIds.set(index, ids);
  }
  return ids;
}

/**
 * The licence IRI a forge's licence id stands for. An id the registry does not hold still becomes an IRI of the
 * same form, so the write path refuses it with its usual sentence (and nothing is applied).
 */
export function licenceIriOf(index: ReferenceIndex, license: ForgeLicense): string {
  if (license.kind === 'unidentified') {
    throw new SyncRefusal(
      `license: the repository's licence (${license.name}) is not one the forge identifies as an SPDX licence; ` +
        'take license out of sync.fields and set it by hand',
    );
  }
  return (
    heldLicences(index).get(license.id.toLowerCase()) ??
    `https://spdx.org/licenses/${encodeURIComponent(license.id)}`
  );
}

/** A homepage as forges let people type it (`example.org`) made an absolute URL. */
function webAddress(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  return /^[a-z][a-z0-9+.-]*:/i.test(value) ? value : `https://${value}`;
}

/** The first line of a description, for the one-line tagline. */
function oneLine(value: string | undefined): string | undefined {
  return value?.split(/\r?\n/)[0]?.replace(/\s+/g, ' ').trim() || undefined;
}

/** The value each managed field takes from the snapshot; undefined means the forge states none (cleared). */
function managedValues(
  index: ReferenceIndex,
  fields: readonly SyncField[],
  snapshot: ForgeSnapshot,
): Map<string, Json | undefined> {
  const values = new Map<string, Json | undefined>();
  for (const field of fields) {
    switch (field) {
      case 'tagline':
        values.set('tagline', oneLine(snapshot.description));
        break;
      case 'description':
        values.set('description', snapshot.description);
        break;
      case 'readme': {
        const readme = snapshot.readme ?? undefined;
        values.set('readme', readme?.text.trim() === '' ? undefined : readme?.text);
        values.set('readme_base_url', readme?.text.trim() === '' ? undefined : readme?.baseUrl);
        break;
      }
      case 'homepage':
        values.set('homepage', webAddress(snapshot.homepage));
        break;
      case 'license':
        values.set(
          'license',
          snapshot.license === undefined ? undefined : licenceIriOf(index, snapshot.license),
        );
        break;
      case 'keywords': {
        const labels = normaliseKeywords(snapshot.topics).labels;
        values.set('keywords', labels.length === 0 ? undefined : labels);
        break;
      }
      case 'maturity':
        // An archived repository is read-only: its authors have stopped work (repostatus "unsupported").
        values.set('maturity', snapshot.archived ? 'unsupported' : 'active');
        break;
      case 'image':
        values.set('image', snapshot.image);
        break;
      case 'releases':
        break;
    }
  }
  return values;
}

/** Whether two field values are the same; lists compare as sets (the store keeps them unordered). */
function sameValue(a: Json | undefined, b: Json | undefined): boolean {
  if (Array.isArray(a) && Array.isArray(b)) {
    const left = [...new Set(a.map((item) => JSON.stringify(item)))].sort();
    const right = [...new Set(b.map((item) => JSON.stringify(item)))].sort();
    return left.length === right.length && left.every((item, at) => item === right[at]);
  }
  return JSON.stringify(a) === JSON.stringify(b);
}

/** A release's version from its tag: `v1.2.0` is version `1.2.0`; other tags are kept as they are. */
export function versionOf(tag: string): string {
  return /^v\d/i.test(tag) ? tag.slice(1) : tag;
}

/** The forge's releases the registry does not hold (by version or tag), oldest first, as release input. */
function missingReleases(releases: readonly ForgeRelease[], held: ReadonlySet<string>): JsonObject[] {
  const seen = new Set(held);
  const missing: JsonObject[] = [];
  for (const release of [...releases].reverse()) {
    const version = versionOf(release.tag);
    if (seen.has(version) || seen.has(release.tag)) continue;
    seen.add(version);
    missing.push({
      version,
      ...(release.date === undefined ? {} : { date_published: release.date }),
      ...(release.url !== undefined && isAbsoluteIri(release.url) ? { changelog: release.url } : {}),
    });
  }
  return missing;
}

/**
 * Plans one run: the managed fields take the forge's values (fields not named in `sync.fields` are never
 * touched), and releases the registry does not hold yet, withdrawn ones included, are to be registered.
 */
export function planSync(
  index: ReferenceIndex,
  stored: JsonObject,
  fields: readonly SyncField[],
  snapshot: ForgeSnapshot,
  heldVersions: ReadonlySet<string>,
): SyncPlan {
  const candidate: JsonObject = { ...stored };
  const changed: string[] = [];
  for (const [field, value] of managedValues(index, fields, snapshot)) {
    if (!sameValue(stored[field], value)) changed.push(field);
    if (value === undefined) delete candidate[field];
    else candidate[field] = value;
  }
  const releases =
    fields.includes('releases') && snapshot.releases !== undefined
      ? missingReleases(snapshot.releases, heldVersions)
      : [];
  if (releases.length > 0) changed.push('releases');
  return { candidate, changed: changed.sort(), releases };
}
