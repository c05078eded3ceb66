import type { RateLimitRule } from '../../core/config/index.js';

/** What a bucket says to one request. */
export interface Decision {
  readonly allowed: boolean;
  /** Requests the caller may still send at once (after this one, when it was allowed). */
  readonly remaining: number;
  /** Whole seconds until the bucket is full again. */
  readonly resetSeconds: number;
  /** Whole seconds, at least 1, until a refused request would be allowed; 0 when it was allowed. */
  readonly retryAfterSeconds: number;
}

/** Rounding slack, so that 2.9999999 requests left count as 3. */
const EPSILON = 1e-9;

/**
 * Rate buckets by key, kept by the generic cell rate algorithm: each key holds one number, the instant its
 * bucket would be full again if nothing more came (its theoretical arrival time). A request is allowed while that
 * instant is less than a burst's worth of intervals ahead; each allowed request moves it one interval on. A key
 * whose instant has passed is the same as no key, so sweeping drops it; past `maxKeys`, the oldest keys go first,
 * which only gives their callers a full bucket again.
 */
export class RateBuckets {
  private readonly due = new Map<string, number>();

  constructor(private readonly maxKeys: number) {}

  /** How many keys are held. */
  get size(): number {
    return this.due.size;
  }

  /** Counts one request of `key` against `rule` at `now` (ms) when it is allowed. */
  take(key: string, rule: RateLimitRule, now: number): Decision {
    const interval = rule.periodMs / rule.count;
    const tolerance = interval * (rule.burst - 1);
    const full = Math.max(this.due.get(key) ?? now, now);
    if (full - tolerance > now) return refusal(full, tolerance, now);
    const next = full + interval;
    if (!this.due.has(key)) this.makeRoom(now);
    this.due.set(key, next);
    return {
      allowed: true,
      remaining: Math.max(
        0,
        Math.min(rule.burst, Math.floor((now + tolerance - next) / interval + EPSILON) + 1),
      ),
      resetSeconds: Math.ceil((next - now) / 1000 - EPSILON),
      retryAfterSeconds: 0,
    };
  }

  /** The refusal `key` would get at `now` without counting anything, or undefined when it would be allowed. */
  refusing(key: string, rule: RateLimitRule, now: number): Decision | undefined {
    const held = this.due.get(key);
    if (held === undefined) return undefined;
    const tolerance = (rule.periodMs / rule.count) * (rule.burst - 1);
    return held - tolerance > now ? refusal(held, tolerance, now) : undefined;
  }

  /** Drops every key whose bucket is full again at `now`. */
  sweep(now: number): void {
    for (const [key, full] of this.due) if (full <= now) this.due.delete(key);
  }

  private makeRoom(now: number): void {
    if (this.due.size < this.maxKeys) return;
    this.sweep(now);
    for (const key of this.due.keys()) {
      if (this.due.size < this.maxKeys) break;
      this.due.delete(key);
    }
  }
}

function refusal(full: number, tolerance: number, now: number): Decision {
  return {
    allowed: false,
    remaining: 0,
    resetSeconds: Math.max(1, Math.ceil((full - now) / 1000 - EPSILON)),
    retryAfterSeconds: Math.max(1, Math.ceil((full - tolerance - now) / 1000 - EPSILON)),
  };
}
