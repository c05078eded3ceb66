import type { Database } from './database.js';

/** Whether a subscription's webhook is being tried, or was suspended after too many failures in a row. */
export type DeliveryState = 'active' | 'suspended';

/** One subscription row; the webhook secret never leaves core except in the answer that sets it. */
export interface SubscriptionRow {
  readonly id: string;
  readonly instance_iri: string;
  readonly label: string | null;
  /** The normalised filter as JSON text. */
  readonly filter: string;
  readonly webhook_url: string | null;
  readonly webhook_secret: string | null;
  /** 1 or 0. */
  readonly enabled: number;
  readonly delivery_state: DeliveryState;
  readonly consecutive_failures: number;
  /** The acknowledged pull cursor: every delivery up to this sequence number was acknowledged. */
  readonly cursor_seq: number;
  readonly created_at: string;
  readonly created_by: string | null;
  readonly updated_at: string;
  readonly last_match_at: string | null;
  readonly last_success_at: string | null;
  readonly last_error: string | null;
  readonly last_error_at: string | null;
  readonly last_polled_at: string | null;
}

/** The columns an edit may change. */
export type SubscriptionChange = Partial<
  Pick<
    SubscriptionRow,
    | 'label'
    | 'filter'
    | 'webhook_url'
    | 'webhook_secret'
    | 'enabled'
    | 'delivery_state'
    | 'consecutive_failures'
    | 'updated_at'
  >
>;

/** What the advertising path needs of every enabled subscription. */
export interface MatchableSubscription {
  readonly id: string;
  readonly instance_iri: string;
  readonly filter: string;
  readonly has_webhook: number;
  readonly delivery_state: DeliveryState;
}

const COLUMNS = `id, instance_iri, label, filter, webhook_url, webhook_secret, enabled, delivery_state,
  consecutive_failures, cursor_seq, created_at, created_by, updated_at, last_match_at, last_success_at, last_error,
  last_error_at, last_polled_at`;

const EDITABLE = new Set([
  'label',
  'filter',
  'webhook_url',
  'webhook_secret',
  'enabled',
  'delivery_state',
  'consecutive_failures',
  'updated_at',
]);

/** Inserts a subscription; call it inside the transaction that audits the creation. */
export function insertSubscription(db: Database, row: SubscriptionRow): void {
  db.prepare(
    `INSERT INTO subscription (${COLUMNS}) VALUES (@id, @instance_iri, @label, @filter, @webhook_url,
    @webhook_secret, @enabled, @delivery_state, @consecutive_failures, @cursor_seq, @created_at, @created_by,
    @updated_at, @last_match_at, @last_success_at, @last_error, @last_error_at, @last_polled_at)`,
  ).run(row);
}

/** One subscription by id, or undefined. */
export function findSubscription(db: Database, id: string): SubscriptionRow | undefined {
  return db.prepare(`SELECT ${COLUMNS} FROM subscription WHERE id = ?`).get(id) as
    SubscriptionRow | undefined;
}

/** The subscriptions of a deployment, oldest first. */
export function listSubscriptions(db: Database, instanceIri: string): SubscriptionRow[] {
  return db
    .prepare(`SELECT ${COLUMNS} FROM subscription WHERE instance_iri = ? ORDER BY created_at, id`)
    .all(instanceIri) as SubscriptionRow[];
}

/** How many subscriptions a deployment has. */
export function countSubscriptions(db: Database, instanceIri: string): number {
  return (
    db.prepare('SELECT count(*) AS n FROM subscription WHERE instance_iri = ?').get(instanceIri) as {
      n: number;
    }
  ).n;
}

/** Changes the given columns of one subscription. */
export function updateSubscription(db: Database, id: string, change: SubscriptionChange): void {
  const columns = Object.keys(change).filter((column) => EDITABLE.has(column));
  if (columns.length === 0) return;
  db.prepare(
    `UPDATE subscription SET ${columns.map((column) => `${column} = @${column}`).join(', ')} WHERE id = @id`,
  ).run({ ...change, id });
}

/** Deletes a subscription and (by cascade) its deliveries; returns whether it existed. */
export function deleteSubscription(db: Database, id: string): boolean {
  return db.prepare('DELETE FROM subscription WHERE id = ?').run(id).changes > 0;
}

/** A number that changes whenever any subscription is created, deleted, re-filtered, enabled or disabled. */
export function subscriptionGeneration(db: Database): number {
  return (db.prepare('SELECT n FROM subscription_generation WHERE only = 1').get() as { n: number }).n;
}

/** Every enabled subscription, with what matching and queueing need. */
export function listMatchableSubscriptions(db: Database): MatchableSubscription[] {
  return db
    .prepare(
      `SELECT id, instance_iri, filter, webhook_url IS NOT NULL AS has_webhook, delivery_state
       FROM subscription WHERE enabled = 1 ORDER BY id`,
    )
    .all() as MatchableSubscription[];
}

/** Notes when a subscription last matched an artifact. */
export function touchMatched(db: Database, id: string, at: string): void {
  db.prepare('UPDATE subscription SET last_match_at = ? WHERE id = ?').run(at, id);
}

/** Advances the acknowledged cursor; an older cursor changes nothing. Returns the stored cursor. */
export function advanceCursor(db: Database, id: string, cursor: number): number {
  db.prepare('UPDATE subscription SET cursor_seq = ? WHERE id = ? AND cursor_seq < ?').run(
    cursor,
    id,
    cursor,
  );
  return (db.prepare('SELECT cursor_seq FROM subscription WHERE id = ?').get(id) as { cursor_seq: number })
    .cursor_seq;
}

/** Records a pull at `at`, unless one was recorded after `since` (at most one write per interval). */
export function touchPolled(db: Database, id: string, at: string, since: string): void {
  db.prepare(
    'UPDATE subscription SET last_polled_at = ? WHERE id = ? AND (last_polled_at IS NULL OR last_polled_at <= ?)',
  ).run(at, id, since);
}

/** Records a successful webhook attempt: the run of failures ends. */
export function recordWebhookSuccess(db: Database, id: string, at: string): void {
  db.prepare('UPDATE subscription SET consecutive_failures = 0, last_success_at = ? WHERE id = ?').run(
    at,
    id,
  );
}

/**
 * Records a failed webhook attempt; at `suspendAfter` failures in a row the webhook is suspended. Returns true
 * when this failure suspended it.
 */
export function recordWebhookFailure(
  db: Database,
  id: string,
  at: string,
  error: string,
  suspendAfter: number,
): boolean {
  db.prepare(
    `UPDATE subscription SET consecutive_failures = consecutive_failures + 1, last_error = ?, last_error_at = ?
     WHERE id = ?`,
  ).run(error, at, id);
  return (
    db
      .prepare(
        `UPDATE subscription SET delivery_state = 'suspended'
         WHERE id = ? AND delivery_state = 'active' AND consecutive_failures >= ?`,
      )
      .run(id, suspendAfter).changes > 0
  );
}
