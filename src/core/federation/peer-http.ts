/**
 * Requests to peer registries, bounded the same way everywhere: a time limit for the whole exchange, a cap on
 * the bytes read, and redirects followed only within the same origin (a peer cannot send the registry to another
 * host). Peers are chosen by administrators, so private and loopback addresses are allowed.
 */
import {
  CONNECT_TIMEOUT_MS,
  HttpNetworkError,
  HttpRedirectError,
  httpRequest,
  HttpTimeoutError,
  HttpTooLargeError,
  isRedirect,
  type HttpResponse,
} from '../net/http-client.js';

/** Why a request to a peer failed, in words an administrator can act on. */
export type PeerFailure = 'timeout' | 'unreachable' | 'too-large' | 'redirect' | 'status' | 'garbage';

/** A failed request to a peer; `message` is one public sentence. */
export class PeerRequestError extends Error {
  constructor(
    readonly failure: PeerFailure,
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'PeerRequestError';
  }
}

/** One request to a peer. */
export interface PeerRequest {
  readonly method?: 'GET' | 'POST';
  readonly accept: string;
  readonly timeoutMs: number;
  readonly maxBytes: number;
  readonly userAgent: string;
  readonly json?: unknown;
  /** Stops the request early (a federated search past its budget). */
  readonly signal?: AbortSignal;
}

/** A peer's answer: any status; the body read in full, within the cap. */
export interface PeerAnswer {
  readonly status: number;
  readonly contentType: string;
  readonly body: string;
  /** The URL answered, after same-origin redirects. */
  readonly url: string;
}

const MAX_REDIRECTS = 3;

/** Sends one request to a peer and reads its answer, within the request's bounds. */
export async function requestPeer(url: string, request: PeerRequest): Promise<PeerAnswer> {
  const post = request.method === 'POST';
  let answer: HttpResponse;
  try {
    answer = await httpRequest(url, {
      method: request.method ?? 'GET',
      headers: {
        accept: request.accept,
        'user-agent': request.userAgent,
        ...(request.json === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(request.json === undefined ? {} : { body: JSON.stringify(request.json) }),
      addresses: 'any',
      timeoutMs: request.timeoutMs,
      connectTimeoutMs: CONNECT_TIMEOUT_MS,
      maxBytes: request.maxBytes,
      decompress: true,
      signal: request.signal,
      // A POST's redirect is its answer; a GET follows redirects within the peer's origin.
      ...(post
        ? {}
        : { redirects: { max: MAX_REDIRECTS, allow: (next, from) => next.origin === from.origin } }),
    });
  } catch (error) {
    throw failure(error, request);
  }
  if (!post && isRedirect(answer.status))
    throw new PeerRequestError('redirect', 'redirected without a Location');
  return {
    status: answer.status,
    contentType: answer.headers.get('content-type') ?? '',
    body: answer.body.toString('utf8'),
    url: answer.url.href,
  };
}

function failure(error: unknown, request: PeerRequest): PeerRequestError {
  if (error instanceof HttpTooLargeError)
    return new PeerRequestError('too-large', `answered more than ${request.maxBytes} bytes`);
  if (error instanceof HttpRedirectError) {
    return new PeerRequestError(
      'redirect',
      error.reason === 'too-many'
        ? `redirected more than ${MAX_REDIRECTS} times`
        : error.next === undefined
          ? `redirected to ${error.location}, which is not a URL`
          : `redirected to another host (${error.next.origin}), which is not followed`,
    );
  }
  const name = (error as { name?: unknown }).name;
  if (error instanceof HttpTimeoutError || name === 'TimeoutError' || name === 'AbortError')
    return new PeerRequestError('timeout', `did not answer within ${request.timeoutMs / 1000} s`);
  const code = error instanceof HttpNetworkError && error.code !== undefined ? ` (${error.code})` : '';
  return new PeerRequestError('unreachable', `could not be reached${code}`);
}

/** Trims an IRI to a base IRI: http(s), no credentials, query or fragment, no trailing slash; undefined if not one. */
export function normaliseBaseIri(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.length > 500) return undefined;
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  if (url.username !== '' || url.password !== '' || url.search !== '' || url.hash !== '') return undefined;
  return url.href.replace(/\/+$/, '');
}

/** Text from a peer cut to one line of at most `max` characters, or undefined when it is not a string. */
export function peerText(value: unknown, max = 200): string | undefined {
  if (typeof value !== 'string') return undefined;
  const line = value.replace(/\s+/g, ' ').trim();
  if (line === '') return undefined;
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}
