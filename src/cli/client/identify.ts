import type { ContentIdentity, ContentMatchJson } from '../../api/index.js';
import type { HttpClient } from './http.js';
import { LookupError } from './runs.js';
import type { Column } from './table.js';

/**
 * Asks the registry which records hold the content a name names (`GET /api/v1/identify?id=`). A name the
 * registry cannot read is its 400 (exit 8); a name nothing holds is a 404 LookupError (exit 7) naming it.
 */
export async function identifyName(http: HttpClient, name: string): Promise<ContentIdentity> {
  const answer = await http.request<ContentIdentity>('GET', '/api/v1/identify', { query: { id: name } });
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
