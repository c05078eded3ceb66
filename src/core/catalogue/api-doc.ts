/**
 * Fetches one of the API descriptions a software record declares (`api_docs[n]`), on the caller's behalf.
 * Only URLs the record itself holds are fetched, never one from the request, and the fetch is bounded:
 * http(s) only, a time limit, a size cap, and a few redirects that must stay on the same host. Every hop must
 * resolve to public addresses only (unless `REG_API_DOC_ALLOW_PRIVATE_TARGETS`), and the connection goes to the
 * address that was checked, so a record cannot make the registry read its own network for an anonymous caller.
 */
import { BadRequestError, NotFoundError, RegError, type RegErrorOptions } from '../errors.js';
import {
  HttpRedirectError,
  HttpRefusedError,
  httpRequest,
  HttpTimeoutError,
  HttpTooLargeError,
  isRedirect,
  type HttpResponse,
} from '../net/http-client.js';
import type { Resolver } from '../net/outbound-target.js';
import { SOFTWARE } from '../records/specs.js';
import type { Core } from '../core.js';
import { iriOf, requireStored } from '../stored/records.js';

/** Bounds of one API document fetch. */
export interface ApiDocLimits {
  /** Whole fetch, redirects and body included. */
  readonly timeoutMs: number;
  readonly maxBytes: number;
  readonly maxRedirects: number;
  /** Resolves host names (the system's resolver when absent; tests inject their own). */
  readonly resolve?: Resolver;
}

/** The bounds the HTTP route uses: 10 s, 2 MiB, 3 redirects. */
export const API_DOC_LIMITS: ApiDocLimits = { timeoutMs: 10_000, maxBytes: 2 * 1024 * 1024, maxRedirects: 3 };

/** A fetched API description: where it was declared and fetched from, its format and the bytes as served. */
export interface ApiDocument {
  /** Position in the record's `api_docs`. */
  readonly n: number;
  /** The URL the record declares. */
  readonly url: string;
  /** The URL the bytes came from, after same-host redirects. */
  readonly final_url: string;
  readonly format: string;
  readonly title?: string;
  readonly content_type: string;
  readonly body: Uint8Array;
}

/**
 * The upstream API description host failed us, or the registry refused to reach it (502 `upstream-failed`, with
 * `refused` naming why). The detail is public; a `cause` (which may name a resolved address) is for the log only.
 */
export class UpstreamError extends RegError {
  constructor(detail: string, extra: Record<string, unknown> = {}, options: RegErrorOptions = {}) {
    super('upstream-failed', detail, { ...options, extra });
  }
}

/**
 * Fetches `api_docs[n]` of a software (`n` defaults to 0; 400 when not a whole number, 404 when out of range)
 * and returns its bytes with the upstream content type; any upstream failure is a 502 `upstream-failed`.
 */
export async function fetchApiDoc(
  core: Core,
  id: string,
  n: string | undefined,
  limits: ApiDocLimits = API_DOC_LIMITS,
): Promise<ApiDocument> {
  if (n !== undefined && !/^\d{1,6}$/.test(n))
    throw new BadRequestError(`n must be a whole number ≥ 0, got "${n}"`);
  const index = n === undefined ? 0 : Number(n);
  const stored = await requireStored(core, SOFTWARE, iriOf(core, 'software', id));
  const docs = Array.isArray(stored.json.api_docs) ? stored.json.api_docs : [];
  const doc = docs[index];
  if (doc === undefined || doc === null || typeof doc !== 'object' || Array.isArray(doc)) {
    throw new NotFoundError(
      `${stored.iri} declares ${docs.length} API description${docs.length === 1 ? '' : 's'}; n=${index} is out of range`,
    );
  }
  const url = typeof doc.url === 'string' ? doc.url : '';
  const format = typeof doc.format === 'string' ? doc.format : 'other';
  const response = await fetchDocument(url, format, core, limits);
  const finalUrl = response.url.href;
  return {
    n: index,
    url,
    final_url: finalUrl,
    format,
    ...(typeof doc.title === 'string' ? { title: doc.title } : {}),
    content_type: response.headers.get('content-type') ?? guessContentType(finalUrl),
    body: response.body,
  };
}

/**
 * Fetches the document: its body only from a 2xx answer, redirects only to the same host, every hop checked and
 * pinned by the client. Every failure is an UpstreamError.
 */
async function fetchDocument(
  url: string,
  format: string,
  core: Core,
  limits: ApiDocLimits,
): Promise<HttpResponse> {
  const first = parseHttpUrl(url, url);
  let response: HttpResponse;
  try {
    response = await httpRequest(first.href, {
      headers: { accept: acceptFor(format), 'user-agent': `reg/${core.version}` },
      addresses: {
        allowHttp: true,
        allowPrivate: core.config.apiDocAllowPrivateTargets,
        resolve: limits.resolve,
      },
      timeoutMs: limits.timeoutMs,
      maxBytes: limits.maxBytes,
      read: (status) => status >= 200 && status <= 299,
      redirects: {
        max: limits.maxRedirects,
        allow: (next) => isHttp(next) && next.hostname === first.hostname,
      },
    });
  } catch (error) {
    if (error instanceof HttpRefusedError) throw refusal(url, error);
    if (error instanceof HttpRedirectError) throw redirectFailure(url, error, limits);
    if (error instanceof HttpTooLargeError) throw tooLarge(url, limits);
    throw failure(error instanceof HttpTimeoutError, url, limits);
  }
  if (isRedirect(response.status))
    throw new UpstreamError(`the API description at ${url} redirected without a Location`, {
      upstream_url: url,
    });
  if (response.status < 200 || response.status > 299) {
    throw new UpstreamError(`the API description at ${url} answered ${response.status}`, {
      upstream_url: url,
      upstream_status: response.status,
    });
  }
  return response;
}

/** A redirect that was not followed: one too many, not a URL, not http(s), or to another host. */
function redirectFailure(url: string, error: HttpRedirectError, limits: ApiDocLimits): UpstreamError {
  const { next } = error;
  const detail =
    error.reason === 'too-many'
      ? `the API description at ${url} redirected more than ${limits.maxRedirects} times`
      : next === undefined
        ? `the API description URL ${error.location} is not a URL`
        : !isHttp(next)
          ? `only http and https API descriptions are fetched, not ${next.protocol}`
          : `the API description at ${url} redirected to another host (${next.host})`;
  return new UpstreamError(detail, { upstream_url: url });
}

function isHttp(url: URL): boolean {
  return url.protocol === 'http:' || url.protocol === 'https:';
}

/**
 * The registry's own refusal to reach a target. A non-public target is named by its host only: which internal
 * address a name resolves to is the operator's to read in the log, not the caller's.
 */
function refusal(url: string, error: HttpRefusedError): UpstreamError {
  const nonPublic = error.code === 'non-public';
  const detail = nonPublic
    ? `refused: not a public address: the API description at ${url} is on ${new URL(error.url).hostname}, and this registry fetches API descriptions from public addresses only`
    : `refused: the API description at ${url} is not fetched: ${error.message}`;
  return new UpstreamError(
    detail,
    { upstream_url: url, refused: error.code },
    {
      cause: error.refusal,
      hints: nonPublic
        ? [
            'declare the API description at a public URL; an operator may allow private targets with REG_API_DOC_ALLOW_PRIVATE_TARGETS',
          ]
        : [],
    },
  );
}

function parseHttpUrl(value: string, declared: string): URL {
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    throw new UpstreamError(`the API description URL ${value} is not a URL`, { upstream_url: declared });
  }
  if (!isHttp(parsed))
    throw new UpstreamError(`only http and https API descriptions are fetched, not ${parsed.protocol}`, {
      upstream_url: declared,
    });
  return parsed;
}

function tooLarge(url: string, limits: ApiDocLimits): UpstreamError {
  return new UpstreamError(`the API description at ${url} is larger than ${limits.maxBytes} bytes`, {
    upstream_url: url,
  });
}

function failure(timedOut: boolean, url: string, limits: ApiDocLimits): UpstreamError {
  return new UpstreamError(
    timedOut
      ? `the API description at ${url} did not arrive within ${limits.timeoutMs / 1000} s`
      : `the API description at ${url} could not be fetched`,
    { upstream_url: url },
  );
}

function acceptFor(format: string): string {
  if (format === 'sparql-service-description') return 'text/turtle, application/ld+json;q=0.9, */*;q=0.5';
  if (format === 'graphql') return 'application/graphql, application/json;q=0.9, */*;q=0.5';
  return 'application/json, application/yaml;q=0.9, text/yaml;q=0.9, */*;q=0.5';
}

function guessContentType(url: string): string {
  const path = new URL(url).pathname.toLowerCase();
  if (path.endsWith('.json')) return 'application/json';
  if (path.endsWith('.yaml') || path.endsWith('.yml')) return 'application/yaml';
  if (path.endsWith('.ttl')) return 'text/turtle';
  return 'application/octet-stream';
}
