import { BadRequestError, NotFoundError } from '../errors.js';
import { isObject } from '../records/json.js';
import type { JsonObject } from '../records/mapper.js';
import {
  acknowledgeDeliveries,
  countDeliveriesAfter,
  deliveriesAfter,
  newestDeliverySeq,
  notificationOf,
  setNotification,
  type DeliveryRow,
} from '../store/deliveries.js';
import { advanceCursor, findSubscription, touchPolled } from '../store/subscriptions.js';
import type { Core } from '../core.js';
import { getArtifact } from '../provenance/artifact-view.js';
import type { Act } from '../stored/write-path.js';
import { managedSubscription } from './subscription-access.js';
import { ARTIFACT_ADVERTISED } from './webhook-signature.js';
import type { AckResult, Delivery, DeliveryPage, Notification } from '../../api/operations.js';

/**
 * The event body of a delivery (sent as the webhook body and served by the pull queue, spec §6), a delivery as
 * the API shows it (contract §3.13), a page of the pull queue and the answer to an acknowledgement: `src/api`.
 */
export type { AckResult, Delivery, DeliveryPage, Notification };

/** Query parameters of a pull, as sent. */
export interface PullParams {
  readonly limit?: string | undefined;
  readonly cursor?: string | undefined;
  readonly ack?: string | undefined;
}

const DEFAULT_LIMIT = 25;
const MAX_LIMIT = 200;
const POLL_INTERVAL_MS = 60_000;

/** The API form of a delivery row. */
export function presentDelivery(row: DeliveryRow): Delivery {
  return {
    seq: row.seq,
    id: row.id,
    subscription_id: row.subscription_id,
    artifact_iri: row.artifact_iri,
    run_iri: row.run_iri,
    role: row.role,
    matched_at: row.matched_at,
    status: row.status,
    attempts: row.attempts,
    last_attempt_at: row.last_attempt_at,
    next_attempt_at: row.next_attempt_at,
    last_error: row.last_error,
    last_status: row.last_status,
    delivered_at: row.delivered_at,
    notification: row.notification === null ? null : (JSON.parse(row.notification) as Notification),
  };
}

async function artifactView(core: Core, iri: string): Promise<JsonObject> {
  try {
    return await getArtifact(core, iri);
  } catch (error) {
    // A foreign artifact (consumed from another registry) has no local record to show.
    if (error instanceof NotFoundError) return { iri, unresolved: true };
    throw error;
  }
}

/**
 * Fixes the event body of each delivery that has none yet and returns the rows with their bodies. A body is
 * fixed once, so every webhook attempt and every pull of the same delivery carries the same bytes.
 */
export async function withNotifications(core: Core, rows: readonly DeliveryRow[]): Promise<DeliveryRow[]> {
  const missing = rows.filter((row) => row.notification === null);
  if (missing.length === 0) return [...rows];
  const bodies = new Map<number, string>();
  for (const row of missing) {
    const body: Notification = {
      type: ARTIFACT_ADVERTISED,
      subscription: row.subscription_id,
      registry: core.config.baseIri,
      role: row.role,
      run: row.run_iri,
      instance: row.instance_iri,
      software: row.software_iri,
      artifact_iri: row.artifact_iri,
      artifact: await artifactView(core, row.artifact_iri),
    };
    bodies.set(row.seq, JSON.stringify(body));
  }
  // Another reader may have fixed a body meanwhile: the first one written wins, and is the one returned.
  return core.db.transaction(() =>
    rows.map((row) => {
      const body = bodies.get(row.seq);
      if (body === undefined) return row;
      setNotification(core.db, row.seq, body);
      return { ...row, notification: notificationOf(core.db, row.seq) ?? body };
    }),
  );
}

function integerParam(name: string, raw: string | undefined): number | undefined {
  if (raw === undefined || raw === '') return undefined;
  if (!/^\d{1,15}$/.test(raw.trim())) throw new BadRequestError(`${name} must be a non-negative integer`);
  return Number(raw.trim());
}

function booleanParam(name: string, raw: string | undefined): boolean {
  if (raw === undefined || raw === '') return false;
  if (['true', '1'].includes(raw)) return true;
  if (['false', '0'].includes(raw)) return false;
  throw new BadRequestError(`${name} must be true or false`);
}

/** Advances the acknowledged cursor (never beyond the subscription's newest delivery); returns the stored one. */
function acknowledge(core: Core, subscription: string, cursor: number, at: string): number {
  return core.db.transaction(() => {
    const newest = newestDeliverySeq(core.db, subscription);
    const stored = findSubscription(core.db, subscription)?.cursor_seq ?? 0;
    const target = Math.min(cursor, newest);
    if (target <= stored) return stored;
    acknowledgeDeliveries(core.db, subscription, target, at);
    return advanceCursor(core.db, subscription, target);
  });
}

/**
 * `GET /api/v1/subscriptions/{sid}/deliveries`: the queued deliveries after `cursor` (default: the acknowledged
 * cursor), oldest first; with `ack=true` everything returned is acknowledged.
 */
export async function pullDeliveries(
  core: Core,
  act: Act,
  id: string,
  params: PullParams,
): Promise<DeliveryPage> {
  const subscription = managedSubscription(core, act.principal, id);
  const requested = integerParam('limit', params.limit);
  const limit = Math.min(Math.max(requested ?? DEFAULT_LIMIT, 1), MAX_LIMIT);
  const cursor = integerParam('cursor', params.cursor) ?? subscription.cursor_seq;
  const ack = booleanParam('ack', params.ack);
  const rows = await withNotifications(core, deliveriesAfter(core.db, subscription.id, cursor, limit));
  const next = rows.at(-1)?.seq ?? cursor;
  const at = act.now;
  const now = new Date(at);
  const acknowledged = ack
    ? acknowledge(core, subscription.id, next, at)
    : (findSubscription(core.db, subscription.id)?.cursor_seq ?? subscription.cursor_seq);
  touchPolled(core.db, subscription.id, at, new Date(now.getTime() - POLL_INTERVAL_MS).toISOString());
  return {
    items: rows.map(presentDelivery),
    cursor,
    next_cursor: next,
    remaining: countDeliveriesAfter(core.db, subscription.id, next),
    acknowledged,
  };
}

/** `POST /api/v1/subscriptions/{sid}/deliveries/ack`: acknowledges every delivery up to `cursor`. */
export function acknowledgeCursor(core: Core, act: Act, id: string, body: unknown): AckResult {
  const subscription = managedSubscription(core, act.principal, id);
  const cursor = isObject(body) ? body.cursor : undefined;
  if (typeof cursor !== 'number' || !Number.isSafeInteger(cursor) || cursor < 0) {
    throw new BadRequestError('cursor must be a non-negative integer (a next_cursor of the deliveries)');
  }
  const stored = acknowledge(core, subscription.id, cursor, act.now);
  return { cursor: stored, remaining: countDeliveriesAfter(core.db, subscription.id, stored) };
}
