import type { FieldError, Problem } from '../../api/index.js';
import { ApiError, UnexpectedResponseError, UnreachableError } from './errors.js';
import { describeSource, type Profile } from './profile.js';

/** Query parameters of a request; undefined values are left out. */
export type Query = Readonly<Record<string, string | number | undefined>>;

/** A JSON object as the registry answers it. */
export type JsonObject = Record<string, unknown>;

/** Options of one request. */
export interface RequestOptions {
  readonly query?: Query;
  readonly body?: unknown;
  /** The media type of the body; JSON merge patch for PATCH. */
  readonly contentType?: string;
  /** Further request headers (such as `X-Reg-Instance-Key`). */
  readonly headers?: Readonly<Record<string, string>>;
}

/**
 * A thin HTTP client for one registry: sends the profile's bearer token, turns problem+json answers into
 * `ApiError`s and network failures into `UnreachableError`s that name the URL (never the token).
 */
export class HttpClient {
  constructor(
    readonly profile: Profile,
    private readonly fetchImpl: typeof fetch = fetch,
    /** Told each member of a request the registry ignored (its answer's `warnings`); standard error by default. */
    private readonly warn: (message: string) => void = (message) =>
      void process.stderr.write(`warning: ${message}\n`),
  ) {}

  /** Sends a request and returns the JSON body, or undefined for 204. */
  async request<T = JsonObject>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
    const url = this.urlOf(path, options.query);
    const headers: Record<string, string> = {
      ...options.headers,
      accept: 'application/json, application/problem+json',
    };
    if (this.profile.token !== undefined) headers.authorization = `Bearer ${this.profile.token}`;
    if (options.body !== undefined) headers['content-type'] = options.contentType ?? 'application/json';
    let response: Response;
    try {
      response = await this.fetchImpl(url, {
        method,
        headers,
        // A redirect would carry the request elsewhere (and drop the token across origins): refuse it instead.
        redirect: 'manual',
        signal: AbortSignal.timeout(this.profile.timeout * 1000),
        ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
      });
    } catch (error) {
      throw this.unreachable(error);
    }
    if (response.status >= 300 && response.status < 400) {
      throw new UnexpectedResponseError(
        `${method} ${url} was redirected (${response.status}) to ${response.headers.get('location') ?? 'elsewhere'}`,
        ['set the registry URL to the address it redirects to'],
      );
    }
    const text = await response.text().catch((error: unknown) => {
      throw this.unreachable(error);
    });
    if (!response.ok) throw problemOf(response, text);
    if (response.status === 204 || text === '') return undefined as T;
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new UnexpectedResponseError(
        `${method} ${url} answered ${response.status} with ${response.headers.get('content-type') ?? 'no media type'}, not JSON`,
        [`check that ${this.profile.url} is a reg registry`],
      );
    }
    for (const warning of warningsOf(parsed)) this.warn(warning);
    return parsed as T;
  }

  /**
   * Sends a GET and returns the answer for its body to be streamed (a backup, a dump); a problem answer is
   * thrown like `request` throws it. The timeout covers the answer's start, not its streaming.
   */
  async download(path: string, accept: string): Promise<Response> {
    const url = this.urlOf(path);
    const headers: Record<string, string> = { accept: `${accept}, application/problem+json` };
    if (this.profile.token !== undefined) headers.authorization = `Bearer ${this.profile.token}`;
    const started = new AbortController();
    const timer = setTimeout(
      () => started.abort(new DOMException('timed out', 'TimeoutError')),
      this.profile.timeout * 1000,
    );
    let response: Response;
    try {
      response = await this.fetchImpl(url, { headers, redirect: 'manual', signal: started.signal });
    } catch (error) {
      throw this.unreachable(error);
    } finally {
      clearTimeout(timer);
    }
    if (response.status >= 300 && response.status < 400) {
      throw new UnexpectedResponseError(
        `GET ${url} was redirected (${response.status}) to ${response.headers.get('location') ?? 'elsewhere'}`,
        ['set the registry URL to the address it redirects to'],
      );
    }
    if (!response.ok) throw problemOf(response, await response.text().catch(() => ''));
    return response;
  }

  private urlOf(path: string, query: Query = {}): string {
    const url = new URL(`${this.profile.url}${path}`);
    for (const [name, value] of Object.entries(query)) {
      if (value !== undefined) url.searchParams.set(name, String(value));
    }
    return url.href;
  }

  private unreachable(error: unknown): UnreachableError {
    const where = `${this.profile.url} (from ${describeSource(this.profile.sources.url)})`;
    const name = (error as { name?: unknown }).name;
    if (name === 'TimeoutError' || name === 'AbortError') {
      return new UnreachableError(`${where} did not answer within ${this.profile.timeout} s`, [
        'raise --timeout if the registry is slow, or check that it is running',
      ]);
    }
    return new UnreachableError(`cannot reach ${where}: ${networkReason(error)}`, [
      'check the URL and that the registry is running (reg healthcheck --url <url>)',
    ]);
  }
}

/** A readable reason for a failed fetch, from undici's error cause codes. */
function networkReason(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } }).cause;
  const code = typeof cause?.code === 'string' ? cause.code : undefined;
  switch (code) {
    case 'ECONNREFUSED':
      return 'connection refused';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'the host name does not resolve';
    case 'ECONNRESET':
      return 'the connection was reset';
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return 'no route to the host';
    default:
      if (typeof cause?.message === 'string') return cause.message;
      return error instanceof Error ? error.message : String(error);
  }
}

/** Turns a non-2xx answer into an ApiError, reading RFC 9457 members when the body is a problem. */
function problemOf(response: Response, text: string): ApiError {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  // What the registry writes, read defensively: any member may be missing or of another type.
  const problem: Partial<Problem> =
    typeof body === 'object' && body !== null && !Array.isArray(body) ? body : {};
  const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
  const type = str(problem.type);
  const code =
    str(problem.code) ??
    (type === undefined ? undefined : type.slice(type.lastIndexOf('/') + 1)) ??
    `http-${response.status}`;
  const title = str(problem.title) ?? (response.statusText || 'Error');
  const errors = fieldErrors(problem.errors);
  let detail =
    str(problem.detail) ??
    (body === undefined && text.trim() !== '' ? 'the answer was not problem+json' : '');
  // SHACL refusals repeat every field message in the detail; the field lines say it once each.
  if (errors.length > 0 && detail === errors.map((error) => error.message).join('; ')) {
    detail = `${errors.length} ${errors.length === 1 ? 'field was' : 'fields were'} refused`;
  }
  const hints = Array.isArray(problem.hints) ? problem.hints.filter((hint) => typeof hint === 'string') : [];
  return new ApiError(response.status, code, title, detail, {
    errors,
    hints,
    ...(body === undefined ? {} : { problem }),
  });
}

function fieldErrors(raw: unknown): FieldError[] {
  if (!Array.isArray(raw)) return [];
  return raw.flatMap((entry: unknown) => {
    if (typeof entry !== 'object' || entry === null) return [];
    const { field, message } = entry as { field?: unknown; message?: unknown };
    return typeof message === 'string' ? [{ field: typeof field === 'string' ? field : '', message }] : [];
  });
}

/** The `warnings` of a registry's answer: members of the request it ignored. */
function warningsOf(body: unknown): string[] {
  if (body === null || typeof body !== 'object' || !('warnings' in body)) return [];
  const warnings: unknown = body.warnings;
  return Array.isArray(warnings) ? warnings.filter((item): item is string => typeof item === 'string') : [];
}
