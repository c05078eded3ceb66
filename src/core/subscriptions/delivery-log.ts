import { actsAs } from '../access/policy.js';
import type { Principal } from '../access/principal.js';
import { BadRequestError, ConflictError, ForbiddenError, NotFoundError } from '../errors.js';
import { findSubscription, type SubscriptionRow } from '../store/subscriptions.js';
import { appendAudit } from '../store/audit.js';
import type { Core } from '../core.js';
import type { Act } from '../stored/write-path.js';
import type { Delivery, DeliveryAttempt, DeliveryLog } from '../../api/operations.js';
import {
  attemptsOf,
  countAttempts,
  deliveryOf,
  rearmDelivery,
  type AttemptRow,
} from './delivery-log-store.js';
import { managedSubscription } from './subscription-access.js';
import { presentDelivery } from './subscription-deliveries.js';
import { configuredRetention } from './webhook-sender.js';

/**
 * The delivery log of a subscription (every webhook attempt, newest first) and redelivery of one delivery. The
 * log holds what receivers answered, so only the owning deployment and administrators read it.
 */

/** The API shapes of the log (`src/api`). */
export type { DeliveryAttempt, DeliveryLog };

/** Query parameters of a log read, as sent. */
export interface LogParams {
  readonly limit?: string | undefined;
  readonly before?: string | undefined;
}

const DEFAULT_LIMIT = 50;
const MAX_LIMIT = 500;

/** The subscription `id` if the caller is its deployment or an administrator. */
function loggedSubscription(core: Core, principal: Principal, id: string): SubscriptionRow {
  const row = managedSubscription(core, principal, id);
  if (!principal.roles.includes('admin') && !actsAs(principal, row.instance_iri))
    throw new ForbiddenError(
      'admin role required, or the credential of the deployment that owns the subscription: the log holds what its receiver answered',
    );
  return row;
}

function positive(name: string, raw: string | undefined): number | undefined {
  if (raw === undefined || raw === '') return undefined;
  if (!/^\d{1,15}$/.test(raw.trim()) || Number(raw) < 1)
    throw new BadRequestError(`${name} must be a positive integer`, {
      errors: [{ field: name, message: `${name} must be a positive integer` }],
    });
  return Number(raw.trim());
}

/** The API form of a logged attempt. */
export function presentAttempt(row: AttemptRow): DeliveryAttempt {
  return {
    id: row.id,
    delivery_id: row.delivery_id,
    delivery_seq: row.delivery_seq,
    artifact_iri: row.artifact_iri,
    attempt: row.attempt,
    at: row.at,
    status_code: row.status,
    duration_ms: row.duration_ms,
    response: row.response,
    error: row.error,
    retry_at: row.retry_at,
    delivery_status: row.delivery_status,
  };
}

/**
 * `GET /api/v1/subscriptions/{sid}/log`: the subscription's webhook attempts, newest first, `limit` at a time
 * (default 50, at most 500), older than the attempt id `before` when given.
 */
export function getDeliveryLog(core: Core, principal: Principal, id: string, params: LogParams): DeliveryLog {
  const row = loggedSubscription(core, principal, id);
  const limit = Math.min(positive('limit', params.limit) ?? DEFAULT_LIMIT, MAX_LIMIT);
  const before = positive('before', params.before);
  const rows = attemptsOf(core.db, row.id, before, limit + 1);
  const items = rows.slice(0, limit).map(presentAttempt);
  return {
    subscription_id: row.id,
    items,
    total: countAttempts(core.db, row.id),
    next_before: rows.length > limit ? (items.at(-1)?.id ?? null) : null,
    retention_seconds: Math.round(configuredRetention(core) / 1000),
  };
}

/**
 * `POST /api/v1/subscriptions/{sid}/deliveries/{id}/redeliver`: sends the same event again under the same
 * delivery id (receivers deduplicate by it) with a fresh retry budget, at the next pass of the sender; while the
 * webhook is disabled or suspended it waits for a resume. Another subscription's delivery is not found here.
 */
export function redeliver(core: Core, act: Act, id: string, deliveryId: string): Delivery {
  const row = managedSubscription(core, act.principal, id);
  if (row.webhook_url === null)
    throw new ConflictError(`subscription ${row.id} is pull-only: there is no webhook to deliver to`, {
      hints: ['read the delivery again with reg subscribe pull --cursor, or set a webhook_url first'],
    });
  const delivery = /^[\w.-]{1,100}$/.test(deliveryId) ? deliveryOf(core.db, row.id, deliveryId) : undefined;
  if (delivery === undefined) throw new NotFoundError(`subscription ${row.id} has no delivery ${deliveryId}`);
  return core.db.transaction(() => {
    const current = findSubscription(core.db, row.id) ?? row;
    const sending = current.enabled === 1 && current.delivery_state === 'active';
    rearmDelivery(core.db, delivery.seq, sending ? act.now : null);
    appendAudit(core.db, {
      actor: act.principal.subject,
      actorKind: act.principal.actorKind,
      action: 'subscription.redeliver',
      target: row.instance_iri,
      detail: `subscription ${row.id}: delivery ${delivery.id}`,
      at: act.now,
      requestId: act.requestId ?? null,
    });
    return presentDelivery(deliveryOf(core.db, row.id, delivery.id) ?? delivery);
  });
}
