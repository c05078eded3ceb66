import type { Database } from './database.js';

/** Who did something, as the audit log records it. */
export type ActorKind =
  'anonymous' | 'root-token' | 'instance-token' | 'oidc-workload' | 'oidc-human' | 'system';

/** One audit entry to append. */
export interface AuditInput {
  readonly actor: string | null;
  readonly actorKind: ActorKind;
  readonly action: string;
  readonly target: string | null;
  readonly detail?: string | null;
  readonly remoteAddr?: string | null;
  readonly requestId?: string | null;
  readonly at?: string;
}

/** One audit entry as read back. */
export interface AuditEntry {
  readonly id: number;
  readonly at: string;
  readonly actor: string | null;
  readonly actor_kind: ActorKind;
  readonly action: string;
  readonly target: string | null;
  readonly detail: string | null;
}

/** Appends an audit entry; call it inside the transaction of the write it describes. */
export function appendAudit(db: Database, entry: AuditInput): void {
  db.prepare(
    `INSERT INTO audit (at, actor, actor_kind, action, target, detail, remote_addr, request_id)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    entry.at ?? new Date().toISOString(),
    entry.actor,
    entry.actorKind,
    entry.action,
    entry.target,
    entry.detail ?? null,
    entry.remoteAddr ?? null,
    entry.requestId ?? null,
  );
}

/** Reads entries newest first, optionally only those older than the entry `before` and of one action. */
export function listAudit(
  db: Database,
  options: { limit: number; before?: number; action?: string },
): AuditEntry[] {
  return db
    .prepare(
      `SELECT id, at, actor, actor_kind, action, target, detail FROM audit
       WHERE (@before IS NULL OR id < @before) AND (@action IS NULL OR action = @action)
       ORDER BY id DESC LIMIT @limit`,
    )
    .all({
      before: options.before ?? null,
      action: options.action ?? null,
      limit: options.limit,
    }) as AuditEntry[];
}
