import { v7 as uuidv7 } from 'uuid';
import type { Principal } from '../access/principal.js';
import { BadRequestError, ConflictError, NotFoundError } from '../errors.js';
import type { Resolver } from '../net/outbound-target.js';
import { INSTANCE } from '../records/specs.js';
import { appendAudit } from '../store/audit.js';
import {
  countDeliveries,
  rearmDeliveries,
  recentDeliveries,
  scheduleDeliveries,
  unscheduleDeliveries,
} from '../store/deliveries.js';
import {
  countSubscriptions,
  deleteSubscription as deleteRow,
  findSubscription,
  insertSubscription,
  listSubscriptions as listRows,
  updateSubscription,
  type SubscriptionChange,
  type SubscriptionRow,
} from '../store/subscriptions.js';
import type { Core } from '../core.js';

import { iriOf, readStored, requireObject } from '../stored/records.js';
import type { Act } from '../stored/write-path.js';
import { managedSubscription, requireSubscriptionManager } from './subscription-access.js';
import { presentDelivery } from './subscription-deliveries.js';
import { parseFilter, type SubscriptionFilter } from './subscription-filter.js';
import { clearPreviousSecret, schemeOf, setScheme } from './delivery-log-store.js';
import {
  approvedWebhook,
  editedSecret,
  formatOf,
  isClearing,
  labelOf,
  refuseUnknown,
  requireSchemeSecret,
  schemeSecret,
  signatureOf,
} from './subscription-input.js';
import type {
  Subscription,
  SubscriptionDetail,
  SubscriptionList,
  SubscriptionWritten,
} from '../../api/operations.js';

/** A subscription as the API shows it (contract §3.13; never its secret), and the answers about it: `src/api`. */
export type SubscriptionOut = Subscription;
export type { SubscriptionDetail, SubscriptionList, SubscriptionWritten };

/** Options of the subscription services: the resolver webhook hosts are looked up with (tests stand one in). */
export interface SubscriptionOptions {
  readonly resolve?: Resolver | undefined;
}

const CREATE_FIELDS = ['label', 'filter', 'webhook_url', 'webhook_secret', 'format', 'signature'];
const PATCH_FIELDS = [...CREATE_FIELDS, 'rotate_secret', 'enabled', 'resume'];
const RECENT = 20;

/** The API form of a subscription row. */
export function presentSubscription(core: Core, row: SubscriptionRow): SubscriptionOut {
  const counts = countDeliveries(core.db, row.id, row.cursor_seq);
  const scheme = schemeOf(core.db, row.id);
  const overlapEnd = scheme?.previous_secret_until ?? null;
  return {
    id: row.id,
    instance_iri: row.instance_iri,
    label: row.label,
    filter: JSON.parse(row.filter) as SubscriptionFilter,
    webhook_url: row.webhook_url,
    webhook_signed: row.webhook_secret !== null,
    enabled: row.enabled === 1,
    delivery_state: row.delivery_state,
    consecutive_failures: row.consecutive_failures,
    cursor_seq: row.cursor_seq,
    created_at: row.created_at,
    created_by: row.created_by,
    updated_at: row.updated_at,
    last_match_at: row.last_match_at,
    last_success_at: row.last_success_at,
    last_error: row.last_error,
    last_error_at: row.last_error_at,
    last_polled_at: row.last_polled_at,
    pending_count: counts.pending,
    failed_count: counts.failed,
    dead_count: counts.dead,
    unacked_count: counts.unacked,
    delivery_mode: row.webhook_url === null ? 'pull' : 'webhook',
    pull_url: `${core.config.baseIri}/api/v1/subscriptions/${row.id}/deliveries`,
    format: scheme?.format ?? 'reg',
    signature: scheme?.signature ?? 'reg',
    previous_secret_until: overlapEnd !== null && Date.parse(overlapEnd) > Date.now() ? overlapEnd : null,
  };
}

/**
 * `POST /api/v1/instances/{id}/subscriptions`: subscribes a deployment to matching artifacts (admin, curator or
 * the deployment itself). Without `webhook_url` it is pull-only; with one, the secret is the caller's or
 * generated, and shown in this answer only.
 */
export async function createSubscription(
  core: Core,
  act: Act,
  id: string,
  body: unknown,
  options: SubscriptionOptions = {},
): Promise<SubscriptionWritten> {
  const instance = iriOf(core, 'instance', id);
  requireSubscriptionManager(act.principal, instance);
  const stored = await readStored(core, INSTANCE, instance);
  if (stored === undefined || stored.tombstoned)
    throw new NotFoundError(`no deployment ${instance}${stored === undefined ? '' : ' (it is withdrawn)'}`);
  const input = requireObject(body);
  refuseUnknown(input, CREATE_FIELDS);
  const label = labelOf(input.label);
  const filter = parseFilter(core.config.baseIri, input.filter);
  const format = formatOf(input.format) ?? 'reg';
  const signature = signatureOf(input.signature) ?? 'reg';
  const webhook = isClearing(input.webhook_url ?? null)
    ? null
    : await approvedWebhook(core, input.webhook_url, options.resolve);
  if (webhook === null && input.webhook_secret !== undefined && input.webhook_secret !== null)
    throw new BadRequestError('webhook_secret needs a webhook_url: a pull-only subscription is not signed');
  const secret = webhook === null ? null : schemeSecret(signature, input.webhook_secret, 'webhook_secret');
  const at = act.now;
  const row: SubscriptionRow = {
    id: uuidv7(),
    instance_iri: instance,
    label,
    filter: JSON.stringify(filter),
    webhook_url: webhook,
    webhook_secret: secret,
    enabled: 1,
    delivery_state: 'active',
    consecutive_failures: 0,
    cursor_seq: 0,
    created_at: at,
    created_by: act.principal.subject,
    updated_at: at,
    last_match_at: null,
    last_success_at: null,
    last_error: null,
    last_error_at: null,
    last_polled_at: null,
  };
  const max = core.config.subscriptions.maxPerInstance;
  core.db.transaction(() => {
    if (countSubscriptions(core.db, instance) >= max) {
      throw new ConflictError(`the deployment ${instance} has ${max} subscriptions, the most it may hold`, {
        hints: ['delete a subscription it no longer needs, or widen the filter of one'],
      });
    }
    insertSubscription(core.db, row);
    setScheme(core.db, row.id, { format, signature });
    audit(
      core,
      act,
      'subscription.create',
      row,
      `subscription ${row.id} (${row.webhook_url === null ? 'pull' : 'webhook'})`,
    );
  });
  return { subscription: presentSubscription(core, row), secret, shown_once: true };
}

function audit(core: Core, act: Act, action: string, row: SubscriptionRow, detail: string): void {
  appendAudit(core.db, {
    actor: act.principal.subject,
    actorKind: act.principal.actorKind,
    action,
    target: row.instance_iri,
    detail,
    at: act.now,
    requestId: act.requestId ?? null,
  });
}

/** `GET /api/v1/instances/{id}/subscriptions`: the deployment's subscriptions, oldest first. */
export async function listSubscriptions(
  core: Core,
  principal: Principal,
  id: string,
): Promise<SubscriptionList> {
  const instance = iriOf(core, 'instance', id);
  requireSubscriptionManager(principal, instance);
  if ((await readStored(core, INSTANCE, instance)) === undefined)
    throw new NotFoundError(`no deployment ${instance}`);
  const items = listRows(core.db, instance).map((row) => presentSubscription(core, row));
  return { items, total: items.length, max_per_instance: core.config.subscriptions.maxPerInstance };
}

/** `GET /api/v1/subscriptions/{sid}`: one subscription and its newest deliveries (the delivery log). */
export function getSubscription(core: Core, principal: Principal, id: string): SubscriptionDetail {
  const row = managedSubscription(core, principal, id);
  return {
    subscription: presentSubscription(core, row),
    recent_deliveries: recentDeliveries(core.db, row.id, RECENT).map(presentDelivery),
  };
}

/** `DELETE /api/v1/subscriptions/{sid}`: removes the subscription and its queue. */
export function deleteSubscription(core: Core, act: Act, id: string): void {
  const row = managedSubscription(core, act.principal, id);
  core.db.transaction(() => {
    if (deleteRow(core.db, row.id)) audit(core, act, 'subscription.delete', row, `subscription ${row.id}`);
  });
}

/**
 * Puts a subscription's deliveries on the webhook schedule, or takes them off, to match its state after an
 * edit: scheduled while a webhook is set, enabled and active (a resume also re-arms failed and dead ones).
 */
function reschedule(core: Core, id: string, resume: boolean, at: string): void {
  const after = findSubscription(core.db, id);
  const sending = after?.webhook_url !== null && after?.enabled === 1 && after.delivery_state === 'active';
  if (!sending) unscheduleDeliveries(core.db, id);
  else if (resume) rearmDeliveries(core.db, id, at);
  else scheduleDeliveries(core.db, id, at);
}

/**
 * `PATCH /api/v1/subscriptions/{sid}`: changes label, filter, webhook (`""` or null clears it), secret
 * (`webhook_secret`, or `rotate_secret: true`), `enabled`; `resume: true` re-activates a suspended webhook and
 * re-arms its failed and dead deliveries for another attempt.
 */
export async function editSubscription(
  core: Core,
  act: Act,
  id: string,
  body: unknown,
  options: SubscriptionOptions = {},
): Promise<SubscriptionWritten> {
  const row = managedSubscription(core, act.principal, id);
  const input = requireObject(body);
  refuseUnknown(input, PATCH_FIELDS);
  for (const flag of ['rotate_secret', 'enabled', 'resume'] as const) {
    if (input[flag] !== undefined && typeof input[flag] !== 'boolean')
      throw new BadRequestError(`${flag} must be true or false`);
  }
  const change: { -readonly [K in keyof SubscriptionChange]: SubscriptionChange[K] } = {};
  if (input.label !== undefined) change.label = labelOf(input.label);
  if (input.filter !== undefined)
    change.filter = JSON.stringify(parseFilter(core.config.baseIri, input.filter));
  if (input.enabled !== undefined) change.enabled = input.enabled === true ? 1 : 0;
  if (input.webhook_url !== undefined) {
    change.webhook_url = isClearing(input.webhook_url)
      ? null
      : await approvedWebhook(core, input.webhook_url, options.resolve);
  }
  const webhook = change.webhook_url === undefined ? row.webhook_url : change.webhook_url;
  const secret = editedSecret(input, webhook, row.webhook_secret);
  const format = formatOf(input.format);
  const signature = signatureOf(input.signature);
  requireSchemeSecret(
    signature ?? schemeOf(core.db, row.id)?.signature ?? 'reg',
    webhook === null ? null : (secret ?? row.webhook_secret),
  );
  if (webhook === null) change.webhook_secret = null;
  else if (secret !== null) change.webhook_secret = secret;
  const resume = input.resume === true;
  if (resume) {
    change.delivery_state = 'active';
    change.consecutive_failures = 0;
  }
  const at = act.now;
  change.updated_at = at;
  const changed = Object.keys(input).filter((key) => input[key] !== undefined);
  core.db.transaction(() => {
    updateSubscription(core.db, row.id, change);
    setScheme(core.db, row.id, {
      ...(format === undefined ? {} : { format }),
      ...(signature === undefined ? {} : { signature }),
    });
    // A secret set by an edit replaces the old one at once; only a rotation keeps it signing for a while.
    if (change.webhook_secret !== undefined) clearPreviousSecret(core.db, row.id);
    reschedule(core, row.id, resume, at);
    const detail = `subscription ${row.id}: ${changed.join(', ') || 'nothing'}`;
    audit(core, act, 'subscription.update', row, detail);
  });
  const after = findSubscription(core.db, row.id) ?? row;
  return { subscription: presentSubscription(core, after), secret, shown_once: true };
}
