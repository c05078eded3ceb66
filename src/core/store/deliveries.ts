import type { Database } from './database.js';

/** Where a delivery stands: not yet delivered, failed and to be retried, given up, or delivered. */
export type DeliveryStatus = 'pending' | 'failed' | 'dead' | 'delivered';

/** One queued delivery: an artifact that matched a subscription. */
export interface DeliveryRow {
  /** The pull cursor: increases with every queued delivery, never reused. */
  readonly seq: number;
  /** Sent as `x-reg-delivery`. */
  readonly id: string;
  readonly subscription_id: string;
  readonly artifact_iri: string;
  readonly run_iri: string | null;
  readonly role: 'produced' | 'consumed';
  /** The deployment that advertised the artifact, and its software. */
  readonly instance_iri: string | null;
  readonly software_iri: string | null;
  readonly matched_at: string;
  readonly status: DeliveryStatus;
  readonly attempts: number;
  readonly last_attempt_at: string | null;
  /** Set only while the webhook worker should try this delivery. */
  readonly next_attempt_at: string | null;
  readonly last_error: string | null;
  readonly last_status: number | null;
  readonly delivered_at: string | null;
  /** The event body as JSON text, fixed the first time the delivery is read or sent. */
  readonly notification: string | null;
}

/** A delivery as queued by the advertising path. */
export type NewDelivery = Pick<
  DeliveryRow,
  | 'id'
  | 'subscription_id'
  | 'artifact_iri'
  | 'run_iri'
  | 'role'
  | 'instance_iri'
  | 'software_iri'
  | 'matched_at'
  | 'next_attempt_at'
>;

/** A delivery due for a webhook attempt, with what the attempt needs of its subscription. */
export interface DueDelivery extends DeliveryRow {
  readonly webhook_url: string;
  readonly webhook_secret: string;
}

/** Counts of a subscription's deliveries by state. */
export interface DeliveryCounts {
  readonly pending: number;
  readonly failed: number;
  readonly dead: number;
  readonly unacked: number;
}

const COLUMNS = `seq, id, subscription_id, artifact_iri, run_iri, role, instance_iri, software_iri, matched_at,
  status, attempts, last_attempt_at, next_attempt_at, last_error, last_status, delivered_at, notification`;
const JOINED_COLUMNS = COLUMNS.split(',')
  .map((column) => `d.${column.trim()}`)
  .join(', ');

/** Queues a delivery; call it inside the transaction of the advertisement that matched. */
export function insertDelivery(db: Database, row: NewDelivery): void {
  db.prepare(
    `INSERT INTO delivery (id, subscription_id, artifact_iri, run_iri, role, instance_iri, software_iri,
      matched_at, next_attempt_at)
     VALUES (@id, @subscription_id, @artifact_iri, @run_iri, @role, @instance_iri, @software_iri, @matched_at,
      @next_attempt_at)`,
  ).run(row);
}

/** The deliveries of a subscription after `cursor`, oldest first. */
export function deliveriesAfter(
  db: Database,
  subscription: string,
  cursor: number,
  limit: number,
): DeliveryRow[] {
  return db
    .prepare(`SELECT ${COLUMNS} FROM delivery WHERE subscription_id = ? AND seq > ? ORDER BY seq LIMIT ?`)
    .all(subscription, cursor, limit) as DeliveryRow[];
}

/** How many deliveries of a subscription come after `cursor`. */
export function countDeliveriesAfter(db: Database, subscription: string, cursor: number): number {
  return (
    db
      .prepare('SELECT count(*) AS n FROM delivery WHERE subscription_id = ? AND seq > ?')
      .get(subscription, cursor) as {
      n: number;
    }
  ).n;
}

/** The sequence number of a subscription's newest delivery, 0 when it has none. */
export function newestDeliverySeq(db: Database, subscription: string): number {
  const row = db
    .prepare('SELECT max(seq) AS seq FROM delivery WHERE subscription_id = ?')
    .get(subscription) as {
    seq: number | null;
  };
  return row.seq ?? 0;
}

/** The newest deliveries of a subscription, newest first: its delivery log. */
export function recentDeliveries(db: Database, subscription: string, limit: number): DeliveryRow[] {
  return db
    .prepare(`SELECT ${COLUMNS} FROM delivery WHERE subscription_id = ? ORDER BY seq DESC LIMIT ?`)
    .all(subscription, limit) as DeliveryRow[];
}

/** Counts a subscription's deliveries by state; `unacked` counts those after the acknowledged cursor. */
export function countDeliveries(db: Database, subscription: string, cursor: number): DeliveryCounts {
  const row = db
    .prepare(
      `SELECT coalesce(sum(status = 'pending'), 0) AS pending, coalesce(sum(status = 'failed'), 0) AS failed,
         coalesce(sum(status = 'dead'), 0) AS dead, coalesce(sum(seq > ?), 0) AS unacked
       FROM delivery WHERE subscription_id = ?`,
    )
    .get(cursor, subscription) as DeliveryCounts;
  return row;
}

/** Fixes the event body of a delivery, unless it was fixed already. */
export function setNotification(db: Database, seq: number, notification: string): void {
  db.prepare('UPDATE delivery SET notification = ? WHERE seq = ? AND notification IS NULL').run(
    notification,
    seq,
  );
}

/** The body of a delivery as fixed, or undefined when it is not fixed yet. */
export function notificationOf(db: Database, seq: number): string | undefined {
  const row = db.prepare('SELECT notification FROM delivery WHERE seq = ?').get(seq) as
    { notification: string | null } | undefined;
  return row?.notification ?? undefined;
}

/**
 * Deliveries due for a webhook attempt at `now`, oldest due first, of enabled subscriptions whose webhook is
 * active. Rows of other subscriptions have no `next_attempt_at`, so they are never scanned.
 */
export function dueDeliveries(db: Database, now: string, limit: number): DueDelivery[] {
  return db
    .prepare(
      `SELECT ${JOINED_COLUMNS}, s.webhook_url, s.webhook_secret
       FROM delivery d JOIN subscription s ON s.id = d.subscription_id
       WHERE d.next_attempt_at IS NOT NULL AND d.next_attempt_at <= ?
         AND s.enabled = 1 AND s.delivery_state = 'active'
         AND s.webhook_url IS NOT NULL AND s.webhook_secret IS NOT NULL
       ORDER BY d.next_attempt_at, d.seq LIMIT ?`,
    )
    .all(now, limit) as DueDelivery[];
}

/** Records a successful webhook attempt. */
export function markDelivered(db: Database, seq: number, at: string, status: number): void {
  db.prepare(
    `UPDATE delivery SET status = 'delivered', attempts = attempts + 1, last_attempt_at = @at,
       next_attempt_at = NULL, last_status = @status, last_error = NULL, delivered_at = coalesce(delivered_at, @at)
     WHERE seq = @seq`,
  ).run({ seq, at, status });
}

/**
 * Records a failed webhook attempt: retried at `retryAt`, or dead when `retryAt` is null. A delivery acknowledged
 * by a pull while the attempt was under way stays delivered.
 */
export function markAttemptFailed(
  db: Database,
  seq: number,
  outcome: { at: string; retryAt: string | null; error: string; status: number | null },
): void {
  db.prepare(
    `UPDATE delivery SET attempts = attempts + 1, last_attempt_at = @at, last_error = @error,
       last_status = @status, status = CASE WHEN @retryAt IS NULL THEN 'dead' ELSE 'failed' END,
       next_attempt_at = @retryAt
     WHERE seq = @seq AND status IN ('pending', 'failed')`,
  ).run({ seq, ...outcome });
}

/** Marks every delivery of a subscription up to `cursor` delivered: the puller has them. */
export function acknowledgeDeliveries(db: Database, subscription: string, cursor: number, at: string): void {
  db.prepare(
    `UPDATE delivery SET status = 'delivered', next_attempt_at = NULL, delivered_at = coalesce(delivered_at, ?)
     WHERE subscription_id = ? AND seq <= ? AND status <> 'delivered'`,
  ).run(at, subscription, cursor);
}

/** Schedules every undelivered, unscheduled delivery of a subscription for a webhook attempt at `at`. */
export function scheduleDeliveries(db: Database, subscription: string, at: string): void {
  db.prepare(
    `UPDATE delivery SET next_attempt_at = ?
     WHERE subscription_id = ? AND status IN ('pending', 'failed') AND next_attempt_at IS NULL`,
  ).run(at, subscription);
}

/** Takes every delivery of a subscription off the webhook schedule (pull still serves them). */
export function unscheduleDeliveries(db: Database, subscription: string): void {
  db.prepare(
    'UPDATE delivery SET next_attempt_at = NULL WHERE subscription_id = ? AND next_attempt_at IS NOT NULL',
  ).run(subscription);
}

/** Re-arms failed and dead deliveries of a subscription (and unscheduled pending ones) for an attempt at `at`. */
export function rearmDeliveries(db: Database, subscription: string, at: string): number {
  return db
    .prepare(
      `UPDATE delivery SET status = 'pending', next_attempt_at = ?
       WHERE subscription_id = ? AND (status IN ('failed', 'dead') OR (status = 'pending' AND next_attempt_at IS NULL))`,
    )
    .run(at, subscription).changes;
}
