import { parseDuration } from '../config/parse.js';
import { BadRequestError, ConflictError } from '../errors.js';
import { appendAudit } from '../store/audit.js';
import { findSubscription } from '../store/subscriptions.js';
import type { Core } from '../core.js';
import { requireObject } from '../stored/records.js';
import type { Act } from '../stored/write-path.js';
import type { SecretRotated } from '../../api/operations.js';
import { rotateSecretRow, schemeOf } from './delivery-log-store.js';
import { managedSubscription } from './subscription-access.js';
import { refuseUnknown, schemeSecret } from './subscription-input.js';
import { presentSubscription } from './subscriptions.js';

/**
 * Secret rotation with an overlap: the new secret signs from now on and the replaced one keeps signing beside it
 * (a second signature in the same header) until the overlap ends, so receivers switch secrets at their own
 * pace without refusing a delivery.
 */

/** The answer to a rotation (`src/api`). */
export type { SecretRotated };

/** The overlap when the request names none. */
export const DEFAULT_OVERLAP_MS = 24 * 3600 * 1000;

/** The longest overlap a rotation may ask for. */
export const MAX_OVERLAP_MS = 7 * 24 * 3600 * 1000;

const FIELDS = ['overlap', 'secret'];

function overlapOf(value: unknown): number {
  if (value === undefined || value === null) return DEFAULT_OVERLAP_MS;
  const message = 'overlap must be a duration from 0s to 7d, such as 24h or 90m (a bare number is seconds)';
  let ms: number;
  try {
    ms =
      typeof value === 'number' && Number.isFinite(value)
        ? Math.round(value * 1000)
        : typeof value === 'string'
          ? parseDuration(value)
          : Number.NaN;
  } catch {
    ms = Number.NaN;
  }
  if (!Number.isFinite(ms) || ms < 0 || ms > MAX_OVERLAP_MS)
    throw new BadRequestError(message, { errors: [{ field: 'overlap', message }] });
  return ms;
}

/**
 * `POST /api/v1/subscriptions/{sid}/secret`: replaces the webhook secret (the caller's `secret`, or a new one)
 * and returns it once. The replaced secret keeps signing for `overlap` (default 24h, at most 7d; 0 stops it at
 * once). Rotating again during an overlap keeps only the secret just replaced.
 */
export function rotateSecret(core: Core, act: Act, id: string, body: unknown): SecretRotated {
  const row = managedSubscription(core, act.principal, id);
  const input = body === undefined || body === null ? {} : requireObject(body);
  refuseUnknown(input, FIELDS);
  if (row.webhook_url === null || row.webhook_secret === null)
    throw new ConflictError(`subscription ${row.id} is pull-only: it has no webhook secret to rotate`, {
      hints: ['set a webhook_url first (reg subscribe create --webhook-url, or PATCH the subscription)'],
    });
  const overlap = overlapOf(input.overlap);
  const scheme = schemeOf(core.db, row.id)?.signature ?? 'reg';
  const secret = schemeSecret(scheme, input.secret);
  if (secret === row.webhook_secret) {
    const message = 'secret must differ from the current one';
    throw new BadRequestError(message, { errors: [{ field: 'secret', message }] });
  }
  const until = overlap === 0 ? null : new Date(Date.parse(act.now) + overlap).toISOString();
  core.db.transaction(() => {
    rotateSecretRow(core.db, row.id, secret, row.webhook_secret, until, act.now);
    appendAudit(core.db, {
      actor: act.principal.subject,
      actorKind: act.principal.actorKind,
      action: 'subscription.rotate-secret',
      target: row.instance_iri,
      detail: `subscription ${row.id}: the replaced secret signs ${until === null ? 'no more' : `until ${until}`}`,
      at: act.now,
      requestId: act.requestId ?? null,
    });
  });
  const after = findSubscription(core.db, row.id) ?? row;
  return {
    subscription: presentSubscription(core, after),
    secret,
    shown_once: true,
    previous_secret_until: until,
  };
}
