import type { Database } from './database.js';

/** One administrator token as stored: never the token, only its SHA-256. */
export interface AdminTokenRow {
  readonly id: string;
  readonly digest: Buffer;
  readonly label: string;
  readonly created_at: string;
}

/** Stores an administrator token's digest. */
export function insertAdminToken(db: Database, row: AdminTokenRow): void {
  db.prepare('INSERT INTO admin_token (id, digest, label, created_at) VALUES (?, ?, ?, ?)').run(
    row.id,
    row.digest,
    row.label,
    row.created_at,
  );
}

/** The live administrator token whose SHA-256 is `digest`, if any. */
export function findAdminToken(db: Database, digest: Buffer): { id: string } | undefined {
  return db.prepare('SELECT id FROM admin_token WHERE digest = ? AND revoked_at IS NULL').get(digest) as
    { id: string } | undefined;
}

/** How many administrator tokens were ever created. */
export function countAdminTokens(db: Database): number {
  return (db.prepare('SELECT count(*) AS n FROM admin_token').get() as { n: number }).n;
}
