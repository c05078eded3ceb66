import type { Context, MiddlewareHandler } from 'hono';
import type { Core } from '../core/core.js';
import { GRAPHS } from '../core/ns.js';
import { RECORD_KINDS, type RecordKind } from '../core/discovery/representations.js';
import {
  entityTag,
  noneMatchNames,
  parseTagList,
  underCondition,
  versionOf,
  type RecordCondition,
} from '../core/stored/record-version.js';
import type { AppEnv } from './env.js';

/** Names the record a write request edits; undefined when the request does not name it. */
export type RecordOf = (c: Context<AppEnv>) => string | undefined;

/**
 * Honours `If-Match` on a request that edits one record: the edit is refused with 412 unless the record is at a
 * version the header names (`*`: any), checked atomically with the write (see `editStored`). With
 * `answersRecord`, a successful answer (the record's JSON) carries the ETag of the version the edit left.
 */
export function conditionalEdit(recordOf: RecordOf, answersRecord = false): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const expected = parseTagList(c.req.header('if-match'), 'If-Match');
    let iri: string | undefined;
    try {
      iri = recordOf(c);
    } catch {
      // A malformed id: the service refuses it (400) before anything is edited.
      return next();
    }
    const condition: RecordCondition = { iri, expected, checked: false };
    await underCondition(condition, async () => {
      await next();
    });
    if (answersRecord && c.res.ok && condition.written !== undefined)
      c.res.headers.set('etag', entityTag(condition.written));
  };
}

const ID = /^[A-Za-z0-9][A-Za-z0-9._~-]{0,199}$/;

/**
 * The version of the local record a read names by id or IRI (see `versionOf`), or undefined when this registry
 * holds none there (a peer's record, read from its cache, is that peer's to version).
 */
export async function storedVersion(
  core: Core,
  kind: RecordKind,
  idOrIri: string,
): Promise<string | undefined> {
  const iri = /^https?:\/\//.test(idOrIri)
    ? idOrIri
    : ID.test(idOrIri)
      ? `${core.config.baseIri}/${RECORD_KINDS[kind].segment}/${idOrIri}`
      : undefined;
  if (iri === undefined) return undefined;
  const text = await core.graph.readRecord(GRAPHS.local, iri);
  return text === undefined ? undefined : versionOf(text);
}

/** Whether a GET's `If-None-Match` names the representation tagged `tag`; a malformed header is ignored. */
export function notModified(c: Context<AppEnv>, tag: string): boolean {
  try {
    const tags = parseTagList(c.req.header('if-none-match'), 'If-None-Match');
    return tags !== undefined && noneMatchNames(tags, tag);
  } catch {
    return false;
  }
}
