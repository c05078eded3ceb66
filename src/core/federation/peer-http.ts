/**
 * Requests to peer registries, bounded the same way everywhere: a time limit for the whole exchange, a cap on
 * the bytes read, and redirects followed only within the same origin (a peer cannot send the registry to another
 * host). Peers are chosen by administrators, so private and loopback addresses are allowed.
 */

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

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const MAX_REDIRECTS = 3;

/** Sends one request to a peer and reads its answer, within the request's bounds. */
export async function requestPeer(url: string, request: PeerRequest): Promise<PeerAnswer> {
  const timeout = AbortSignal.timeout(request.timeoutMs);
  const signal = request.signal === undefined ? timeout : AbortSignal.any([timeout, request.signal]);
  let current = new URL(url);
  const origin = current.origin;
  for (let hop = 0; ; hop++) {
    const response = await send(current, request, signal);
    if (!REDIRECTS.has(response.status) || request.method === 'POST') {
      const body = await readCapped(response, request, signal);
      return {
        status: response.status,
        contentType: response.headers.get('content-type') ?? '',
        body,
        url: current.href,
      };
    }
    await response.body?.cancel().catch(() => undefined);
    const location = response.headers.get('location');
    if (location === null || hop >= MAX_REDIRECTS)
      throw new PeerRequestError(
        'redirect',
        location === null ? 'redirected without a Location' : `redirected more than ${MAX_REDIRECTS} times`,
      );
    const next = new URL(location, current);
    if (next.origin !== origin)
      throw new PeerRequestError(
        'redirect',
        `redirected to another host (${next.origin}), which is not followed`,
      );
    current = next;
  }
}

async function send(url: URL, request: PeerRequest, signal: AbortSignal): Promise<Response> {
  const headers: Record<string, string> = { accept: request.accept, 'user-agent': request.userAgent };
  if (request.json !== undefined) headers['content-type'] = 'application/json';
  try {
    return await fetch(url, {
      method: request.method ?? 'GET',
      headers,
      redirect: 'manual',
      signal,
      ...(request.json === undefined ? {} : { body: JSON.stringify(request.json) }),
    });
  } catch (error) {
    throw failure(error, request);
  }
}

async function readCapped(response: Response, request: PeerRequest, signal: AbortSignal): Promise<string> {
  const tooLarge = () => new PeerRequestError('too-large', `answered more than ${request.maxBytes} bytes`);
  if (Number(response.headers.get('content-length') ?? NaN) > request.maxBytes) {
    await response.body?.cancel().catch(() => undefined);
    throw tooLarge();
  }
  if (response.body === null) return '';
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      if (signal.aborted) throw signal.reason;
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > request.maxBytes) {
        await reader.cancel().catch(() => undefined);
        throw tooLarge();
      }
      chunks.push(value);
    }
  } catch (error) {
    throw error instanceof PeerRequestError ? error : failure(error, request);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function failure(error: unknown, request: PeerRequest): PeerRequestError {
  const name = (error as { name?: unknown }).name;
  if (name === 'TimeoutError' || name === 'AbortError')
    return new PeerRequestError('timeout', `did not answer within ${request.timeoutMs / 1000} s`);
  const cause = (error as { cause?: { code?: unknown } }).cause;
  const code = typeof cause?.code === 'string' ? ` (${cause.code})` : '';
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
