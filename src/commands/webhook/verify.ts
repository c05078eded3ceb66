import fs from 'node:fs';
import { Flags } from '@oclif/core';
import { RegCommand } from '../../cli/base-command.js';
import { readSecretFile } from '../../cli/client/subscriptions.js';
import { UsageError } from '../../cli/client/errors.js';
import { MalformedInputError, RegError } from '../../core/errors.js';
import {
  DEFAULT_TOLERANCE_SECONDS,
  verifyWebhook,
  WEBHOOK_HEADERS,
  type WebhookRefusal,
} from '../../core/subscriptions/webhook-signature.js';

/** What `reg webhook verify` prints under --json for a valid delivery. */
export interface VerifyResult {
  readonly valid: true;
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

export default class WebhookVerify extends RegCommand {
  static override summary = 'Check a received webhook delivery against its secret.';
  static override description = `For receivers and their tests: checks that a body and its x-reg-timestamp and x-reg-signature headers were signed with the subscription's secret (sha256= and the hex HMAC-SHA256 of "{timestamp}.{body}"), and that the timestamp lies within --tolerance seconds of now, so that a captured delivery cannot be replayed later. The body must be exactly the bytes received. Give the headers with --timestamp and --signature, or as a header block with --headers. Exits 0 when the delivery is valid; otherwise exits 1 with a one-line reason (bad signature, stale timestamp, malformed header). Talks to no registry.`;
  static override examples = [
    '<%= config.bin %> <%= command.id %> --secret-file hook.secret --body body.json --timestamp 1795262400 --signature sha256=5d41…',
    '<%= config.bin %> <%= command.id %> --secret-file hook.secret --body - --headers headers.txt --tolerance 0 < body.json',
  ];
  static override flags = {
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
    timestamp: Flags.string({ description: 'the x-reg-timestamp header value', exclusive: ['headers'] }),
    signature: Flags.string({ description: 'the x-reg-signature header value', exclusive: ['headers'] }),
    headers: Flags.string({ description: 'file of received headers, one "name: value" per line' }),
    tolerance: Flags.integer({
      description: `seconds the timestamp may differ from now (default ${DEFAULT_TOLERANCE_SECONDS}; 0 skips the check)`,
      min: 0,
    }),
  };

  async run(): Promise<VerifyResult> {
    const { flags } = await this.parse(WebhookVerify);
    const secret = flags.secret ?? readSecretFile(flags['secret-file'] ?? '');
    const headers =
      flags.headers === undefined ? new Map<string, string>() : parseHeaders(readFileOrStdin(flags.headers));
    const timestamp = flags.timestamp ?? headers.get(WEBHOOK_HEADERS.timestamp);
    const signature = flags.signature ?? headers.get(WEBHOOK_HEADERS.signature);
    if (timestamp === undefined || signature === undefined) {
      throw new UsageError('give --timestamp and --signature, or --headers with both headers in it');
    }
    const verdict = verifyWebhook({
      secret,
      body: readFileOrStdin(flags.body),
      timestamp,
      signature,
      toleranceSeconds: flags.tolerance ?? DEFAULT_TOLERANCE_SECONDS,
    });
    if (!verdict.valid) throw new InvalidWebhookError(verdict.code, verdict.reason);
    this.log(`valid: signed ${verdict.age_seconds} s ago`);
    return {
      valid: true,
      timestamp: verdict.timestamp,
      age_seconds: verdict.age_seconds,
      delivery: headers.get(WEBHOOK_HEADERS.delivery) ?? null,
      subscription: headers.get(WEBHOOK_HEADERS.subscription) ?? null,
    };
  }
}
