import { timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import { Flags } from '@oclif/core';
import { RegCommand } from '../../cli/base-command.js';
import { readSecretFile } from '../../cli/client/subscriptions.js';
import { UsageError } from '../../cli/client/errors.js';
import { MalformedInputError, RegError } from '../../core/errors.js';
import {
  DEFAULT_TOLERANCE_SECONDS,
  signStandardWebhook,
  STANDARD_WEBHOOK_HEADERS,
  verifyWebhook,
  WEBHOOK_HEADERS,
  type WebhookRefusal,
  type WebhookVerdict,
} from '../../core/subscriptions/webhook-signature.js';

/** The signature schemes a delivery may be checked under: the registry's own, or Standard Webhooks. */
const SCHEMES = ['reg', 'standard-webhooks'] as const;
type Scheme = (typeof SCHEMES)[number];

/** What `reg webhook verify` prints under --json for a valid delivery. */
export interface VerifyResult {
  readonly valid: true;
  readonly scheme: Scheme;
  readonly timestamp: number;
  readonly age_seconds: number;
  readonly delivery: string | null;
  readonly subscription: string | null;
}

/** A delivery that failed verification: exit 1 with the reason as the message. */
class InvalidWebhookError extends RegError {
  constructor(code: WebhookRefusal, reason: string) {
    super(`webhook-${code}`, reason);
  }
}

function readFileOrStdin(file: string): string {
  try {
    return fs.readFileSync(file === '-' ? 0 : file, 'utf8');
  } catch (error) {
    throw new MalformedInputError(
      `${file === '-' ? 'standard input' : file} cannot be read: ${(error as Error).message}`,
    );
  }
}

/** Header values from a raw header block (`name: value` lines, as `curl -D` or a receiver's log writes them). */
function parseHeaders(text: string): Map<string, string> {
  const headers = new Map<string, string>();
  for (const line of text.split(/\r?\n/)) {
    const match = /^([A-Za-z0-9-]+):\s*(.*?)\s*$/.exec(line);
    if (match?.[1] !== undefined && match[2] !== undefined) headers.set(match[1].toLowerCase(), match[2]);
  }
  return headers;
}

/** What a Standard Webhooks receiver got: the body, the webhook-id, -timestamp and -signature values and the secret. */
interface StandardCheck {
  readonly secret: string;
  readonly id: string;
  readonly timestamp: string;
  readonly signature: string;
  readonly body: string;
  readonly toleranceSeconds: number;
}

const STANDARD_SECRET = /^(?:whsec_)?[A-Za-z0-9+/]+={0,2}$/;

/**
 * Verifies a Standard Webhooks delivery: `webhook-signature` holds space-separated `v1,<base64>` signatures (any one
 * matching is enough, as during a secret rotation; signatures of other versions are skipped), each compared in
 * constant time with the registry's own signature of "{id}.{timestamp}.{body}", and the timestamp must lie within
 * the tolerance. The same refusal codes as the registry's own scheme.
 */
function verifyStandardWebhook(check: StandardCheck): WebhookVerdict {
  const timestamp = check.timestamp.trim();
  if (!/^\d{1,12}$/.test(timestamp))
    return {
      valid: false,
      code: 'malformed-timestamp',
      reason: `the timestamp "${timestamp}" is not Unix seconds`,
    };
  const given = check.signature
    .trim()
    .split(/\s+/)
    .filter((entry) => entry.startsWith('v1,'))
    .map((entry) => entry.slice(3));
  if (given.length === 0 || !given.every((signature) => /^[A-Za-z0-9+/]+={0,2}$/.test(signature)))
    return {
      valid: false,
      code: 'malformed-signature',
      reason: 'the signature holds no "v1," followed by a base64 signature',
    };
  const seconds = Number(timestamp);
  const expected = Buffer.from(
    signStandardWebhook(check.secret, check.id, seconds, check.body).slice(3),
    'base64',
  );
  const matches = given.some((signature) => {
    const bytes = Buffer.from(signature, 'base64');
    return bytes.length === expected.length && timingSafeEqual(bytes, expected);
  });
  if (!matches)
    return {
      valid: false,
      code: 'bad-signature',
      reason: 'the signature does not match the id, timestamp, body and secret',
    };
  const age = Math.round(Date.now() / 1000) - seconds;
  if (check.toleranceSeconds > 0 && Math.abs(age) > check.toleranceSeconds)
    return {
      valid: false,
      code: 'stale-timestamp',
      reason: `the timestamp is ${Math.abs(age)} s ${age >= 0 ? 'old' : 'in the future'}, beyond the tolerance of ${check.toleranceSeconds} s`,
    };
  return { valid: true, timestamp: seconds, age_seconds: age };
}

export default class WebhookVerify extends RegCommand {
  static override summary = 'Check a received webhook delivery against its secret.';
  static override description = `For receivers and their tests: checks that a delivery's body was signed with the subscription's secret, and that its timestamp lies within --tolerance seconds of now, so that a captured delivery cannot be replayed later. The body must be exactly the bytes received. Exits 0 when the delivery is valid; otherwise exits 1 with a one-line reason (bad signature, stale timestamp, malformed header). Talks to no registry.

--scheme says how the subscription signs. Under reg (the default) the headers are x-reg-timestamp and x-reg-signature: sha256= and the hex HMAC-SHA256 of "{timestamp}.{body}" under the secret. Under standard-webhooks they are webhook-id, webhook-timestamp and webhook-signature: v1, and the base64 HMAC-SHA256 of "{id}.{timestamp}.{body}", keyed with the bytes the whsec_ secret encodes in base64. During a secret rotation the signature header holds one signature per secret, separated by spaces: one matching is enough.

Give the headers with --timestamp and --signature (and --id under standard-webhooks), or as a header block with --headers.`;
  static override examples = [
    '<%= config.bin %> <%= command.id %> --secret-file hook.secret --body body.json --timestamp 1795262400 --signature sha256=5d41…',
    '<%= config.bin %> <%= command.id %> --secret-file hook.secret --body - --headers headers.txt --tolerance 0 < body.json',
    '<%= config.bin %> <%= command.id %> --scheme standard-webhooks --secret-file hook.secret --body body.json --headers headers.txt',
    '<%= config.bin %> <%= command.id %> --scheme standard-webhooks --secret-file hook.secret --body body.json --id 0190f5d2-8a1b-7c3d-9e4f-0123456789ab --timestamp 1795262400 --signature v1,K5oZ…',
  ];
  static override flags = {
    scheme: Flags.string({
      description:
        'how the subscription signs: reg (x-reg-signature) or standard-webhooks (webhook-signature)',
      options: [...SCHEMES],
      default: 'reg',
    }),
    secret: Flags.string({
      description: 'the webhook secret (visible in the process list: prefer --secret-file)',
      exactlyOne: ['secret', 'secret-file'],
    }),
    'secret-file': Flags.string({
      description: 'read the webhook secret from this file',
      exactlyOne: ['secret', 'secret-file'],
    }),
    body: Flags.string({
      description: 'file holding the body exactly as received (- for standard input)',
      required: true,
    }),
    id: Flags.string({
      description: 'the webhook-id header value (standard-webhooks)',
      exclusive: ['headers'],
    }),
    timestamp: Flags.string({
      description: 'the x-reg-timestamp (or webhook-timestamp) header value',
      exclusive: ['headers'],
    }),
    signature: Flags.string({
      description: 'the x-reg-signature (or webhook-signature) header value',
      exclusive: ['headers'],
    }),
    headers: Flags.string({ description: 'file of received headers, one "name: value" per line' }),
    tolerance: Flags.integer({
      description: `seconds the timestamp may differ from now (default ${DEFAULT_TOLERANCE_SECONDS}; 0 skips the check)`,
      min: 0,
    }),
  };

  async run(): Promise<VerifyResult> {
    const { flags } = await this.parse(WebhookVerify);
    const scheme = flags.scheme as Scheme;
    const secret = flags.secret ?? readSecretFile(flags['secret-file'] ?? '');
    const headers =
      flags.headers === undefined ? new Map<string, string>() : parseHeaders(readFileOrStdin(flags.headers));
    const toleranceSeconds = flags.tolerance ?? DEFAULT_TOLERANCE_SECONDS;
    const verdict =
      scheme === 'reg'
        ? verifyWebhook({
            secret,
            body: readFileOrStdin(flags.body),
            ...signedWith(headers, flags, WEBHOOK_HEADERS, 'standard-webhooks'),
            toleranceSeconds,
          })
        : verifyStandardWebhook({
            secret: standardSecret(secret),
            id: standardId(flags.id ?? headers.get(STANDARD_WEBHOOK_HEADERS.id)),
            body: readFileOrStdin(flags.body),
            ...signedWith(headers, flags, STANDARD_WEBHOOK_HEADERS, 'reg'),
            toleranceSeconds,
          });
    if (!verdict.valid) throw new InvalidWebhookError(verdict.code, verdict.reason);
    this.log(`valid: signed ${verdict.age_seconds} s ago`);
    return {
      valid: true,
      scheme,
      timestamp: verdict.timestamp,
      age_seconds: verdict.age_seconds,
      delivery: headers.get(WEBHOOK_HEADERS.delivery) ?? headers.get(STANDARD_WEBHOOK_HEADERS.id) ?? null,
      subscription: headers.get(WEBHOOK_HEADERS.subscription) ?? null,
    };
  }
}

/**
 * The timestamp and signature of a delivery, from the flags or the header block under the scheme's header names;
 * when they are missing but the block has the other scheme's signature, the refusal says to switch schemes.
 */
function signedWith(
  headers: ReadonlyMap<string, string>,
  flags: { readonly timestamp?: string | undefined; readonly signature?: string | undefined },
  names: { readonly timestamp: string; readonly signature: string },
  other: Scheme,
): { timestamp: string; signature: string } {
  const timestamp = flags.timestamp ?? headers.get(names.timestamp);
  const signature = flags.signature ?? headers.get(names.signature);
  if (timestamp !== undefined && signature !== undefined) return { timestamp, signature };
  const otherSignature = other === 'reg' ? WEBHOOK_HEADERS.signature : STANDARD_WEBHOOK_HEADERS.signature;
  throw new UsageError(
    headers.has(otherSignature)
      ? `the headers hold ${otherSignature}, not ${names.signature}: give --scheme ${other}`
      : `give --timestamp and --signature, or --headers with ${names.timestamp} and ${names.signature} in it`,
  );
}

/** The webhook-id a Standard Webhooks signature covers. */
function standardId(id: string | undefined): string {
  if (id === undefined || id === '')
    throw new UsageError(`give --id, or --headers with ${STANDARD_WEBHOOK_HEADERS.id} in it`);
  return id;
}

/** A Standard Webhooks secret: whsec_ and base64 (the prefix may be left out, as the scheme's libraries allow). */
function standardSecret(secret: string): string {
  if (!STANDARD_SECRET.test(secret))
    throw new UsageError(
      'a standard-webhooks secret is whsec_ followed by base64, as the subscription showed it when it was created',
    );
  return secret;
}
