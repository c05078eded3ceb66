import type { Database } from '../store/database.js';
import type { DeliveryRow } from '../store/deliveries.js';

/**
 * The operational tables of webhook formats, signature schemes, secret rotation and the delivery log
 * (migration 17): the columns the subscription and delivery tables gained, and the `delivery_attempt` table.
 */

/** The body a subscription's webhook receives. */
export type PayloadFormat = 'reg' | 'cloudevents' | 'cdevents';

/** How a subscription's webhook deliveries are signed. */
export type SignatureScheme = 'reg' | 'standard-webhooks';

/** Every payload format, the default first. */
export const PAYLOAD_FORMATS: readonly PayloadFormat[] = ['reg', 'cloudevents', 'cdevents'];

/** Every signature scheme, the default first. */
export const SIGNATURE_SCHEMES: readonly SignatureScheme[] = ['reg', 'standard-webhooks'];

/** How a subscription's webhook is written and signed, and the secret that still signs during a rotation. */
export interface DeliveryScheme {
  readonly format: PayloadFormat;
  readonly signature: SignatureScheme;
  readonly previous_secret: string | null;
  readonly previous_secret_until: string | null;
}

/** A delivery due for a webhook attempt, with everything the attempt needs of its subscription. */
export interface DueAttempt extends DeliveryRow, DeliveryScheme {
  readonly webhook_url: string;
  readonly webhook_secret: string;
  readonly budget_start: number;
}

/** One attempt to deliver, as kept in the log. */
export interface AttemptRow {
  readonly id: number;
  readonly delivery_seq: number;
  readonly delivery_id: string;
  readonly subscription_id: string;
  readonly artifact_iri: string;
  readonly attempt: number;
  readonly at: string;
  readonly status: number | null;
  readonly duration_ms: number;
  readonly response: string | null;
  readonly error: string | null;
  readonly retry_at: string | null;
  readonly delivery_status: DeliveryRow['status'];
}

/** An attempt to record. */
export type NewAttempt = Omit<AttemptRow, 'id' | 'delivery_id' | 'artifact_iri' | 'delivery_status'>;

const DELIVERY_COLUMNS = `d.seq, d.id, d.subscription_id, d.artifact_iri, d.run_iri, d.role, d.instance_iri,
  d.software_iri, d.matched_at, d.status, d.attempts, d.last_attempt_at, d.next_attempt_at, d.last_error,
  d.last_status, d.delivered_at, d.notification, d.budget_start`;

/** The scheme of one subscription, or undefined when it does not exist. */
export function schemeOf(db: Database, subscription: string): DeliveryScheme | undefined {
  return db
    .prepare(
      'SELECT format, signature, previous_secret, previous_secret_until FROM subscription WHERE id = ?',
    )
    .get(subscription) as DeliveryScheme | undefined;
}

/** Sets the payload format and signature scheme of a subscription. */
export function setScheme(
  db: Database,
  subscription: string,
  scheme: { readonly format?: PayloadFormat; readonly signature?: SignatureScheme },
): void {
  if (scheme.format !== undefined)
    db.prepare('UPDATE subscription SET format = ? WHERE id = ?').run(scheme.format, subscription);
  if (scheme.signature !== undefined)
    db.prepare('UPDATE subscription SET signature = ? WHERE id = ?').run(scheme.signature, subscription);
}

/**
 * Replaces a subscription's secret, keeping the one it had signing until `until` (null ends any overlap at once).
 */
export function rotateSecretRow(
  db: Database,
  subscription: string,
  secret: string,
  previous: string | null,
  until: string | null,
  at: string,
): void {
  db.prepare(
    `UPDATE subscription SET webhook_secret = @secret, previous_secret = @previous,
       previous_secret_until = @until, updated_at = @at WHERE id = @subscription`,
  ).run({ subscription, secret, previous: until === null ? null : previous, until, at });
}

/** Ends the overlap of a rotation (a secret set by other means replaces both). */
export function clearPreviousSecret(db: Database, subscription: string): void {
  db.prepare('UPDATE subscription SET previous_secret = NULL, previous_secret_until = NULL WHERE id = ?').run(
    subscription,
  );
}

/**
 * Deliveries due for a webhook attempt at `now`, oldest due first, of enabled subscriptions whose webhook is
 * active, with their subscription's format, scheme and secrets.
 */
export function dueAttempts(db: Database, now: string, limit: number): DueAttempt[] {
  return db
    .prepare(
      `SELECT ${DELIVERY_COLUMNS}, s.webhook_url, s.webhook_secret, s.format, s.signature, s.previous_secret,
         s.previous_secret_until
       FROM delivery d JOIN subscription s ON s.id = d.subscription_id
       WHERE d.next_attempt_at IS NOT NULL AND d.next_attempt_at <= ?
         AND s.enabled = 1 AND s.delivery_state = 'active'
         AND s.webhook_url IS NOT NULL AND s.webhook_secret IS NOT NULL
       ORDER BY d.next_attempt_at, d.seq LIMIT ?`,
    )
    .all(now, limit) as DueAttempt[];
}

/** Keeps one attempt in the log. */
export function insertAttempt(db: Database, attempt: NewAttempt): void {
  db.prepare(
    `INSERT INTO delivery_attempt (delivery_seq, subscription_id, attempt, at, status, duration_ms, response,
       error, retry_at)
     VALUES (@delivery_seq, @subscription_id, @attempt, @at, @status, @duration_ms, @response, @error, @retry_at)`,
  ).run(attempt);
}

/** A page of a subscription's attempts, newest first, before the attempt id `before` (when given). */
export function attemptsOf(
  db: Database,
  subscription: string,
  before: number | undefined,
  limit: number,
): AttemptRow[] {
  return db
    .prepare(
      `SELECT a.id, a.delivery_seq, d.id AS delivery_id, a.subscription_id, d.artifact_iri, a.attempt, a.at,
         a.status, a.duration_ms, a.response, a.error, a.retry_at, d.status AS delivery_status
       FROM delivery_attempt a JOIN delivery d ON d.seq = a.delivery_seq
       WHERE a.subscription_id = @subscription AND (@before IS NULL OR a.id < @before)
       ORDER BY a.id DESC LIMIT @limit`,
    )
    .all({ subscription, before: before ?? null, limit }) as AttemptRow[];
}

/** How many attempts of a subscription the log holds. */
export function countAttempts(db: Database, subscription: string): number {
  return (
    db.prepare('SELECT count(*) AS n FROM delivery_attempt WHERE subscription_id = ?').get(subscription) as {
      n: number;
    }
  ).n;
}

/** One delivery of a subscription by its id, or undefined (also for another subscription's delivery). */
export function deliveryOf(db: Database, subscription: string, id: string): DeliveryRow | undefined {
  return db
    .prepare(`SELECT ${DELIVERY_COLUMNS} FROM delivery d WHERE d.subscription_id = ? AND d.id = ?`)
    .get(subscription, id) as DeliveryRow | undefined;
}

/**
 * Queues a delivery again: pending, due at `due` (null leaves it for a resume to schedule), with a fresh retry
 * budget counted from the attempts it has made.
 */
export function rearmDelivery(db: Database, seq: number, due: string | null): void {
  db.prepare(
    `UPDATE delivery SET status = 'pending', next_attempt_at = ?, budget_start = attempts, delivered_at = NULL
     WHERE seq = ?`,
  ).run(due, seq);
}

/**
 * Removes delivered and dead deliveries whose last attempt (or delivery, or match) is older than `before`, with
 * their attempts; returns how many deliveries went.
 */
export function pruneFinished(db: Database, before: string): number {
  return db
    .prepare(
      `DELETE FROM delivery WHERE status IN ('delivered', 'dead')
         AND coalesce(last_attempt_at, delivered_at, matched_at) < ?`,
    )
    .run(before).changes;
}
