import type { Database } from './database.js';

/**
 * Operational state of forge sync: forge answers kept with their ETag for conditional requests, the time until
 * which a forge asked not to be called (rate limit), and when each connected software is next due. None of it
 * is part of the graph; credentials are never stored, only the kind of credential an answer was fetched with.
 */

/** A forge answer kept for a conditional request. */
export interface CachedForgeResponse {
  readonly etag: string;
  readonly body: string;
  readonly fetched_at: string;
}

/** The kept answer for a URL fetched with a kind of credential (`anonymous`, `token`), if any. */
export function readForgeResponse(
  db: Database,
  url: string,
  credential: string,
): CachedForgeResponse | undefined {
  return db
    .prepare('SELECT etag, body, fetched_at FROM forge_response WHERE url = ? AND credential = ?')
    .get(url, credential) as CachedForgeResponse | undefined;
}

/** Keeps (or replaces) the answer for a URL and kind of credential. */
export function keepForgeResponse(
  db: Database,
  url: string,
  credential: string,
  response: CachedForgeResponse,
): void {
  db.prepare(
    `INSERT INTO forge_response (url, credential, etag, body, fetched_at) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (url, credential) DO UPDATE SET etag = excluded.etag, body = excluded.body,
       fetched_at = excluded.fetched_at`,
  ).run(url, credential, response.etag, response.body, response.fetched_at);
}

/** Forgets the kept answer for a URL (the forge no longer answers it with content). */
export function dropForgeResponse(db: Database, url: string, credential: string): void {
  db.prepare('DELETE FROM forge_response WHERE url = ? AND credential = ?').run(url, credential);
}

/** A forge's rate-limit answer, as kept until its reset time. */
export interface ForgeLimit {
  readonly limited_until: string;
  readonly reason: string;
}

/** The rate limit in force for a forge API and kind of credential at `now`, if any. */
export function activeForgeLimit(
  db: Database,
  apiBase: string,
  credential: string,
  now: Date,
): ForgeLimit | undefined {
  const row = db
    .prepare('SELECT limited_until, reason FROM forge_limit WHERE api_base = ? AND credential = ?')
    .get(apiBase, credential) as ForgeLimit | undefined;
  return row !== undefined && Date.parse(row.limited_until) > now.getTime() ? row : undefined;
}

/** Records that a forge API asked not to be called with this kind of credential before `until`. */
export function recordForgeLimit(
  db: Database,
  apiBase: string,
  credential: string,
  until: Date,
  reason: string,
): void {
  db.prepare(
    `INSERT INTO forge_limit (api_base, credential, limited_until, reason) VALUES (?, ?, ?, ?)
     ON CONFLICT (api_base, credential) DO UPDATE SET limited_until = excluded.limited_until,
       reason = excluded.reason`,
  ).run(apiBase, credential, until.toISOString(), reason);
}

/** When a software's sync is next due, or undefined when it has never run (due at once). */
export function forgeSyncDueAt(db: Database, software: string): string | undefined {
  const row = db.prepare('SELECT next_due_at FROM forge_sync_due WHERE software = ?').get(software) as
    { next_due_at: string } | undefined;
  return row?.next_due_at;
}

/** Records a sync run of a software and when the next one is due. */
export function recordForgeSyncRun(db: Database, software: string, ranAt: Date, nextDueAt: Date): void {
  db.prepare(
    `INSERT INTO forge_sync_due (software, next_due_at, last_run_at) VALUES (?, ?, ?)
     ON CONFLICT (software) DO UPDATE SET next_due_at = excluded.next_due_at, last_run_at = excluded.last_run_at`,
  ).run(software, nextDueAt.toISOString(), ranAt.toISOString());
}
