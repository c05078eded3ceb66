import { setTimeout as delay } from 'node:timers/promises';

/** Waits `ms` milliseconds, or rejects as soon as `signal` aborts. Tests pass one that does not wait. */
export type Sleeper = (ms: number, signal?: AbortSignal) => Promise<void>;

/** The real sleeper, on Node's timers. */
export const sleep: Sleeper = async (ms, signal) => {
  await delay(ms, undefined, signal === undefined ? {} : { signal });
};

/** Gaps between two requests to one forge (contract: ≥2 s with a token, ≥120 s anonymous). */
export interface PaceGaps {
  readonly withTokenMs: number;
  readonly anonymousMs: number;
}

/**
 * The background sync's pacing: at least 2 s between requests to one forge with a token (at most 1,800 an hour
 * of GitHub's 5,000) and 120 s without one (30 an hour of 60), so a scheduled pass never exhausts the allowance
 * that people's own requests share.
 */
export const DEFAULT_PACE: PaceGaps = { withTokenMs: 2_000, anonymousMs: 120_000 };

/** Spaces requests to each forge API (and kind of credential) by the gaps. */
export class ForgePacer {
  private readonly last = new Map<string, number>();

  constructor(
    private readonly now: () => Date,
    private readonly wait: Sleeper = sleep,
    private readonly gaps: PaceGaps = DEFAULT_PACE,
  ) {}

  /** Resolves when a request to `key` may go out, and counts it as made then. */
  async pace(key: string, authenticated: boolean, signal?: AbortSignal): Promise<void> {
    const gap = authenticated ? this.gaps.withTokenMs : this.gaps.anonymousMs;
    const last = this.last.get(key);
    if (last !== undefined) {
      const remaining = last + gap - this.now().getTime();
      if (remaining > 0) await this.wait(remaining, signal);
    }
    this.last.set(key, this.now().getTime());
  }
}
