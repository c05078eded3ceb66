import { randomBytes } from 'node:crypto';
import { BadRequestError } from '../errors.js';
import { approveTarget, TargetRefusedError, type Resolver } from '../net/outbound-target.js';
import type { JsonObject } from '../records/mapper.js';
import type { Core } from '../core.js';
import {
  PAYLOAD_FORMATS,
  SIGNATURE_SCHEMES,
  type PayloadFormat,
  type SignatureScheme,
} from './delivery-log-store.js';
import { generateStandardSecret, isStandardSecret } from './webhook-signature.js';

/** Checks of the members of subscription requests; each refusal is a 400 naming the field. */

/** Refuses members a request may not carry. */
export function refuseUnknown(input: JsonObject, known: readonly string[]): void {
  const unknown = Object.keys(input).filter((key) => !known.includes(key));
  if (unknown.length > 0)
    throw new BadRequestError(`unknown members ${unknown.join(', ')}; send ${known.join(', ')}`);
}

/** A label: at most 200 characters; blank or null is none. */
export function labelOf(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string' || value.length > 200)
    throw new BadRequestError('label must be a string of at most 200 characters', {
      errors: [{ field: 'label', message: 'label must be a string of at most 200 characters' }],
    });
  return value.trim() === '' ? null : value.trim();
}

/** A webhook secret chosen by the caller: 16 to 512 characters without white space. */
export function secretOf(value: unknown): string {
  if (typeof value !== 'string' || value.length < 16 || value.length > 512 || /\s/.test(value)) {
    const message = 'webhook_secret must be 16 to 512 characters without white space';
    throw new BadRequestError(message, { errors: [{ field: 'webhook_secret', message }] });
  }
  return value;
}

/** A new webhook secret: `whsec_` and 256 random bits in hex. */
export const generateSecret = (): string => `whsec_${randomBytes(32).toString('hex')}`;

/** Whether a `webhook_url` value asks for no webhook. */
export const isClearing = (value: unknown): boolean => value === null || value === '';

/** Checks a webhook URL against the target rules (https, public address) as the configuration sets them. */
export async function approvedWebhook(
  core: Core,
  value: unknown,
  resolve: Resolver | undefined,
): Promise<string> {
  if (typeof value !== 'string') throw new BadRequestError('webhook_url must be a URL string');
  const { allowHttp, allowPrivateTargets } = core.config.subscriptions;
  try {
    const target = await approveTarget(value.trim(), {
      allowHttp,
      allowPrivate: allowPrivateTargets,
      resolve,
    });
    return target.url.href;
  } catch (error) {
    if (!(error instanceof TargetRefusedError)) throw error;
    const message = `webhook_url: ${error.message}`;
    const hints =
      error.code === 'scheme' && !allowHttp
        ? ['use an https URL (the operator may allow http with REG_SUBSCRIPTION_ALLOW_HTTP, for tests only)']
        : error.code === 'non-public'
          ? ['webhooks go to public addresses only (REG_SUBSCRIPTION_ALLOW_PRIVATE_TARGETS relaxes this)']
          : [];
    throw new BadRequestError(message, { errors: [{ field: 'webhook_url', message }], hints });
  }
}

/**
 * The secret an edit sets, if any: the caller's `webhook_secret`, a new one for `rotate_secret` or for a
 * subscription that gains its first webhook, or null (unchanged).
 */
export function editedSecret(
  input: JsonObject,
  webhook: string | null,
  stored: string | null,
): string | null {
  let secret: string | null = null;
  if (input.webhook_secret !== undefined && input.webhook_secret !== null) {
    if (input.rotate_secret === true)
      throw new BadRequestError('send webhook_secret or rotate_secret, not both');
    secret = secretOf(input.webhook_secret);
  } else if (input.rotate_secret === true || (webhook !== null && stored === null)) {
    secret = generateSecret();
  }
  if (secret !== null && webhook === null)
    throw new BadRequestError('a pull-only subscription has no secret: set webhook_url first');
  return secret;
}

/** A secret for the scheme: the caller's (checked) or a new one. */
export function schemeSecret(scheme: SignatureScheme, given: unknown, field = 'secret'): string {
  if (given === undefined || given === null)
    return scheme === 'standard-webhooks' ? generateStandardSecret() : generateSecret();
  if (scheme === 'standard-webhooks') {
    if (typeof given !== 'string' || !isStandardSecret(given)) {
      const message = `${field} must be whsec_ followed by the base64 of 24 to 64 bytes (the Standard Webhooks form)`;
      throw new BadRequestError(message, { errors: [{ field, message }] });
    }
    return given;
  }
  return secretOf(given);
}

/** A payload format as sent (`format`), or undefined when absent. */
export function formatOf(value: unknown): PayloadFormat | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'string' && (PAYLOAD_FORMATS as readonly string[]).includes(value))
    return value as PayloadFormat;
  const message = `format must be one of ${PAYLOAD_FORMATS.join(', ')}`;
  throw new BadRequestError(message, { errors: [{ field: 'format', message }] });
}

/** A signature scheme as sent (`signature`), or undefined when absent. */
export function signatureOf(value: unknown): SignatureScheme | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'string' && (SIGNATURE_SCHEMES as readonly string[]).includes(value))
    return value as SignatureScheme;
  const message = `signature must be one of ${SIGNATURE_SCHEMES.join(', ')}`;
  throw new BadRequestError(message, { errors: [{ field: 'signature', message }] });
}

/** Refuses a secret the Standard Webhooks scheme cannot sign with. */
export function requireSchemeSecret(scheme: SignatureScheme, secret: string | null): void {
  if (scheme !== 'standard-webhooks' || secret === null || isStandardSecret(secret)) return;
  const message =
    'signature standard-webhooks needs a secret of the form whsec_ and the base64 of 24 to 64 bytes: send rotate_secret: true or such a webhook_secret';
  throw new BadRequestError(message, { errors: [{ field: 'signature', message }] });
}
