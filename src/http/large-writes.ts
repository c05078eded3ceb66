import { setTimeout as sleep } from 'node:timers/promises';
import type { Context, MiddlewareHandler } from 'hono';
import type { AppEnv } from './env.js';

/**
 * Bytes of request body from which a write counts as large: about a hundred ordinary records. Validation sends
 * payloads of this size to a lane of their own for the same reason.
 */
export const LARGE_WRITE_BYTES = 256 * 1024;

/**
 * Turns for large writes. A large write (an advertisement of hundreds of artifacts near the payload limit) costs
 * the serving thread hundreds of milliseconds however finely it is sliced, so a client sending them back to back
 * would take most of the thread from everyone else. Large writes therefore take turns, one at a time, and while
 * other requests are under way each waits after the previous one so that large writes together hold at most
 * `percent` of the time (`REG_LARGE_WRITE_SHARE`). When nothing else is under way there is no wait: a bulk load
 * into a quiet registry runs at full speed.
 */
export class LargeWriteTurns {
  private queue: Promise<void> = Promise.resolve();
  private restUntil = 0;
  /** Large writes holding or waiting for a turn. */
  private large = 0;
  /** Every request under way, large writes included. */
  private underWay = 0;

  constructor(private readonly percent: number) {}

  /** Counts requests under way and ends the turn of a large write when its response is ready. */
  middleware(): MiddlewareHandler<AppEnv> {
    return async (c, next) => {
      c.set('largeWrites', this);
      this.underWay++;
      try {
        await next();
      } finally {
        this.underWay--;
        c.get('endLargeWrite')?.();
      }
    };
  }

  /** Waits for the request's turn if its body of `bytes` is large; the turn ends with the response. */
  async take(c: Context<AppEnv>, bytes: number): Promise<void> {
    if (bytes < LARGE_WRITE_BYTES || this.percent >= 100 || c.get('endLargeWrite') !== undefined) return;
    this.large++;
    const previous = this.queue;
    let next!: () => void;
    this.queue = new Promise((resolve) => (next = resolve));
    let ended = false;
    let started = performance.now();
    c.set('endLargeWrite', () => {
      if (ended) return;
      ended = true;
      this.large--;
      const held = performance.now() - started;
      this.restUntil = Date.now() + (held * (100 - this.percent)) / this.percent;
      next();
    });
    await previous;
    // The rest is cut short as soon as only large writes are left.
    while (Date.now() < this.restUntil && this.underWay > this.large)
      await sleep(Math.min(25, this.restUntil - Date.now()));
    started = performance.now();
  }
}
