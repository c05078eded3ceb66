import type { SubscriptionSettings } from '../config/index.js';
import { describeRequestError, HttpRefusedError, httpRequest } from '../net/http-client.js';
import type { Resolver } from '../net/outbound-target.js';
import {
  dueDeliveries,
  markAttemptFailed,
  markDelivered,
  unscheduleDeliveries,
  type DueDelivery,
} from '../store/deliveries.js';
import { recordWebhookFailure, recordWebhookSuccess } from '../store/subscriptions.js';
import type { Core } from '../core.js';
import { withNotifications } from '../subscriptions/subscription-deliveries.js';
import { signWebhook, WEBHOOK_HEADERS } from '../subscriptions/webhook-signature.js';

/** Dependencies a test replaces: the clock, the retry schedule, DNS, and the certificate authorities trusted. */
export interface WebhookWorkerOptions {
  readonly now?: () => Date;
  /** Milliseconds to wait after the given number of failed attempts (default: `backoffDelay`). */
  readonly backoff?: (attempts: number) => number;
  readonly resolve?: Resolver;
  readonly ca?: string | Buffer;
}

/** How much of a receiver's answer is read and kept (for `last_error`). */
const MAX_RESPONSE_BYTES = 2048;

/** The retry delay after `attempts` failed attempts: `base × 2^(attempts−1)`, capped at the maximum (spec §3). */
export function backoffDelay(settings: SubscriptionSettings, attempts: number): number {
  return Math.min(settings.backoffBaseMs * 2 ** Math.max(attempts - 1, 0), settings.backoffMaxMs);
}

type Outcome =
  | { readonly ok: true; readonly status: number }
  | { readonly ok: false; readonly status: number | null; readonly error: string };

const oneLine = (text: string, max = 200): string => {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max)}…` : line;
};

/**
 * The webhook delivery worker: every tick it takes the deliveries that are due (oldest first, at most the batch
 * size), posts each signed event to its subscription's webhook over a connection pinned to the address that was
 * just checked, and records the outcome: delivered, retried after the backoff, or dead after the last attempt.
 * A webhook that fails too often in a row is suspended until resumed; pull delivery is never affected. All
 * state is in the operational database, so a restart loses nothing.
 */
export class WebhookWorker {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> | undefined;
  private stopped = true;
  private readonly now: () => Date;
  private readonly backoff: (attempts: number) => number;

  constructor(
    private readonly core: Core,
    private readonly options: WebhookWorkerOptions = {},
  ) {
    this.now = options.now ?? (() => new Date());
    this.backoff = options.backoff ?? ((attempts) => backoffDelay(core.config.subscriptions, attempts));
  }

  /** Starts ticking every `REG_SUBSCRIPTION_TICK`. */
  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.schedule();
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.running = this.tick()
        .catch((error: unknown) =>
          this.core.log.error('webhook delivery pass failed', { error: (error as Error).message }),
        )
        .finally(() => {
          this.running = undefined;
          this.schedule();
        });
    }, this.core.config.subscriptions.tickMs);
    this.timer.unref();
  }

  /** Stops ticking and waits for the pass under way (its requests are bounded by the attempt timeout). */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  /**
   * One pass: attempts every due delivery (up to the batch size). Deliveries of one subscription go one after
   * another, in queue order, and stop when its webhook is suspended; subscriptions go in parallel. Returns the
   * number of attempts made.
   */
  async tick(): Promise<number> {
    const { batch } = this.core.config.subscriptions;
    const due = dueDeliveries(this.core.db, this.now().toISOString(), batch);
    const groups = new Map<string, DueDelivery[]>();
    for (const delivery of due) {
      const group = groups.get(delivery.subscription_id) ?? [];
      group.push(delivery);
      groups.set(delivery.subscription_id, group);
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

  private async attempt(delivery: DueDelivery): Promise<'delivered' | 'failed' | 'suspended' | 'skipped'> {
    let body: string;
    try {
      const [row] = await withNotifications(this.core, [delivery]);
      if (row?.notification === null || row === undefined) return 'skipped';
      body = row.notification;
    } catch (error) {
      // The event body could not be built yet (the query index is still loading): try again next pass.
      this.core.log.warn('webhook delivery postponed', {
        delivery: delivery.id,
        error: (error as Error).message,
      });
      return 'skipped';
    }
    const startedAt = this.now();
    const outcome = await this.post(delivery, body, startedAt);
    return this.record(delivery, outcome, startedAt);
  }

  private async post(delivery: DueDelivery, body: string, at: Date): Promise<Outcome> {
    const settings = this.core.config.subscriptions;
    const timestamp = Math.floor(at.getTime() / 1000);
    const headers = {
      'content-type': 'application/json',
      'user-agent': `reg/${this.core.version} (webhook)`,
      [WEBHOOK_HEADERS.delivery]: delivery.id,
      [WEBHOOK_HEADERS.subscription]: delivery.subscription_id,
      [WEBHOOK_HEADERS.timestamp]: String(timestamp),
      [WEBHOOK_HEADERS.attempt]: String(delivery.attempts + 1),
      [WEBHOOK_HEADERS.signature]: signWebhook(delivery.webhook_secret, timestamp, body),
    };
    try {
      // Resolved and checked again at every attempt; the connection goes to the address checked then. A redirect
      // is reported, never followed, and the answer is read only as far as `last_error` needs.
      const response = await httpRequest(delivery.webhook_url, {
        method: 'POST',
        headers,
        body,
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
      if (response.status >= 200 && response.status < 300) return { ok: true, status: response.status };
      const answer = response.body.toString('utf8');
      const error =
        response.status >= 300 && response.status < 400
          ? `redirect (${response.status}) to ${response.headers.get('location') ?? 'an unnamed location'} not followed`
          : `answered ${response.status}${answer.trim() === '' ? '' : `: ${oneLine(answer)}`}`;
      return { ok: false, status: response.status, error };
    } catch (error) {
      const reason =
        error instanceof HttpRefusedError ? `target refused: ${error.message}` : describeRequestError(error);
      return { ok: false, status: null, error: oneLine(reason, 500) };
    }
  }

  private record(
    delivery: DueDelivery,
    outcome: Outcome,
    startedAt: Date,
  ): 'delivered' | 'failed' | 'suspended' {
    const { db, config, log } = this.core;
    const at = startedAt.toISOString();
    return db.transaction(() => {
      if (outcome.ok) {
        markDelivered(db, delivery.seq, at, outcome.status);
        recordWebhookSuccess(db, delivery.subscription_id, at);
        return 'delivered';
      }
      const attempts = delivery.attempts + 1;
      const retryAt =
        attempts >= config.subscriptions.maxAttempts
          ? null
          : new Date(startedAt.getTime() + this.backoff(attempts)).toISOString();
      markAttemptFailed(db, delivery.seq, { at, retryAt, error: outcome.error, status: outcome.status });
      const suspended = recordWebhookFailure(
        db,
        delivery.subscription_id,
        at,
        outcome.error,
        config.subscriptions.suspendAfter,
      );
      if (!suspended) return 'failed';
      unscheduleDeliveries(db, delivery.subscription_id);
      log.warn('webhook suspended after repeated failures', {
        subscription: delivery.subscription_id,
        failures: config.subscriptions.suspendAfter,
        error: outcome.error,
      });
      return 'suspended';
    });
  }
}
