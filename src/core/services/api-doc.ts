/**
 * Fetches one of the API descriptions a software record declares (`api_docs[n]`), on the caller's behalf.
 * Only URLs the record itself holds are fetched, never one from the request, and the fetch is bounded:
 * http(s) only, a time limit, a size cap, and a few redirects that must stay on the same host.
 */
import { BadRequestError, NotFoundError, RegError } from '../errors.js';
import { SOFTWARE } from '../records/specs.js';
import type { Core } from '../core.js';
import { requireStored } from './records.js';
import { softwareIri } from './software.js';

/** Bounds of one API document fetch. */
export interface ApiDocLimits {
  /** Whole fetch, redirects and body included. */
  readonly timeoutMs: number;
  readonly maxBytes: number;
  readonly maxRedirects: number;
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

/** The upstream API description host failed us (502 `upstream-failed`). */
export class UpstreamError extends RegError {
  constructor(detail: string, extra: Record<string, unknown> = {}) {
    super('upstream-failed', 502, 'Upstream request failed', detail, { extra });
  }
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

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
  const stored = await requireStored(core, SOFTWARE, softwareIri(core, id));
  const docs = Array.isArray(stored.json.api_docs) ? stored.json.api_docs : [];
  const doc = docs[index];
  if (doc === undefined || doc === null || typeof doc !== 'object' || Array.isArray(doc)) {
    throw new NotFoundError(
      `${stored.iri} declares ${docs.length} API description${docs.length === 1 ? '' : 's'}; n=${index} is out of range`,
    );
  }
  const url = typeof doc.url === 'string' ? doc.url : '';
  const format = typeof doc.format === 'string' ? doc.format : 'other';
  const { response, finalUrl } = await follow(url, format, core.version, limits);
  const body = await readCapped(response, url, limits);
  return {
    n: index,
    url,
    final_url: finalUrl,
    format,
    ...(typeof doc.title === 'string' ? { title: doc.title } : {}),
    content_type: response.headers.get('content-type') ?? guessContentType(finalUrl),
    body,
  };
}

async function follow(
  url: string,
  format: string,
  version: string,
  limits: ApiDocLimits,
): Promise<{ response: Response; finalUrl: string }> {
  const signal = AbortSignal.timeout(limits.timeoutMs);
  let current = parseHttpUrl(url, url);
  const host = current.hostname;
  for (let hop = 0; ; hop++) {
    const response = await request(current, url, format, version, signal, limits);
    if (!REDIRECTS.has(response.status)) {
      if (!response.ok) {
        await response.body?.cancel();
        throw new UpstreamError(`the API description at ${url} answered ${response.status}`, {
          upstream_url: url,
          upstream_status: response.status,
        });
      }
      return { response, finalUrl: current.href };
    }
    await response.body?.cancel();
    const location = response.headers.get('location');
    if (hop >= limits.maxRedirects || location === null) {
      throw new UpstreamError(
        location === null
          ? `the API description at ${url} redirected without a Location`
          : `the API description at ${url} redirected more than ${limits.maxRedirects} times`,
        { upstream_url: url },
      );
    }
    const next = parseHttpUrl(location, url, current);
    if (next.hostname !== host)
      throw new UpstreamError(`the API description at ${url} redirected to another host (${next.host})`, {
        upstream_url: url,
      });
    current = next;
  }
}

async function request(
  target: URL,
  url: string,
  format: string,
  version: string,
  signal: AbortSignal,
  limits: ApiDocLimits,
): Promise<Response> {
  try {
    return await fetch(target, {
      redirect: 'manual',
      signal,
      headers: { accept: acceptFor(format), 'user-agent': `reg/${version}` },
    });
  } catch (error) {
    throw failure(error, url, limits);
  }
}

function parseHttpUrl(value: string, declared: string, base?: URL): URL {
  let parsed: URL;
  try {
    parsed = new URL(value, base);
  } catch {
    throw new UpstreamError(`the API description URL ${value} is not a URL`, { upstream_url: declared });
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    throw new UpstreamError(`only http and https API descriptions are fetched, not ${parsed.protocol}`, {
      upstream_url: declared,
    });
  return parsed;
}

async function readCapped(response: Response, url: string, limits: ApiDocLimits): Promise<Uint8Array> {
  const tooLarge = () =>
    new UpstreamError(`the API description at ${url} is larger than ${limits.maxBytes} bytes`, {
      upstream_url: url,
    });
  const declared = Number(response.headers.get('content-length') ?? NaN);
  if (declared > limits.maxBytes) {
    await response.body?.cancel();
    throw tooLarge();
  }
  if (response.body === null) return new Uint8Array();
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > limits.maxBytes) {
        await reader.cancel();
        throw tooLarge();
      }
      chunks.push(value);
    }
  } catch (error) {
    throw error instanceof UpstreamError ? error : failure(error, url, limits);
  }
  return Buffer.concat(chunks);
}

function failure(error: unknown, url: string, limits: ApiDocLimits): UpstreamError {
  const name = error instanceof Error ? error.name : '';
  const timedOut = name === 'TimeoutError' || name === 'AbortError';
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
