/**
 * Peer registries as administrators see them: the peer list, suggestions awaiting review (from announcements and
 * from the peers of peers), and removal, which drops everything cached from the peer.
 */
import { requireAdmin } from '../access/policy.js';
import type { Principal } from '../access/principal.js';
import { BadRequestError, NotFoundError } from '../errors.js';
import { PEER_GRAPH_PREFIX } from '../ns.js';
import { appendAudit } from '../store/audit.js';
import { ownerOf } from '../store/nquads.js';
import {
  countPeersIn,
  deletePeer,
  findPeer,
  findPeerByBase,
  insertPeer,
  listPeerRows,
  orphanPeerIris,
  peerIdTaken,
  resolvedFrom,
  setPeerState,
  type PeerRow,
  type PeerState,
} from '../store/peers.js';
import type { Database } from '../store/database.js';
import type { Core } from '../core.js';
import { normaliseBaseIri } from './peer-http.js';
import { commitAct, type Act } from '../stored/write-path.js';
import type { Peer, PeerList } from '../../api/operations.js';

/** A peer with no successful contact for this long (from `last_seen_at`, else `added_at`) is stale. */
export const STALE_AFTER_MS = 90 * 86_400_000;

/** At most this many suggestions wait for review; announcements beyond it are turned away. */
export const MAX_SUGGESTIONS = 500;

/** The sentence given for a foreign IRI no active peer covers. */
export const NO_PEER_REASON =
  'no active peer has a base IRI that prefixes it; an administrator can add its registry (POST /api/v1/peers)';

/** A peer as the API returns it (contract §3.14), and a list of peers: declared in `src/api`. */
export type PeerRecord = Peer;
export type { PeerList };

/** The named graph holding a peer's cached stubs. */
export function peerGraph(id: string): string {
  return `${PEER_GRAPH_PREFIX}${id}`;
}

/** Whether a peer has not been reached successfully for 90 days. */
export function isStale(row: PeerRow, now: Date = new Date()): boolean {
  const since = Date.parse(row.last_seen_at ?? row.added_at);
  return Number.isFinite(since) && now.getTime() - since > STALE_AFTER_MS;
}

/** Records cached in a graph, counted by the graph store. */
async function countCached(core: Core, graph: string): Promise<number> {
  let total = 0;
  for (const count of (await core.graph.countByKind(graph)).values()) total += count;
  return total;
}

/** The API form of a peer row. */
export async function presentPeer(core: Core, row: PeerRow, now: Date = new Date()): Promise<PeerRecord> {
  return {
    id: row.id,
    base_iri: row.base_iri,
    title: row.title,
    operator: row.operator,
    added_at: row.added_at,
    last_seen_at: row.last_seen_at,
    resolve_status: row.resolve_status,
    last_error: row.last_error,
    record_count: await countCached(core, peerGraph(row.id)),
    state: row.state,
    suggested_by: row.suggested_by,
    software_version: row.software_version,
    stale: isStale(row, now),
  };
}

const STATES: readonly (PeerState | 'all')[] = ['active', 'suggested', 'dismissed', 'all'];

/** `GET /api/v1/peers` (administrators): active peers, or those in `state` (`suggested`, `dismissed`, `all`). */
export async function listPeers(core: Core, principal: Principal, state?: string): Promise<PeerList> {
  requireAdmin(principal);
  const wanted = state === undefined || state === '' ? 'active' : state;
  if (!(STATES as readonly string[]).includes(wanted))
    throw new BadRequestError(`state must be one of ${STATES.join(', ')}, got "${wanted}"`);
  const rows = listPeerRows(core.db, wanted === 'all' ? undefined : (wanted as PeerState));
  const now = new Date();
  const items = await Promise.all(rows.map((row) => presentPeer(core, row, now)));
  return { items, total: items.length };
}

/** `GET /api/v1/peers/suggested` (administrators): registries suggested for review. */
export function listSuggestedPeers(core: Core, principal: Principal): Promise<PeerList> {
  return listPeers(core, principal, 'suggested');
}

/** Active peers, oldest first. */
export function activePeers(core: Core): PeerRow[] {
  return listPeerRows(core.db, 'active');
}

/** The active peer whose base IRI prefixes `iri` (the longest, when bases nest), if any. */
export function peerCovering(core: Core, iri: string): PeerRow | undefined {
  let best: PeerRow | undefined;
  for (const row of activePeers(core)) {
    if (
      iri.startsWith(`${row.base_iri}/`) &&
      (best === undefined || row.base_iri.length > best.base_iri.length)
    )
      best = row;
  }
  return best;
}

/** A record cached from a peer: the graph holding it, its N-Quads and the peer. */
export interface CachedRecord {
  readonly graph: string;
  readonly nquads: string;
  readonly peer: PeerRow;
}

/**
 * The stub cached for a foreign IRI (or for the record it is a fragment of), if any: stubs live only in the graph
 * of the active peer whose base IRI covers them.
 */
export async function cachedRecord(core: Core, iri: string): Promise<CachedRecord | undefined> {
  const peer = peerCovering(core, iri);
  if (peer === undefined) return undefined;
  const graph = peerGraph(peer.id);
  const nquads = await core.graph.readRecord(graph, ownerOf(iri));
  return nquads === undefined ? undefined : { graph, nquads, peer };
}

/** The records cached from a peer: those its resolutions wrote, and any other record its graph holds. */
function cachedSubjects(core: Core, row: PeerRow): string[] {
  const graph = peerGraph(row.id);
  const subjects = new Set(resolvedFrom(core.db, row.id).map(ownerOf));
  const held = core.db
    .prepare(`SELECT subject FROM ${core.graph.recordTables.records} WHERE graph = ?`)
    .pluck()
    .all(graph) as string[];
  for (const subject of held) subjects.add(subject);
  return [...subjects].sort();
}

/** The peers the well-known description lists: active ones only. */
export function wellKnownPeers(core: Core): { base_iri: string; title: string | null }[] {
  return activePeers(core).map((row) => ({ base_iri: row.base_iri, title: row.title }));
}

/** A readable id for a peer from its base IRI (`reg.example.org`, `127.0.0.1-8081`), unique among peers. */
export function mintPeerId(db: Database, baseIri: string): string {
  const url = new URL(baseIri);
  const raw = `${url.hostname}${url.port === '' ? '' : `-${url.port}`}${url.pathname === '/' ? '' : url.pathname}`;
  const stem =
    raw
      .toLowerCase()
      .replace(/[^a-z0-9.]+/g, '-')
      .replace(/^[-.]+|[-.]+$/g, '')
      .slice(0, 60) || 'peer';
  let id = stem;
  for (let n = 2; peerIdTaken(db, id); n++) id = `${stem}-${n}`;
  return id;
}

/** Whether `baseIri` (normalised) is this registry's own. */
export function isOwnBase(core: Core, baseIri: string): boolean {
  return normaliseBaseIri(core.config.baseIri) === baseIri;
}

/**
 * Records a suggestion for review unless the registry is known already, is this one, or the list is full; call it
 * inside a transaction. Returns whether a row was added.
 */
export function suggestPeer(
  core: Core,
  candidate: { base_iri: string; title?: string | undefined; operator?: string | undefined },
  suggestedBy: string,
  at: string,
): boolean {
  if (isOwnBase(core, candidate.base_iri) || findPeerByBase(core.db, candidate.base_iri) !== undefined)
    return false;
  if (countPeersIn(core.db, 'suggested') >= MAX_SUGGESTIONS) return false;
  insertPeer(core.db, {
    id: mintPeerId(core.db, candidate.base_iri),
    base_iri: candidate.base_iri,
    title: candidate.title ?? null,
    operator: candidate.operator ?? null,
    state: 'suggested',
    added_at: at,
    last_seen_at: null,
    resolve_status: 'unknown',
    last_error: null,
    suggested_by: suggestedBy,
    software_version: null,
    described_at: null,
    last_contact_at: null,
  });
  return true;
}

/**
 * `DELETE /api/v1/peers/{id}` (administrators): an active or suggested peer is dismissed, and everything cached
 * from it is dropped from its graph through the graph store; a dismissed peer is forgotten. IRIs it held wait,
 * unresolved, for a peer that covers them.
 */
export async function removePeer(core: Core, act: Act, id: string): Promise<void> {
  requireAdmin(act.principal);
  const row = findPeer(core.db, id);
  if (row === undefined) throw new NotFoundError(`no peer ${id}`);
  const graph = peerGraph(row.id);
  const writes = cachedSubjects(core, row).map((subject) => ({ graph, subject, quads: null }));
  const at = act.now;
  await commitAct(core, writes, () => {
    if (row.state === 'dismissed') deletePeer(core.db, row.id);
    else setPeerState(core.db, row.id, 'dismissed');
    orphanPeerIris(core.db, row.id, at);
    appendAudit(core.db, {
      actor: act.principal.subject,
      actorKind: act.principal.actorKind,
      action: 'peer.remove',
      target: row.base_iri,
      detail:
        row.state === 'dismissed'
          ? 'forgotten'
          : `dismissed; ${writes.length} cached record${writes.length === 1 ? '' : 's'} dropped`,
      requestId: act.requestId ?? null,
    });
  });
}
