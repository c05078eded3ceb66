import { listAudit, type AuditEntry } from '../store/audit.js';
import type { Core } from '../core.js';

/** A page of the audit log, newest first. */
export interface AuditPage {
  readonly items: readonly Omit<AuditEntry, 'id'>[];
  /** Pass as `cursor` to read the next, older page; absent on the last page. */
  readonly next_cursor?: number;
}

const DEFAULT_LIMIT = 100;
const MAX_LIMIT = 1000;

/** Reads the audit log newest first; `limit` is clamped to 1–1000 (default 100). */
export function listAuditEntries(
  core: Core,
  options: { limit?: number; cursor?: number; action?: string } = {},
): AuditPage {
  const limit = Math.min(MAX_LIMIT, Math.max(1, options.limit ?? DEFAULT_LIMIT));
  const rows = listAudit(core.db, {
    limit: limit + 1,
    ...(options.cursor === undefined ? {} : { before: options.cursor }),
    ...(options.action === undefined ? {} : { action: options.action }),
  });
  const page = rows.slice(0, limit);
  const items = page.map(({ id: _id, ...entry }) => entry);
  const last = page.at(-1);
  return rows.length > limit && last !== undefined ? { items, next_cursor: last.id } : { items };
}
