import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { SignatureScheme } from './delivery-log-store.js';

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

/** The headers of the Standard Webhooks scheme (https://www.standardwebhooks.com). */
export const STANDARD_WEBHOOK_HEADERS = {
  id: 'webhook-id',
  timestamp: 'webhook-timestamp',
  signature: 'webhook-signature',
} as const;

const STANDARD_SECRET = /^whsec_([A-Za-z0-9+/]+={0,2})$/;

/** Whether a secret has the Standard Webhooks form: `whsec_` and the base64 of 24 to 64 bytes. */
export function isStandardSecret(secret: string): boolean {
  const match = STANDARD_SECRET.exec(secret);
  if (match === null) return false;
  const bytes = Buffer.from(match[1]!, 'base64');
  return bytes.length >= 24 && bytes.length <= 64 && bytes.toString('base64') === match[1];
}

/** A new Standard Webhooks secret: `whsec_` and the base64 of 32 random bytes. */
export const generateStandardSecret = (): string => `whsec_${randomBytes(32).toString('base64')}`;

/**
 * One Standard Webhooks signature: `v1,` and the base64 HMAC-SHA256 of `{id}.{timestamp}.{body}` under the key
 * the secret encodes (the bytes of its base64 after `whsec_`).
 */
export function signStandardWebhook(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

/**
 * The signing headers of one attempt under a subscription's scheme. Every secret given signs (the current one
 * first, then the one a rotation still honours), space-separated in the one signature header, so a receiver
 * holding either secret verifies the delivery.
 */
export function signatureHeaders(
  scheme: SignatureScheme,
  secrets: readonly string[],
  delivery: string,
  timestamp: number,
  body: string,
): Record<string, string> {
  if (scheme === 'reg')
    return {
      [WEBHOOK_HEADERS.signature]: secrets.map((secret) => signWebhook(secret, timestamp, body)).join(' '),
    };
  return {
    [STANDARD_WEBHOOK_HEADERS.id]: delivery,
    [STANDARD_WEBHOOK_HEADERS.timestamp]: String(timestamp),
    [STANDARD_WEBHOOK_HEADERS.signature]: secrets
      .map((secret) => signStandardWebhook(secret, delivery, timestamp, body))
      .join(' '),
  };
}

/**
 * What a receiver got: the raw body and the two headers that authenticate it. During a secret rotation the
 * signature header holds two signatures separated by a space (the new secret's first); one matching is enough.
 */
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
  const signatures = check.signature.trim().split(/[\s,]+/);
  if (!signatures.every((signature) => /^sha256=[0-9a-fA-F]{64}$/.test(signature))) {
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
  const matches = signatures.some((signature) =>
    timingSafeEqual(expected, Buffer.from(signature.slice(PREFIX.length), 'hex')),
  );
  if (!matches) {
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
