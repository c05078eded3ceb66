import { UnavailableError } from '../../errors.js';

interface Waiter {
  readonly admit: () => void;
  readonly timer: NodeJS.Timeout;
}

/**
 * At most `slots` client queries at a time, the others waiting in arrival order; one that waits longer than it
 * may is refused as busy (503, to be retried) rather than left hanging.
 */
export class QueryGate {
  private running = 0;
  private readonly waiting: Waiter[] = [];

  constructor(private readonly slots: number) {}

  /** Waits for a slot (at most `waitMs`); returns the function that gives it back, to be called exactly once. */
  async enter(waitMs: number): Promise<() => void> {
    if (this.running < this.slots) {
      this.running++;
    } else {
      await new Promise<void>((resolve, reject) => {
        const waiter: Waiter = {
          admit: resolve,
          timer: setTimeout(() => {
            this.waiting.splice(this.waiting.indexOf(waiter), 1);
            reject(
              new UnavailableError(
                `the SPARQL endpoint is busy with other queries and could not start this one within ${waitMs / 1000} s; try again shortly`,
              ),
            );
          }, waitMs),
        };
        this.waiting.push(waiter);
      });
    }
    let left = false;
    return () => {
      if (left) return;
      left = true;
      this.leave();
    };
  }

  /** Hands the slot to the longest waiter, or frees it. */
  private leave(): void {
    const next = this.waiting.shift();
    if (next === undefined) {
      this.running--;
      return;
    }
    clearTimeout(next.timer);
    next.admit();
  }
}
