import type { HttpClient } from './http.js';
import type { Column } from './table.js';
import type { AddedPeer, Peer, PeerList, PeerPreview } from '../../api/index.js';

/** The peer shapes are the API's own answer types (contract §3.3, §3.14). */
export type PeerJson = Peer;
export type PeerListJson = PeerList;
export type AddedPeerJson = AddedPeer;
export type PeerPreviewJson = PeerPreview;

/** What `reg peers remove` prints under --json: the API answers 204, so the command reports what it did. */
export interface RemovePeerResult {
  readonly id: string;
  readonly removed: true;
}

/** The review states a peer list can be asked for. */
export const PEER_STATES = ['active', 'suggested', 'dismissed', 'all'] as const;

/** Columns of `reg peers list`: the title first, the id (a host name) last. */
export const PEER_COLUMNS: readonly Column<PeerJson>[] = [
  { header: 'TITLE', value: (row) => row.title ?? undefined, min: 10, priority: 0 },
  { header: 'BASE IRI', value: (row) => row.base_iri, min: 20, priority: 1 },
  { header: 'STATE', value: (row) => row.state, kind: 'status', priority: 1 },
  {
    header: 'CONTACT',
    value: (row) => (row.stale ? `${row.resolve_status} (stale)` : row.resolve_status),
    kind: 'status',
    priority: 2,
  },
  { header: 'LAST SEEN', value: (row) => row.last_seen_at ?? 'never', priority: 3 },
  { header: 'RECORDS', value: (row) => String(row.record_count), priority: 3 },
  { header: 'ID', value: (row) => row.id, priority: 1 },
];

/** Peer administration over HTTP (administrators only). */
export class PeerClient {
  constructor(readonly http: HttpClient) {}

  /** Adds a peer after the registry has read its description; with `preview`, only reads it. */
  add(body: {
    base_iri: string;
    preview?: boolean;
    announce?: boolean;
  }): Promise<AddedPeerJson | PeerPreviewJson> {
    return this.http.request<AddedPeerJson | PeerPreviewJson>('POST', '/api/v1/peers', { body });
  }

  /** Lists peers in one review state. */
  list(state: (typeof PEER_STATES)[number]): Promise<PeerListJson> {
    return this.http.request<PeerListJson>('GET', '/api/v1/peers', { query: { state } });
  }

  /** Dismisses a peer (dropping what was cached from it), or forgets a dismissed one. */
  async remove(id: string): Promise<RemovePeerResult> {
    await this.http.request('DELETE', `/api/v1/peers/${encodeURIComponent(id)}`);
    return { id, removed: true };
  }
}
