import type { AdvertiseAnswer } from '../../api/index.js';
import { ApiError, UnreachableError } from './errors.js';
import { HttpClient, type JsonObject } from './http.js';
import type { Profile } from './profile.js';

/** The registry's answer to an advertisement (declared in `src/api`). */
export type { AdvertiseAnswer as AdvertiseResultJson } from '../../api/index.js';

/** Whether the runs' artifacts were produced or consumed. */
export type AdvertiseRole = 'produced' | 'consumed';

/** How often and how patiently an advertisement is retried. */
export interface RetryPolicy {
  /** Attempts after the first. */
  readonly retries: number;
  /** Delay before the first retry; each further retry waits twice as long, up to `maxDelayMs`. */
  readonly baseDelayMs?: number;
  readonly maxDelayMs?: number;
  readonly sleep?: (ms: number) => Promise<void>;
  readonly onRetry?: (attempt: number, delayMs: number, reason: string) => void;
  /**
   * The `instance_key` of the deployment a credential shared by several deployments (a software token, one
   * identity-provider client for every replica) advertises as, sent as `X-Reg-Instance-Key`.
   */
  readonly instanceKey?: string | undefined;
  /** Asks the registry to check and map the call without writing anything (`?dry_run=true`). */
  readonly dryRun?: boolean;
}

/** Network failures in which the request never reached the registry, so resending it cannot repeat it. */
const NEVER_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

const causeCode = (error: unknown): string | undefined => {
  const code = (error as { cause?: { code?: unknown } }).cause?.code;
  return typeof code === 'string' ? code : undefined;
};

/**
 * Why a failed attempt may be sent again, or undefined when it may not. With a run key the call is idempotent
 * (the registry finds the run and its artifacts again), so every network failure, 429 and 5xx is retried.
 * Without one a resent call would mint a second run, so only failures in which nothing was processed are:
 * connection never made, 429, 503.
 */
function retryReason(
  error: unknown,
  idempotent: boolean,
  neverSent: boolean,
): { reason: string; afterMs?: number } | undefined {
  if (error instanceof UnreachableError) {
    return idempotent || neverSent ? { reason: error.message } : undefined;
  }
  if (!(error instanceof ApiError)) return undefined;
  const nothingDone = error.status === 429 || error.status === 503;
  if (!nothingDone && !(idempotent && error.status >= 500)) return undefined;
  const after = error.problem?.retry_after;
  return {
    reason: `${error.status} ${error.title}`,
    ...(typeof after === 'number' && after >= 0 ? { afterMs: Math.min(after, 60) * 1000 } : {}),
  };
}

/**
 * Sends `POST /api/v1/advertise/<role>`, retrying with exponential backoff (and the registry's `retry_after`)
 * on network failures, 429 and 5xx as far as that is safe (see above). Refusals (4xx) are thrown at once.
 */
export async function sendAdvertisement(
  profile: Profile,
  role: AdvertiseRole,
  body: JsonObject,
  policy: RetryPolicy,
  fetchImpl: typeof fetch = fetch,
): Promise<AdvertiseAnswer> {
  let neverSent = false;
  const tracking: typeof fetch = async (input, init) => {
    neverSent = false;
    try {
      return await fetchImpl(input, init);
    } catch (error) {
      neverSent = NEVER_SENT.has(causeCode(error) ?? '');
      throw error;
    }
  };
  const http = new HttpClient(profile, tracking);
  const run = body.run as JsonObject | undefined;
  const idempotent = typeof run?.external_key === 'string' && run.external_key !== '';
  const base = policy.baseDelayMs ?? 500;
  const max = policy.maxDelayMs ?? 8000;
  const sleep = policy.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  for (let attempt = 0; ; attempt++) {
    try {
      return await http.request<AdvertiseAnswer>('POST', `/api/v1/advertise/${role}`, {
        body,
        ...(policy.dryRun === true ? { query: { dry_run: 'true' } } : {}),
        ...(policy.instanceKey === undefined
          ? {}
          : { headers: { 'x-reg-instance-key': policy.instanceKey } }),
      });
    } catch (error) {
      const retry = retryReason(error, idempotent, neverSent);
      if (retry === undefined || attempt >= policy.retries) throw error;
      const delay = retry.afterMs ?? Math.min(max, base * 2 ** attempt);
      policy.onRetry?.(attempt + 1, delay, retry.reason);
      await sleep(delay);
    }
  }
}

/**
 * Whether a failure means the registry could not take the call now (unreachable, 5xx, 429), so that it may be
 * spooled and sent later; a refusal (any other 4xx) is never spooled.
 */
export function isTemporaryFailure(error: unknown): boolean {
  if (error instanceof UnreachableError) return true;
  return error instanceof ApiError && (error.status >= 500 || error.status === 429);
}

/** One line saying what an advertisement did: created or already recorded, the run, artifacts, queued IRIs. */
export function describeAdvertisement(role: AdvertiseRole, result: AdvertiseAnswer): string {
  const count = result.artifacts.length;
  const artifacts =
    count === 0
      ? 'no artifacts'
      : `${count} ${count === 1 ? 'artifact' : 'artifacts'} ${role}: ${result.artifacts.join(', ')}`;
  const queued = result.queued_for_resolution ?? [];
  const tail = queued.length === 0 ? '' : `; queued for resolution: ${queued.join(', ')}`;
  return `${result.created ? 'created' : 'already recorded'}: run ${result.run}, ${artifacts}${tail}`;
}

/**
 * What a dry run found: the line a real call would print (as what it would do), one line per record it would
 * write, then those records as Turtle.
 */
export function describeDryRun(role: AdvertiseRole, result: AdvertiseAnswer): string {
  const report = result.dry_run;
  const line = describeAdvertisement(role, result).replace(/^created:/, 'would create:');
  const records = report?.records ?? [];
  const listed = records.map((record) => `\n  would write ${record.kind} ${record.iri}`).join('');
  const turtle = records.length === 0 ? '' : `\n\n${(report?.turtle ?? '').trimEnd()}`;
  const nothing = records.length === 0 ? '\n  nothing would be written' : '';
  return `dry run, nothing was written; ${line}${listed}${nothing}${turtle}`;
}
