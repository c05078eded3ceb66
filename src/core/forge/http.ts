import {
  CONNECT_TIMEOUT_MS,
  HttpNetworkError,
  HttpRedirectError,
  httpRequest,
  HttpTimeoutError,
  HttpTooLargeError,
  type HttpResponse,
} from '../net/http-client.js';
import type { Database } from '../store/database.js';
import {
  activeForgeLimit,
  dropForgeResponse,
  keepForgeResponse,
  readForgeResponse,
  recordForgeLimit,
} from '../store/forge-cache.js';
import { ForgeError } from './types.js';

/** The credential a forge is called with. The token goes into the Authorization header and nowhere else. */
export interface ForgeCredential {
  /** Kind of credential, kept beside cached answers and rate limits (`anonymous`, `token`). */
  readonly kind: string;
  readonly token?: string;
}

/** How one forge API is called. */
export interface ForgeHttpOptions {
  readonly db: Database;
  /** Name of the forge in messages (`GitHub`). */
  readonly forgeName: string;
  /** Base URL of the forge's REST API, without a trailing slash. */
  readonly apiBase: string;
  readonly credential: ForgeCredential;
  readonly userAgent: string;
  /** Headers every request carries (the API version, for example). */
  readonly headers?: Readonly<Record<string, string>>;
  readonly now: () => Date;
  /** Awaited before each request: the scheduler's pacing between requests. */
  readonly pace?: () => Promise<void>;
  /** Aborts requests under way (shutdown). */
  readonly signal?: AbortSignal;
  readonly timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 30_000;
/** A README or release list larger than this is refused rather than read into memory. */
const MAX_BODY_BYTES = 8 * 1024 * 1024;
const MAX_REDIRECTS = 3;
/** Wait after a rate-limit answer that names no reset time. */
const DEFAULT_BACKOFF_MS = 60_000;

/**
 * GET requests to one forge's REST API, friendly to its rate limits: answers are kept with their ETag and asked
 * for again with `If-None-Match` (a 304 costs the forge nothing), a rate-limit answer (403 or 429 with
 * `x-ratelimit-remaining: 0`, `x-ratelimit-reset`, `retry-after`) is recorded so that nothing calls the forge
 * again before the reset, and redirects are followed only within the API's own origin, so the credential never
 * travels to another host.
 */
export class ForgeHttp {
  constructor(private readonly options: ForgeHttpOptions) {}

  /** The forge's name in messages. */
  get forgeName(): string {
    return this.options.forgeName;
  }

  /** The web address a path of the API stands at. */
  url(path: string): string {
    return `${this.options.apiBase}${path}`;
  }

  /** Reads a path of the API as text; undefined when the forge answers 404. */
  async get(path: string, accept: string): Promise<string | undefined> {
    const { db, apiBase, credential, now, forgeName } = this.options;
    const limit = activeForgeLimit(db, apiBase, credential.kind, now());
    if (limit !== undefined) {
      throw new ForgeError(
        'rate-limited',
        `${forgeName} rate limit reached (${limit.reason}); no request is sent before ${limit.limited_until}`,
        new Date(limit.limited_until),
      );
    }
    const url = this.url(path);
    const cached = readForgeResponse(db, url, credential.kind);
    await this.options.pace?.();
    const response = await this.send(url, accept, cached?.etag);
    this.noteRemaining(response);
    if (response.status === 304 && cached !== undefined) return cached.body;
    if (response.status === 404) {
      dropForgeResponse(db, url, credential.kind);
      return undefined;
    }
    if (response.status >= 200 && response.status < 300) {
      const body = response.body.toString('utf8');
      const etag = response.headers.get('etag');
      if (etag !== null)
        keepForgeResponse(db, url, credential.kind, { etag, body, fetched_at: now().toISOString() });
      return body;
    }
    throw this.failure(response, url);
  }

  /**
   * One GET, following redirects within the API's origin only, reading the body of a 2xx answer within the cap.
   * A shutdown's abort is passed on as it is.
   */
  private async send(url: string, accept: string, etag: string | undefined): Promise<HttpResponse> {
    const { credential, signal, forgeName, apiBase } = this.options;
    const headers: Record<string, string> = {
      accept,
      'user-agent': this.options.userAgent,
      ...this.options.headers,
    };
    if (credential.token !== undefined) headers.authorization = `Bearer ${credential.token}`;
    if (etag !== undefined) headers['if-none-match'] = etag;
    const timeoutMs = this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const origin = new URL(apiBase).origin;
    try {
      return await httpRequest(url, {
        headers,
        addresses: 'any',
        timeoutMs,
        connectTimeoutMs: CONNECT_TIMEOUT_MS,
        maxBytes: MAX_BODY_BYTES,
        read: (status) => status >= 200 && status < 300,
        redirects: { max: MAX_REDIRECTS, allow: (next) => next.origin === origin },
        decompress: true,
        signal,
      });
    } catch (error) {
      if (signal?.aborted === true) throw error;
      if (error instanceof HttpTooLargeError)
        throw new ForgeError('failed', `${url} is larger than ${MAX_BODY_BYTES} bytes and is not read`);
      if (error instanceof HttpRedirectError) {
        throw new ForgeError(
          'failed',
          `${forgeName} redirected ${url} to ${error.next?.href ?? error.location}, which is not followed (another origin, or too many redirects)`,
        );
      }
      const reason =
        error instanceof HttpTimeoutError
          ? `did not answer within ${timeoutMs / 1000} s`
          : error instanceof HttpNetworkError
            ? (error.code ?? error.message)
            : (error as Error).message;
      throw new ForgeError('unreachable', `could not reach ${forgeName} at ${apiBase}: ${reason}`);
    }
  }

  /** A successful answer that used up the allowance: record the reset, so the next request waits for it. */
  private noteRemaining(response: HttpResponse): void {
    if (response.status >= 400) return;
    const remaining = header(response, 'ratelimit-remaining');
    const { db, apiBase, credential, now } = this.options;
    const reset = resetTime(response, now());
    if (remaining === '0' && reset !== undefined) {
      recordForgeLimit(db, apiBase, credential.kind, reset, 'allowance used up');
    }
  }

  private failure(response: HttpResponse, url: string): ForgeError {
    const { forgeName, db, apiBase, credential, now } = this.options;
    const remaining = header(response, 'ratelimit-remaining');
    const retryAfter = response.headers.get('retry-after');
    const limited =
      response.status === 429 || (response.status === 403 && (remaining === '0' || retryAfter !== null));
    if (limited) {
      const at = now();
      const named = [retryAfterTime(retryAfter, at), resetTime(response, at)]
        .filter((time): time is Date => time !== undefined)
        .map((time) => time.getTime());
      const latest = Math.max(...named, 0);
      // No reset time, or one already past (clocks differ): wait a minute rather than call again at once.
      const until = new Date(latest > at.getTime() ? latest : at.getTime() + DEFAULT_BACKOFF_MS);
      const reason = `${response.status}${remaining === '0' ? ', no requests remaining' : ''}${retryAfter === null ? '' : `, retry-after ${retryAfter}`}`;
      recordForgeLimit(db, apiBase, credential.kind, until, reason);
      return new ForgeError(
        'rate-limited',
        `${forgeName} rate limit reached (${reason}); syncing from it resumes after ${until.toISOString()}`,
        until,
      );
    }
    if (response.status === 401) {
      return new ForgeError(
        'unauthorized',
        `${forgeName} refused the credential (401) for ${url}; check the forge token`,
      );
    }
    if (response.status === 403)
      return new ForgeError('forbidden', `${forgeName} refused access (403) to ${url}`);
    return new ForgeError('failed', `${forgeName} answered ${response.status} for ${url}`);
  }
}

/** A rate-limit header under GitHub's name (`x-ratelimit-*`) or the IETF draft's (`ratelimit-*`, GitLab). */
function header(response: HttpResponse, name: string): string | null {
  return response.headers.get(`x-${name}`) ?? response.headers.get(name);
}

/**
 * The reset time a rate-limit header names: Unix seconds (GitHub, GitLab), or seconds from now (the IETF draft's
 * `RateLimit-Reset`), told apart by size.
 */
function resetTime(response: HttpResponse, now: Date): Date | undefined {
  const value = header(response, 'ratelimit-reset');
  if (value === null || !/^\d+$/.test(value.trim())) return undefined;
  const seconds = Number(value.trim());
  return new Date(seconds < 1_000_000_000 ? now.getTime() + seconds * 1000 : seconds * 1000);
}

/** The time `retry-after` names: seconds from now, or an HTTP date. */
function retryAfterTime(value: string | null, now: Date): Date | undefined {
  if (value === null) return undefined;
  if (/^\d+$/.test(value.trim())) return new Date(now.getTime() + Number(value.trim()) * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : new Date(date);
}
