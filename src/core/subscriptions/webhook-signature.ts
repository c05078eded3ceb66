import { createHmac, timingSafeEqual } from 'node:crypto';

/** The headers of every webhook delivery (spec §6). */
export const WEBHOOK_HEADERS = {
  delivery: 'x-reg-delivery',
  subscription: 'x-reg-subscription',
  timestamp: 'x-reg-timestamp',
  attempt: 'x-reg-attempt',
  signature: 'x-reg-signature',
} as const;

/** The event kind of every delivery. */
export const ARTIFACT_ADVERTISED = 'artifact.advertised';

/** How old (or how far in the future) a timestamp may be, by default, before a receiver refuses it. */
export const DEFAULT_TOLERANCE_SECONDS = 300;

const PREFIX = 'sha256=';

/** The `x-reg-signature` value: `sha256=` and the hex HMAC-SHA256 of `{timestamp}.{body}` under the secret. */
export function signWebhook(secret: string, timestamp: number | string, body: string): string {
  return `${PREFIX}${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

/** What a receiver got: the raw body and the two headers that authenticate it. */
export interface WebhookCheck {
  readonly secret: string;
  readonly body: string;
  readonly timestamp: string;
  readonly signature: string;
  /** Seconds the timestamp may differ from `now`; 0 skips the check (for replaying stored samples). */
  readonly toleranceSeconds?: number;
  readonly now?: Date;
}

/** Why a delivery failed verification. */
export type WebhookRefusal =
  'malformed-timestamp' | 'malformed-signature' | 'stale-timestamp' | 'bad-signature';

/** The outcome of a verification: valid, or a stable code and a one-line reason. */
export type WebhookVerdict =
  | { readonly valid: true; readonly timestamp: number; readonly age_seconds: number }
  | { readonly valid: false; readonly code: WebhookRefusal; readonly reason: string };

/**
 * Verifies a delivery the way a receiver should: the signature over exactly the bytes received, compared in
 * constant time, and a timestamp within the tolerance window (so a captured delivery cannot be replayed later).
 */
export function verifyWebhook(check: WebhookCheck): WebhookVerdict {
  const timestamp = check.timestamp.trim();
  if (!/^\d{1,12}$/.test(timestamp)) {
    return {
      valid: false,
      code: 'malformed-timestamp',
      reason: `the timestamp "${timestamp}" is not Unix seconds`,
    };
  }
  const signature = check.signature.trim();
  if (!/^sha256=[0-9a-fA-F]{64}$/.test(signature)) {
    return {
      valid: false,
      code: 'malformed-signature',
      reason: 'the signature is not "sha256=" followed by 64 hexadecimal digits',
    };
  }
  const seconds = Number(timestamp);
  const age = Math.round((check.now ?? new Date()).getTime() / 1000) - seconds;
  const tolerance = check.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  const expected = Buffer.from(signWebhook(check.secret, timestamp, check.body).slice(PREFIX.length), 'hex');
  const given = Buffer.from(signature.slice(PREFIX.length), 'hex');
  if (!timingSafeEqual(expected, given)) {
    return {
      valid: false,
      code: 'bad-signature',
      reason: 'the signature does not match the body, timestamp and secret',
    };
  }
  if (tolerance > 0 && Math.abs(age) > tolerance) {
    return {
      valid: false,
      code: 'stale-timestamp',
      reason: `the timestamp is ${Math.abs(age)} s ${age >= 0 ? 'old' : 'in the future'}, beyond the tolerance of ${tolerance} s`,
    };
  }
  return { valid: true, timestamp: seconds, age_seconds: age };
}
