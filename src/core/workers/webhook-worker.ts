import type { SubscriptionSettings } from '../config/index.js';
import type { Core } from '../core.js';
import { retryDelay, WebhookSender, type WebhookSenderOptions } from '../subscriptions/webhook-sender.js';

/** Dependencies a test replaces: the clock, the retry schedule, DNS, the certificate authorities, the retention. */
export type WebhookWorkerOptions = WebhookSenderOptions;

/** The retry delay after `attempts` failed attempts: `base × 2^(attempts−1)`, capped at the maximum (spec §3). */
export function backoffDelay(settings: SubscriptionSettings, attempts: number): number {
  return retryDelay(settings, attempts);
}

/**
 * The webhook delivery worker: every `REG_SUBSCRIPTION_TICK` it runs one pass of the subscriptions' sender (due
 * deliveries posted in their subscription's format and signature scheme, every attempt kept in the delivery log,
 * finished deliveries pruned after their retention). All state is in the operational database, so a restart
 * loses nothing.
 */
export class WebhookWorker {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> | undefined;
  private stopped = true;
  private readonly sender: WebhookSender;

  constructor(
    private readonly core: Core,
    options: WebhookWorkerOptions = {},
  ) {
    this.sender = new WebhookSender(core, options);
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

  /** One pass of the sender; returns the number of attempts made. */
  tick(): Promise<number> {
    return this.sender.tick();
  }
}
