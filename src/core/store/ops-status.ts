import type { Database } from './database.js';

/** A trivial query proving the operational database answers. */
export function pingOps(db: Database): void {
  db.prepare('SELECT 1').get();
}

/** Peers configured and, of those, how many failed their last contact. */
export function countPeers(db: Database): { configured: number; failing: number } {
  const row = db
    .prepare(
      `SELECT count(*) AS configured, coalesce(sum(CASE WHEN resolve_status = 'error' THEN 1 ELSE 0 END), 0) AS failing
       FROM peer WHERE state = 'active'`,
    )
    .get() as { configured: number; failing: number };
  return row;
}
