import { performance } from 'node:perf_hooks';
import type { SubscriptionSettings } from '../config/index.js';
import { describeRequestError, HttpRefusedError, httpRequest } from '../net/http-client.js';
import type { Resolver } from '../net/outbound-target.js';
import { markAttemptFailed, markDelivered, unscheduleDeliveries } from '../store/deliveries.js';
import { recordWebhookFailure, recordWebhookSuccess } from '../store/subscriptions.js';
import type { Core } from '../core.js';
import { dueAttempts, insertAttempt, pruneFinished, type DueAttempt } from './delivery-log-store.js';
import { withNotifications } from './subscription-deliveries.js';
import { formatPayload } from './webhook-formats.js';
import { signatureHeaders, WEBHOOK_HEADERS } from './webhook-signature.js';

/** Dependencies a test replaces: the clock, the retry schedule, DNS, the certificate authorities, the retention. */
export interface WebhookSenderOptions {
  readonly now?: () => Date;
  /** Milliseconds to wait after the given number of failed attempts (default: `retryDelay`). */
  readonly backoff?: (attempts: number) => number;
  readonly resolve?: Resolver | undefined;
  readonly ca?: string | Buffer | undefined;
  /** How long delivered and dead deliveries are kept (default: `REG_DELIVERY_RETENTION`, else 7 days). */
  readonly retentionMs?: number;
}

/** How much of a receiver's answer is read and kept in the delivery log. */
export const MAX_RESPONSE_BYTES = 2048;

/** How often (by the sender's clock) finished deliveries past their retention are removed. */
const PRUNE_EVERY_MS = 60_000;

/** The retry delay after `attempts` failed attempts: `base × 2^(attempts−1)`, capped at the maximum (spec §3). */
export function retryDelay(settings: SubscriptionSettings, attempts: number): number {
  return Math.min(settings.backoffBaseMs * 2 ** Math.max(attempts - 1, 0), settings.backoffMaxMs);
}

/**
 * The delay a receiver asks for in `Retry-After` (delay seconds, or an HTTP date read against `now`), in
 * milliseconds; undefined when the header is absent or unreadable. A date in the past is no delay.
 */
export function retryAfterMs(value: string | null, now: Date): number | undefined {
  const text = value?.trim() ?? '';
  if (text === '') return undefined;
  if (/^\d{1,10}$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  if (Number.isNaN(date)) return undefined;
  return Math.max(date - now.getTime(), 0);
}

/** The configured retention of finished deliveries (`REG_DELIVERY_RETENTION`). */
export function configuredRetention(core: Core): number {
  return core.config.subscriptions.deliveryRetentionMs;
}

/** Removes delivered and dead deliveries (with their attempts) finished before `now − retention`. */
export function pruneDeliveries(core: Core, now: Date, retentionMs = configuredRetention(core)): number {
  return pruneFinished(core.db, new Date(now.getTime() - retentionMs).toISOString());
}

/** What one attempt came to. */
interface Outcome {
  readonly ok: boolean;
  readonly status: number | null;
  readonly error: string | null;
  readonly response: string | null;
  readonly retryAfterMs: number | undefined;
  readonly durationMs: number;
}

const oneLine = (text: string, max = 200): string => {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max)}…` : line;
};

/**
 * Sends due webhook deliveries: each in its subscription's payload format, signed under its scheme (by both
 * secrets while a rotation overlaps), over a connection pinned to the address just checked. Every attempt is
 * kept in the delivery log; the outcome is delivered, retried after the backoff (or after the receiver's
 * `Retry-After` on 429 and 503, within the backoff cap), or dead once the retry budget is spent. A webhook that
 * fails too often in a row is suspended until resumed. Finished deliveries past their retention are pruned.
 */
export class WebhookSender {
  private readonly now: () => Date;
  private readonly backoff: (attempts: number) => number;
  private prunedAt: number | undefined;

  constructor(
    private readonly core: Core,
    private readonly options: WebhookSenderOptions = {},
  ) {
    this.now = options.now ?? (() => new Date());
    this.backoff = options.backoff ?? ((attempts) => retryDelay(core.config.subscriptions, attempts));
  }

  /**
   * One pass: prunes when due, then attempts every due delivery (up to the batch size). Deliveries of one
   * subscription go one after another, in queue order, and stop when its webhook is suspended; subscriptions go
   * in parallel. Returns the number of attempts made.
   */
  async tick(): Promise<number> {
    this.prune();
    const { batch } = this.core.config.subscriptions;
    const groups = new Map<string, DueAttempt[]>();
    for (const delivery of dueAttempts(this.core.db, this.now().toISOString(), batch)) {
      groups.set(delivery.subscription_id, [...(groups.get(delivery.subscription_id) ?? []), delivery]);
    }
    const counts = await Promise.all(
      [...groups.values()].map(async (group) => {
        let attempts = 0;
        for (const delivery of group) {
          const result = await this.attempt(delivery);
          if (result !== 'skipped') attempts++;
          if (result === 'suspended') break;
        }
        return attempts;
      }),
    );
    return counts.reduce((sum, n) => sum + n, 0);
  }

  private prune(): void {
    const now = this.now();
    if (this.prunedAt !== undefined && now.getTime() - this.prunedAt < PRUNE_EVERY_MS) return;
    this.prunedAt = now.getTime();
    const removed = pruneDeliveries(this.core, now, this.options.retentionMs);
    if (removed > 0) this.core.log.debug('finished webhook deliveries pruned', { removed });
  }

  private async attempt(delivery: DueAttempt): Promise<'delivered' | 'failed' | 'suspended' | 'skipped'> {
    let notification: string;
    try {
      const [row] = await withNotifications(this.core, [delivery]);
      if (row?.notification === null || row === undefined) return 'skipped';
      notification = row.notification;
    } catch (error) {
      // The event body could not be built yet (the query index is still loading): try again next pass.
      this.core.log.warn('webhook delivery postponed', {
        delivery: delivery.id,
        error: (error as Error).message,
      });
      return 'skipped';
    }
    const startedAt = this.now();
    const outcome = await this.post(delivery, notification, startedAt);
    return this.record(delivery, outcome, startedAt);
  }

  /** The secrets that sign an attempt at `at`: the current one, and the previous one during its overlap. */
  private secrets(delivery: DueAttempt, at: Date): string[] {
    const previous = delivery.previous_secret;
    const until = delivery.previous_secret_until;
    const overlapping = previous !== null && until !== null && Date.parse(until) > at.getTime();
    return overlapping ? [delivery.webhook_secret, previous] : [delivery.webhook_secret];
  }

  private async post(delivery: DueAttempt, notification: string, at: Date): Promise<Outcome> {
    const settings = this.core.config.subscriptions;
    const timestamp = Math.floor(at.getTime() / 1000);
    const payload = formatPayload(delivery.format, this.core.config.baseIri, delivery, notification);
    const headers = {
      'content-type': payload.contentType,
      'user-agent': `reg/${this.core.version} (webhook)`,
      [WEBHOOK_HEADERS.delivery]: delivery.id,
      [WEBHOOK_HEADERS.subscription]: delivery.subscription_id,
      [WEBHOOK_HEADERS.timestamp]: String(timestamp),
      [WEBHOOK_HEADERS.attempt]: String(delivery.attempts + 1),
      ...payload.headers,
      ...signatureHeaders(
        delivery.signature,
        this.secrets(delivery, at),
        delivery.id,
        timestamp,
        payload.body,
      ),
    };
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    try {
      // Resolved and checked again at every attempt; the connection goes to the address checked then. A redirect
      // is reported, never followed, and the answer is read only as far as the log keeps it.
      const response = await httpRequest(delivery.webhook_url, {
        method: 'POST',
        headers,
        body: payload.body,
        addresses: {
          allowHttp: settings.allowHttp,
          allowPrivate: settings.allowPrivateTargets,
          resolve: this.options.resolve,
        },
        timeoutMs: settings.timeoutMs,
        maxBytes: MAX_RESPONSE_BYTES,
        overflow: 'truncate',
        ca: this.options.ca,
      });
      const durationMs = elapsed();
      const answer = response.body.toString('utf8');
      const kept = answer === '' ? null : answer;
      if (response.status >= 200 && response.status < 300)
        return {
          ok: true,
          status: response.status,
          error: null,
          response: kept,
          retryAfterMs: undefined,
          durationMs,
        };
      const error =
        response.status >= 300 && response.status < 400
          ? `redirect (${response.status}) to ${response.headers.get('location') ?? 'an unnamed location'} not followed`
          : `answered ${response.status}${answer.trim() === '' ? '' : `: ${oneLine(answer)}`}`;
      const retryAfter =
        response.status === 429 || response.status === 503
          ? retryAfterMs(response.headers.get('retry-after'), at)
          : undefined;
      return {
        ok: false,
        status: response.status,
        error,
        response: kept,
        retryAfterMs: retryAfter,
        durationMs,
      };
    } catch (error) {
      const reason =
        error instanceof HttpRefusedError ? `target refused: ${error.message}` : describeRequestError(error);
      return {
        ok: false,
        status: null,
        error: oneLine(reason, 500),
        response: null,
        retryAfterMs: undefined,
        durationMs: elapsed(),
      };
    }
  }

  /** When a failed attempt is tried again, or null when the delivery's retry budget is spent. */
  private retryAt(delivery: DueAttempt, outcome: Outcome, startedAt: Date): string | null {
    const { maxAttempts, backoffMaxMs } = this.core.config.subscriptions;
    const spent = delivery.attempts + 1 - delivery.budget_start;
    if (spent >= maxAttempts) return null;
    const delay =
      outcome.retryAfterMs === undefined ? this.backoff(spent) : Math.min(outcome.retryAfterMs, backoffMaxMs);
    return new Date(startedAt.getTime() + delay).toISOString();
  }

  private record(
    delivery: DueAttempt,
    outcome: Outcome,
    startedAt: Date,
  ): 'delivered' | 'failed' | 'suspended' {
    const { db, config, log } = this.core;
    const at = startedAt.toISOString();
    return db.transaction(() => {
      const retryAt = outcome.ok ? null : this.retryAt(delivery, outcome, startedAt);
      insertAttempt(db, {
        delivery_seq: delivery.seq,
        subscription_id: delivery.subscription_id,
        attempt: delivery.attempts + 1,
        at,
        status: outcome.status,
        duration_ms: outcome.durationMs,
        response: outcome.response,
        error: outcome.error,
        retry_at: retryAt,
      });
      if (outcome.ok) {
        markDelivered(db, delivery.seq, at, outcome.status!);
        recordWebhookSuccess(db, delivery.subscription_id, at);
        return 'delivered';
      }
      const error = outcome.error ?? 'failed';
      markAttemptFailed(db, delivery.seq, { at, retryAt, error, status: outcome.status });
      const suspended = recordWebhookFailure(
        db,
        delivery.subscription_id,
        at,
        error,
        config.subscriptions.suspendAfter,
      );
      if (!suspended) return 'failed';
      unscheduleDeliveries(db, delivery.subscription_id);
      log.warn('webhook suspended after repeated failures', {
        subscription: delivery.subscription_id,
        failures: config.subscriptions.suspendAfter,
        error,
      });
      return 'suspended';
    });
  }
}
