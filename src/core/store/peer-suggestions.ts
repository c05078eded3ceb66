/**
 * Suggested peers as announcements leave them: who announced each (its network), and the rows the bounds on
 * announcements count, expire and evict. Call these inside the transaction that audits the announcement.
 */
import type { Database } from './database.js';
import type { PeerRow } from './peers.js';

/** A suggestion an announcement made, with the network it came from. */
export interface AnnouncedRow {
  readonly id: string;
  readonly base_iri: string;
  readonly added_at: string;
  readonly announced_from: string;
}

/** Notes the network an announced suggestion came from. */
export function markAnnounced(db: Database, baseIri: string, from: string): void {
  db.prepare('UPDATE peer SET announced_from = ? WHERE base_iri = ?').run(from, baseIri);
}

/** Forgets suggestions nobody reviewed since before `before`; returns their base IRIs. */
export function expireSuggestions(db: Database, before: string): string[] {
  const rows = db
    .prepare(`DELETE FROM peer WHERE state = 'suggested' AND added_at < ? RETURNING base_iri`)
    .all(before) as { base_iri: string }[];
  return rows.map((row) => row.base_iri);
}

/** Unreviewed suggestions announced from one network, oldest first. */
export function announcedBy(db: Database, from: string): AnnouncedRow[] {
  return db
    .prepare(
      `SELECT id, base_iri, added_at, announced_from FROM peer
       WHERE state = 'suggested' AND announced_from = ? ORDER BY added_at, id`,
    )
    .all(from) as AnnouncedRow[];
}

/** Every unreviewed suggestion, oldest first (there are a few hundred at most). */
export function suggestedRows(db: Database): (PeerRow & { announced_from: string | null })[] {
  return db
    .prepare(`SELECT * FROM peer WHERE state = 'suggested' ORDER BY added_at, id`)
    .all() as (PeerRow & { announced_from: string | null })[];
}

/**
 * The oldest unreviewed suggestion of the network that announced the most of them (ties: the network whose
 * oldest is oldest), or undefined when no suggestion came from an announcement.
 */
export function oldestOfBusiestAnnouncer(db: Database): AnnouncedRow | undefined {
  return db
    .prepare(
      `SELECT id, base_iri, added_at, announced_from FROM peer
       WHERE state = 'suggested' AND announced_from = (
         SELECT announced_from FROM peer WHERE state = 'suggested' AND announced_from IS NOT NULL
         GROUP BY announced_from ORDER BY count(*) DESC, min(added_at) LIMIT 1)
       ORDER BY added_at, id LIMIT 1`,
    )
    .get() as AnnouncedRow | undefined;
}
