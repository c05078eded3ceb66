import type { HttpClient } from './http.js';
import { LookupError } from './runs.js';
import type { Column } from './table.js';

/** One name of some content, in one form (`ni`, `hash-uri`, `hex`, `oci`, `digest-set`, `swhid`). */
export interface ContentAliasJson {
  readonly form: string;
  readonly name: string;
}

/** A record holding the content: a distribution of an artifact, or a release. */
export interface ContentMatchJson {
  readonly kind: 'distribution' | 'release';
  readonly iri: string;
  readonly artifact?: string;
  readonly id: string;
  readonly title?: string;
  readonly origin: { readonly kind: string; readonly peer_id?: string };
  readonly matched: readonly { readonly field: string; readonly value: string }[];
}

/** The answer of `GET /api/v1/identify`, which is also the result of `reg identify`. */
export interface ContentIdentityJson {
  readonly id: string;
  readonly form: string;
  readonly content_identifier?: string;
  readonly digests: readonly { readonly algorithm: string; readonly hex: string }[];
  readonly swhids: readonly string[];
  readonly aliases: readonly ContentAliasJson[];
  readonly matches: readonly ContentMatchJson[];
  readonly total: number;
}

/**
 * Asks the registry which records hold the content a name names (`GET /api/v1/identify?id=`). A name the
 * registry cannot read is its 400 (exit 8); a name nothing holds is a 404 LookupError (exit 7) naming it.
 */
export async function identifyName(http: HttpClient, name: string): Promise<ContentIdentityJson> {
  const answer = await http.request<ContentIdentityJson>('GET', '/api/v1/identify', { query: { id: name } });
  if (answer.total === 0)
    throw new LookupError(404, 'not-found', `nothing in this registry holds the content ${name} names`);
  return answer;
}

/** Columns of `reg identify`: one row per distribution or release holding the content. */
export const CONTENT_MATCH_COLUMNS: readonly Column<ContentMatchJson>[] = [
  { header: 'KIND', value: (row) => row.kind, priority: 0 },
  { header: 'TITLE', value: (row) => row.title, min: 16 },
  {
    header: 'MATCHED',
    value: (row) => row.matched.map((name) => `${name.field}=${name.value}`).join(' '),
    min: 20,
  },
  { header: 'ORIGIN', value: (row) => row.origin.peer_id ?? row.origin.kind, priority: 3 },
  { header: 'ID', value: (row) => row.id, min: 36, kind: 'id' },
  { header: 'IRI', value: (row) => row.iri, kind: 'iri', hidden: true },
];
