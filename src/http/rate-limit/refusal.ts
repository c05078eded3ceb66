import type { RateLimitClass, RateLimitRule } from '../../core/config/index.js';
import { RegError } from '../../core/errors.js';

const UNITS: readonly (readonly [ms: number, unit: string])[] = [
  [3_600_000, 'h'],
  [60_000, 'min'],
  [1000, 's'],
];

/** A rate as it is written in the settings: `30/min`. */
export function rateText(rule: RateLimitRule): string {
  const unit = UNITS.find(([ms]) => ms === rule.periodMs)?.[1] ?? `${rule.periodMs / 1000}s`;
  return `${rule.count}/${unit}`;
}

/** A caller sent more requests of one class than its rate allows (429); `retryAfter` is in whole seconds. */
export class RateLimitedError extends RegError {
  readonly retryAfter: number;

  constructor(limitClass: RateLimitClass, rule: RateLimitRule, anonymous: boolean, retryAfter: number) {
    const detail =
      limitClass === 'auth_fail'
        ? 'authentication refused for this address: too many failed credentials'
        : `${limitClass} limit for ${anonymous ? 'anonymous clients' : 'clients with a credential'}: ${rateText(rule)}, burst ${rule.burst}`;
    super('rate-limited', detail, {
      extra: { limit_class: limitClass, retry_after: retryAfter },
      hints: [
        limitClass === 'auth_fail'
          ? `check the credential; this address may try again in ${retryAfter} s`
          : `wait ${retryAfter} s before the next ${limitClass} request`,
      ],
    });
    this.retryAfter = retryAfter;
  }
}
