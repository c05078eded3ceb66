import type { Context, MiddlewareHandler, Next } from 'hono';
import { ANONYMOUS, type Principal } from '../../core/access/principal.js';
import {
  RATE_LIMIT_CLASSES,
  type RateLimitClass,
  type RateLimitRule,
  type RateLimitSettings,
} from '../../core/config/parse.js';
import type { Logger } from '../../core/log.js';
import { clientAddress } from '../client-address.js';
import type { AppEnv } from '../env.js';
import { problemResponse } from '../problem.js';
import { RateBuckets, type Decision } from './buckets.js';
import { callerOf } from './caller.js';
import { classOf } from './classes.js';
import { RateLimitedError } from './refusal.js';

/** Keys held at most across every class; past it the oldest go (see `RateBuckets`). */
const MAX_KEYS = 100_000;
/** How often keys whose buckets are full again are dropped. */
const SWEEP_MS = 60_000;

/** Dependencies a test replaces: the clock (ms) and the bound on keys. */
export interface RateLimiterOptions {
  readonly now?: () => number;
  readonly maxKeys?: number;
}

/**
 * The rate limiter of one application: a bucket per class and caller (see `callerOf`), counted after
 * authentication so that a verified principal has buckets of its own; administrators and the root token are
 * never limited. Failed credentials are counted per address in `auth_fail`, and an address past that rate is
 * refused before its next credential is even checked. Buckets live in memory and are swept as time goes by.
 */
export class RateLimiter {
  private readonly buckets: RateBuckets;
  private readonly now: () => number;
  private readonly rejected = new Map<RateLimitClass, number>(RATE_LIMIT_CLASSES.map((name) => [name, 0]));
  private lastSweep: number;

  constructor(
    private readonly settings: RateLimitSettings,
    private readonly trustedProxies: readonly string[],
    private readonly log: Logger,
    options: RateLimiterOptions = {},
  ) {
    this.now = options.now ?? Date.now;
    this.buckets = new RateBuckets(options.maxKeys ?? MAX_KEYS);
    this.lastSweep = this.now();
  }

  /** How many keys the buckets hold now. */
  get keys(): number {
    return this.buckets.size;
  }

  /**
   * Before authentication: a request carrying a credential from an address past its rate of failed credentials
   * is refused without looking at the credential; a request without one is anonymous for certain and is counted
   * at once, so that a private registry's refusals of anonymous reads are limited too.
   */
  beforeAuthentication(): MiddlewareHandler<AppEnv> {
    return async (c, next) => {
      if (!this.settings.enabled) return next();
      if (!carriesCredential(c)) return this.count(c, ANONYMOUS, next);
      const rule = this.settings.classes.auth_fail.anonymous;
      const refusal = this.buckets.refusing(this.failKey(c), rule, this.now());
      if (refusal === undefined) return next();
      return this.refuse(c, 'auth_fail', rule, true, refusal);
    };
  }

  /** Counts a credential that was refused (401) against its address. */
  readonly failedCredential = (c: Context<AppEnv>): void => {
    if (!this.settings.enabled) return;
    this.buckets.take(this.failKey(c), this.settings.classes.auth_fail.anonymous, this.now());
  };

  /** After authentication: counts a request with a verified credential against its principal. */
  afterAuthentication(): MiddlewareHandler<AppEnv> {
    return async (c, next) => {
      if (!this.settings.enabled || !carriesCredential(c)) return next();
      return this.count(c, c.get('principal'), next);
    };
  }

  /** Counts a request in its class against its caller; over the rate: 429. Administrators are never counted. */
  private async count(c: Context<AppEnv>, principal: Principal, next: Next): Promise<Response | void> {
    if (principal.roles.includes('admin')) return next();
    const limitClass = classOf({ method: c.req.method, path: c.req.path, query: () => c.req.query() });
    if (limitClass === undefined) return next();
    const caller = callerOf(principal, clientAddress(c, this.trustedProxies));
    const rule = this.settings.classes[limitClass][caller.anonymous ? 'anonymous' : 'authenticated'];
    const now = this.now();
    this.sweepNow(now);
    const decision = this.buckets.take(`${limitClass} ${caller.key}`, rule, now);
    if (!decision.allowed) return this.refuse(c, limitClass, rule, caller.anonymous, decision);
    await next();
    stamp(c, limitClass, rule, decision);
  }

  /** The Prometheus lines of the requests refused so far, every class present from the start. */
  metrics(): string {
    return [
      '# HELP reg_ratelimit_rejections_total Requests refused (429) by the rate limiter, by class.',
      '# TYPE reg_ratelimit_rejections_total counter',
      ...[...this.rejected].map(
        ([name, count]) => `reg_ratelimit_rejections_total{class="${name}"} ${count}`,
      ),
      '',
    ].join('\n');
  }

  private failKey(c: Context<AppEnv>): string {
    return `auth_fail ${callerOf(undefined, clientAddress(c, this.trustedProxies)).key}`;
  }

  private sweepNow(now: number): void {
    if (now - this.lastSweep < SWEEP_MS) return;
    this.lastSweep = now;
    this.buckets.sweep(now);
  }

  private refuse(
    c: Context<AppEnv>,
    limitClass: RateLimitClass,
    rule: RateLimitRule,
    anonymous: boolean,
    decision: Decision,
  ): Response {
    this.rejected.set(limitClass, (this.rejected.get(limitClass) ?? 0) + 1);
    const error = new RateLimitedError(limitClass, rule, anonymous, decision.retryAfterSeconds);
    this.log.debug('request refused: rate limited', { request_id: c.get('requestId'), class: limitClass });
    const response = problemResponse(error, c.get('requestId'), this.log, c.req.path);
    response.headers.set('retry-after', String(decision.retryAfterSeconds));
    response.headers.set('ratelimit-policy', policyOf(limitClass, rule));
    response.headers.set('ratelimit', `"${limitClass}";r=0;t=${decision.resetSeconds}`);
    return response;
  }
}

/** Whether the request presents a credential (a blank Authorization header is none, as authentication reads it). */
function carriesCredential(c: Context<AppEnv>): boolean {
  return (c.req.header('authorization') ?? '').trim() !== '';
}

/** `RateLimit-Policy` of a class (draft-ietf-httpapi-ratelimit-headers): its quota and window in seconds. */
function policyOf(limitClass: RateLimitClass, rule: RateLimitRule): string {
  return `"${limitClass}";q=${rule.count};w=${Math.max(1, Math.round(rule.periodMs / 1000))}`;
}

/** Puts the rate-limit headers on the answer, in place (re-creating an answer costs more than the limiter). */
function stamp(
  c: Context<AppEnv>,
  limitClass: RateLimitClass,
  rule: RateLimitRule,
  decision: Decision,
): void {
  const policy = policyOf(limitClass, rule);
  const state = `"${limitClass}";r=${decision.remaining};t=${decision.resetSeconds}`;
  try {
    c.res.headers.set('ratelimit-policy', policy);
    c.res.headers.set('ratelimit', state);
  } catch {
    // An answer whose headers are immutable is copied by Hono.
    c.header('ratelimit-policy', policy);
    c.header('ratelimit', state);
  }
}
