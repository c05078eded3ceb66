/**
 * Versions of stored records and conditional edits. A record's version is a digest of its stored canonical
 * N-Quads, so it changes with every write that changes the record (each edit also moves `modified`) and with
 * nothing else: members a read derives from other records (counts, the newest release, labels of terms, peer
 * status) are not covered. HTTP serves it as the entity tag of record reads and honours it in `If-Match`.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash } from 'node:crypto';
import { BadRequestError, RegError } from '../errors.js';

/** The version of a record from its stored text: 22 URL-safe characters of its SHA-256. */
export function versionOf(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('base64url').slice(0, 22);
}

/**
 * The strong entity tag of one representation of a record version: the version alone for JSON, with the
 * extension of the serialisation for RDF forms (`"<version>.ttl"`), since their bytes differ.
 */
export function entityTag(version: string, extension?: string): string {
  return `"${version}${extension === undefined ? '' : `.${extension}`}"`;
}

/** What an `If-Match` or `If-None-Match` header names: any current version, or a list of entity tags. */
export type TagList = '*' | readonly { readonly weak: boolean; readonly opaque: string }[];

/** One entity tag of a list and the comma after it; sticky, so a list is read tag after tag with nothing between. */
const TAG = String.raw`\s*(W\/)?"([\x21\x23-\x7e\x80-\xff]*)"\s*(?:,|$)`;

/** Parses a list of entity tags (RFC 9110 §8.8.3); a malformed header is a 400 naming it. */
export function parseTagList(header: string | undefined, name: string): TagList | undefined {
  if (header === undefined) return undefined;
  const text = header.trim();
  if (text === '*') return '*';
  const tags: { weak: boolean; opaque: string }[] = [];
  const tag = new RegExp(TAG, 'y');
  while (tag.lastIndex < text.length) {
    const at = tag.lastIndex;
    const match = tag.exec(text);
    if (match === null || tag.lastIndex === at)
      throw new BadRequestError(
        `${name} must be * or a list of entity tags such as "${'0'.repeat(22)}" (quotes included), got ${header}`,
      );
    tags.push({ weak: match[1] !== undefined, opaque: match[2] ?? '' });
  }
  if (tags.length === 0) throw new BadRequestError(`${name} is empty: send * or an entity tag`);
  return tags;
}

/** The record version an entity tag names (the part before a serialisation's extension). */
function versionIn(opaque: string): string {
  const dot = opaque.indexOf('.');
  return dot < 0 ? opaque : opaque.slice(0, dot);
}

/**
 * Whether `If-Match` holds for a record at `version` (undefined: no such record). Strong comparison: a weak tag
 * never matches. Any representation's tag of the current version matches, so a tag read from Turtle works too.
 */
export function ifMatchHolds(tags: TagList, version: string | undefined): boolean {
  if (version === undefined) return false;
  return tags === '*' || tags.some((tag) => !tag.weak && versionIn(tag.opaque) === version);
}

/** Whether `If-None-Match` names the representation with entity tag `tag` (weak comparison). */
export function noneMatchNames(tags: TagList, tag: string): boolean {
  return tags === '*' || tags.some((listed) => `"${listed.opaque}"` === tag);
}

/** The record changed since the version the client named in `If-Match` (412). */
export class PreconditionFailedError extends RegError {
  constructor(detail: string) {
    super('precondition-failed', detail, {
      hints: [
        'read the record again (its ETag names the current version), reapply the change and send it again',
      ],
    });
  }
}

/** The condition a request puts on the one record it edits, and what its edit left behind. */
export interface RecordCondition {
  /** The record the request names; undefined when the request does not name it (a deployment announcing itself). */
  readonly iri: string | undefined;
  /** What `If-Match` names; undefined when the request carries none. */
  readonly expected: TagList | undefined;
  /** Set once the condition has been checked against the stored record. */
  checked: boolean;
  /** The version the edit left, for the answer's ETag. */
  written?: string;
}

// One act's condition travels with the act's async context (as its warnings do), so the edit deep in the write
// path sees what the HTTP request asked without every service passing it along. The storage itself holds nothing.
const acts = new AsyncLocalStorage<RecordCondition>();

/** Runs `work` (one request's edit of one record) under a condition. */
export function underCondition<T>(condition: RecordCondition, work: () => Promise<T>): Promise<T> {
  return acts.run(condition, work);
}

/** The condition of the act in progress, when it concerns the record `iri`. */
export function conditionOn(iri: string): RecordCondition | undefined {
  const condition = acts.getStore();
  if (condition === undefined || (condition.iri !== undefined && condition.iri !== iri)) return undefined;
  return condition;
}

/** Refuses an edit of `iri`, stored at `version` (undefined: none), when the act's `If-Match` does not hold. */
export function checkCondition(iri: string, version: string | undefined): void {
  const condition = conditionOn(iri);
  if (condition === undefined || condition.checked) return;
  condition.checked = true;
  if (condition.expected === undefined || ifMatchHolds(condition.expected, version)) return;
  throw new PreconditionFailedError(
    version === undefined
      ? `there is no record ${iri} for If-Match to match`
      : `${iri} is not at the version If-Match names: it was changed since that version was read`,
  );
}

/** Notes the version an edit of `iri` left, for the ETag of the answer. */
export function noteWritten(iri: string, version: string | undefined): void {
  const condition = conditionOn(iri);
  if (condition !== undefined && version !== undefined) condition.written = version;
}
