/**
 * Peers, the queue of foreign IRIs to resolve, and federated query ids: operational rows that never enter the
 * graph, so they do not federate.
 */
import type { Database } from './database.js';

/** Review state of a peer: asked by an administrator, suggested for review, or turned down. */
export type PeerState = 'active' | 'suggested' | 'dismissed';

/** Outcome of the last contact with a peer. */
export type PeerContact = 'ok' | 'error' | 'unknown';

/** One peer row. */
export interface PeerRow {
  readonly id: string;
  readonly base_iri: string;
  readonly title: string | null;
  readonly operator: string | null;
  readonly state: PeerState;
  readonly added_at: string;
  /** Last successful contact. */
  readonly last_seen_at: string | null;
  readonly resolve_status: PeerContact;
  readonly last_error: string | null;
  readonly suggested_by: string | null;
  readonly software_version: string | null;
  /** When its well-known description was last read. */
  readonly described_at: string | null;
  /** Last contact attempt, successful or not. */
  readonly last_contact_at: string | null;
}

/** Inserts a peer row; call it inside the transaction that audits it. */
export function insertPeer(db: Database, row: PeerRow): void {
  db.prepare(
    `INSERT INTO peer (id, base_iri, title, operator, state, added_at, last_seen_at, resolve_status, last_error,
       suggested_by, software_version, described_at, last_contact_at)
     VALUES (@id, @base_iri, @title, @operator, @state, @added_at, @last_seen_at, @resolve_status, @last_error,
       @suggested_by, @software_version, @described_at, @last_contact_at)`,
  ).run(row);
}

/** Makes a known peer active with what its description says; call it inside the audited transaction. */
export function activatePeer(
  db: Database,
  id: string,
  fields: Pick<PeerRow, 'title' | 'operator' | 'software_version' | 'described_at' | 'last_seen_at'>,
): void {
  db.prepare(
    `UPDATE peer SET state = 'active', title = @title, operator = @operator, software_version = @software_version,
       described_at = @described_at, last_seen_at = @last_seen_at, last_contact_at = @last_seen_at,
       resolve_status = 'ok', last_error = NULL
     WHERE id = @id`,
  ).run({ id, ...fields });
}

/** Sets the review state of a peer. */
export function setPeerState(db: Database, id: string, state: PeerState): void {
  db.prepare('UPDATE peer SET state = ? WHERE id = ?').run(state, id);
}

/** Forgets a peer altogether. */
export function deletePeer(db: Database, id: string): void {
  db.prepare('DELETE FROM peer WHERE id = ?').run(id);
}

/** One peer by id. */
export function findPeer(db: Database, id: string): PeerRow | undefined {
  return db.prepare('SELECT * FROM peer WHERE id = ?').get(id) as PeerRow | undefined;
}

/** One peer by base IRI, whatever its state. */
export function findPeerByBase(db: Database, baseIri: string): PeerRow | undefined {
  return db.prepare('SELECT * FROM peer WHERE base_iri = ?').get(baseIri) as PeerRow | undefined;
}

/** Peers in one state (all states when absent), oldest first. */
export function listPeerRows(db: Database, state?: PeerState): PeerRow[] {
  return (
    state === undefined
      ? db.prepare('SELECT * FROM peer ORDER BY added_at, id').all()
      : db.prepare('SELECT * FROM peer WHERE state = ? ORDER BY added_at, id').all(state)
  ) as PeerRow[];
}

/** How many peers are in one state. */
export function countPeersIn(db: Database, state: PeerState): number {
  return (db.prepare('SELECT count(*) AS n FROM peer WHERE state = ?').get(state) as { n: number }).n;
}

/** Whether a peer id is taken. */
export function peerIdTaken(db: Database, id: string): boolean {
  return db.prepare('SELECT 1 FROM peer WHERE id = ?').get(id) !== undefined;
}

/** Records a successful contact with a peer. */
export function recordPeerSuccess(db: Database, id: string, at: string): void {
  db.prepare(
    `UPDATE peer SET last_seen_at = ?, last_contact_at = ?, resolve_status = 'ok', last_error = NULL WHERE id = ?`,
  ).run(at, at, id);
}

/** Records a failed contact with a peer and why it failed. */
export function recordPeerFailure(db: Database, id: string, at: string, error: string): void {
  db.prepare(
    `UPDATE peer SET last_contact_at = ?, resolve_status = 'error', last_error = ? WHERE id = ?`,
  ).run(at, error, id);
}

/** Updates what a peer's well-known description says about it. */
export function recordPeerDescription(
  db: Database,
  id: string,
  fields: Pick<PeerRow, 'title' | 'operator' | 'software_version'>,
  at: string,
): void {
  db.prepare(
    `UPDATE peer SET title = @title, operator = @operator, software_version = @software_version,
       described_at = @at WHERE id = @id`,
  ).run({ id, at, ...fields });
}

/** Marks that a peer's description was read (or tried), whatever it said. */
export function markPeerDescribed(db: Database, id: string, at: string): void {
  db.prepare('UPDATE peer SET described_at = ? WHERE id = ?').run(at, id);
}

/** Active peers whose description was last read before `before` (or never), oldest first. */
export function peersToDescribe(db: Database, before: string, limit: number): PeerRow[] {
  return db
    .prepare(
      `SELECT * FROM peer WHERE state = 'active' AND (described_at IS NULL OR described_at < ?)
       ORDER BY coalesce(described_at, ''), id LIMIT ?`,
    )
    .all(before, limit) as PeerRow[];
}

/** Where resolution of one foreign IRI stands. */
export type ResolveStatus = 'queued' | 'resolved' | 'failed' | 'no-peer';

/** One row of the resolution queue. */
export interface ResolveRow {
  readonly iri: string;
  readonly queued_at: string;
  readonly attempts: number;
  readonly next_attempt_at: string | null;
  readonly last_error: string | null;
  readonly status: ResolveStatus;
  readonly peer_id: string | null;
  readonly resolved_at: string | null;
  readonly last_attempt_at: string | null;
}

/** The queue row of an IRI. */
export function findResolveRow(db: Database, iri: string): ResolveRow | undefined {
  return db.prepare('SELECT * FROM resolve_queue WHERE iri = ?').get(iri) as ResolveRow | undefined;
}

/** IRIs whose stubs were fetched from a peer (and not dropped since). */
export function resolvedFrom(db: Database, peerId: string): string[] {
  return (
    db
      .prepare('SELECT iri FROM resolve_queue WHERE peer_id = ? AND resolved_at IS NOT NULL ORDER BY iri')
      .all(peerId) as { iri: string }[]
  ).map((row) => row.iri);
}

/**
 * IRIs whose next attempt is due: never tried, retried after a failure, or resolved and due for a refresh.
 * IRIs no peer covers wait until a peer that does is added.
 */
export function dueIris(db: Database, now: string, limit: number): ResolveRow[] {
  return db
    .prepare(
      `SELECT * FROM resolve_queue WHERE status <> 'no-peer' AND (next_attempt_at IS NULL OR next_attempt_at <= ?)
       ORDER BY coalesce(next_attempt_at, queued_at), iri LIMIT ?`,
    )
    .all(now, limit) as ResolveRow[];
}

/** Records a resolution: the stub is in the peer's graph, to be refreshed at `refreshAt`. */
export function markResolved(db: Database, iri: string, peerId: string, at: string, refreshAt: string): void {
  db.prepare(
    `INSERT INTO resolve_queue (iri, queued_at, attempts, next_attempt_at, last_error, status, peer_id, resolved_at,
       last_attempt_at)
     VALUES (@iri, @at, 0, @refreshAt, NULL, 'resolved', @peerId, @at, @at)
     ON CONFLICT (iri) DO UPDATE SET attempts = 0, next_attempt_at = @refreshAt, last_error = NULL,
       status = 'resolved', peer_id = @peerId, resolved_at = @at, last_attempt_at = @at`,
  ).run({ iri, peerId, at, refreshAt });
}

/** Records a failed attempt, to be retried at `retryAt`; a stub fetched before is kept. */
export function markFailed(
  db: Database,
  iri: string,
  peerId: string,
  at: string,
  retryAt: string,
  error: string,
): void {
  db.prepare(
    `INSERT INTO resolve_queue (iri, queued_at, attempts, next_attempt_at, last_error, status, peer_id, last_attempt_at)
     VALUES (@iri, @at, 1, @retryAt, @error, 'failed', @peerId, @at)
     ON CONFLICT (iri) DO UPDATE SET attempts = attempts + 1, next_attempt_at = @retryAt, last_error = @error,
       status = 'failed', peer_id = @peerId, last_attempt_at = @at`,
  ).run({ iri, peerId, at, retryAt, error });
}

/** Records that no active peer covers an IRI: it waits, unresolved, until one is added. */
export function markNoPeer(db: Database, iri: string, at: string, reason: string): void {
  db.prepare(
    `INSERT INTO resolve_queue (iri, queued_at, next_attempt_at, last_error, status, last_attempt_at)
     VALUES (@iri, @at, NULL, @reason, 'no-peer', @at)
     ON CONFLICT (iri) DO UPDATE SET next_attempt_at = NULL, last_error = @reason, status = 'no-peer',
       peer_id = NULL, resolved_at = NULL, last_attempt_at = @at`,
  ).run({ iri, at, reason });
}

/** Makes every waiting IRI under `baseIri` due now (a peer covering them was added). Returns how many. */
export function rearmUnder(db: Database, baseIri: string): number {
  const prefix = `${baseIri}/`;
  return db
    .prepare(
      `UPDATE resolve_queue SET status = 'queued', attempts = 0, next_attempt_at = NULL, last_error = NULL
       WHERE status IN ('no-peer', 'failed') AND substr(iri, 1, length(?)) = ?`,
    )
    .run(prefix, prefix).changes;
}

/** Sends the IRIs a removed peer held back to waiting for a peer. */
export function orphanPeerIris(db: Database, peerId: string, at: string): void {
  db.prepare(
    `UPDATE resolve_queue SET status = 'no-peer', peer_id = NULL, resolved_at = NULL, next_attempt_at = NULL,
       last_error = 'the peer holding it was removed', last_attempt_at = ? WHERE peer_id = ?`,
  ).run(at, peerId);
}

/** How long federated query ids are remembered, and at most how many. */
export const FEDERATED_ID_RETENTION = { ms: 10 * 60_000, rows: 50_000 } as const;

/**
 * Claims a federated query id for this registry: true the first time, false when it was seen before (the
 * query reached this registry again by another path). Ids older than the retention are forgotten first.
 */
export function claimFederatedId(
  db: Database,
  id: string,
  origin: string | null,
  hops: number,
  now: Date,
): { claimed: boolean; firstSeenAt: string } {
  return db.transaction(() => {
    const cutoff = new Date(now.getTime() - FEDERATED_ID_RETENTION.ms).toISOString();
    db.prepare('DELETE FROM federated_query WHERE seen_at < ?').run(cutoff);
    const at = now.toISOString();
    const inserted =
      db
        .prepare('INSERT OR IGNORE INTO federated_query (id, seen_at, origin, hops) VALUES (?, ?, ?, ?)')
        .run(id, at, origin, hops).changes === 1;
    if (inserted) {
      db.prepare(
        `DELETE FROM federated_query WHERE id IN (SELECT id FROM federated_query ORDER BY seen_at DESC LIMIT -1 OFFSET ?)`,
      ).run(FEDERATED_ID_RETENTION.rows);
      return { claimed: true, firstSeenAt: at };
    }
    const row = db.prepare('SELECT seen_at FROM federated_query WHERE id = ?').get(id) as { seen_at: string };
    return { claimed: false, firstSeenAt: row.seen_at };
  });
}
