import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import type { Readable, Transform } from 'node:stream';
import zlib from 'node:zlib';
import {
  approveTarget,
  checkTargetUrl,
  TargetRefusedError,
  type ApprovedTarget,
  type TargetPolicy,
} from './outbound-target.js';

/**
 * The one client for every HTTP request the registry sends: webhooks, API descriptions, peer registries, health
 * probes, forges, identity providers and the external graph store. Each caller states its bounds (time limits, a
 * size cap, which redirects are followed, which addresses may be reached) and maps the typed errors below to its
 * own problems; the client owns the connection, the timers, the reading of the body and the redirect loop.
 */

/**
 * Which addresses a request may reach. `any`: wherever the system's resolver points when the connection opens,
 * for servers an operator configured (peers, deployments, forges, identity providers, the graph store); such
 * connections are kept open and reused. A target policy: before every hop the host is resolved and each of its
 * addresses checked (`approveTarget`), and the connection goes to exactly the address that was checked, whatever
 * DNS answers a moment later; for URLs a caller supplied, which must not make the registry reach its own network.
 */
export type AddressPolicy = 'any' | TargetPolicy;

/** Which redirects are followed. Without one, a redirect is an answer like any other. */
export interface RedirectPolicy {
  /** The most redirects followed; one more is an HttpRedirectError (`too-many`). */
  readonly max: number;
  /** Whether a redirect to `next` is followed; a refused one is an HttpRedirectError (`refused`). */
  readonly allow: (next: URL, from: URL) => boolean;
}

/** One outgoing request and its bounds. */
export interface HttpRequest {
  /** `GET` when absent. */
  readonly method?: string | undefined;
  readonly headers?: Readonly<Record<string, string>> | undefined;
  readonly body?: string | Buffer | undefined;
  readonly addresses: AddressPolicy;
  /** Time limit for the whole exchange: resolution, connections, redirects and the read of the body. */
  readonly timeoutMs: number;
  /** Time limit for opening one connection (TCP and TLS); only `timeoutMs` applies when absent. */
  readonly connectTimeoutMs?: number | undefined;
  /** The most bytes of a body read (after decompression); `Infinity` for no cap. */
  readonly maxBytes: number;
  /**
   * `fail` (the default): a larger body is an HttpTooLargeError, and a body broken off is an error. `truncate`:
   * the body only informs, so its first `maxBytes` are kept, and a body cut short by the time limit or the network
   * is kept as far as it came (the answer is still the answer).
   */
  readonly overflow?: 'fail' | 'truncate' | undefined;
  /** Whether the body of an answer with this status is read (every one when absent); one not read is dropped. */
  readonly read?: ((status: number) => boolean) | undefined;
  readonly redirects?: RedirectPolicy | undefined;
  /** Asks for compressed answers (gzip, deflate, br) and decompresses them, as browsers do. */
  readonly decompress?: boolean | undefined;
  /** Certificate authorities to trust instead of the system's (a private CA, or a test CA). */
  readonly ca?: string | Buffer | undefined;
  /** Stops the request; it then fails with the signal's reason. */
  readonly signal?: AbortSignal | undefined;
  /** The connections an `any` request may use and leave open (default: pools shared by every such request). */
  readonly pools?: ConnectionPools | undefined;
  /** Told each time the request, body included, has been handed to the network (once per attempt). */
  readonly onSent?: (() => void) | undefined;
}

/** The final answer to a request. */
export interface HttpResponse {
  readonly status: number;
  readonly headers: Headers;
  /** The body as read: empty when it was not read, the first `maxBytes` when truncated. */
  readonly body: Buffer;
  /** Whether `body` is the whole body: false when it was not read, truncated or broken off. */
  readonly complete: boolean;
  /** The URL that answered, after redirects. */
  readonly url: URL;
  /** The body as UTF-8 text, decoded as fetch decodes it (a byte order mark dropped, bad bytes replaced). */
  text(): string;
}

/** A request that failed; `url` is the hop it failed at. */
export class HttpClientError extends Error {
  constructor(
    readonly url: string,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = 'HttpClientError';
  }
}

/** The exchange took longer than its time limit. */
export class HttpTimeoutError extends HttpClientError {
  constructor(
    url: string,
    readonly timeoutMs: number,
  ) {
    super(url, `no answer within ${timeoutMs / 1000} s`);
    this.name = 'HttpTimeoutError';
  }
}

/** The body is larger than the request's cap (declared so, or found so while reading). */
export class HttpTooLargeError extends HttpClientError {
  constructor(
    url: string,
    readonly maxBytes: number,
  ) {
    super(url, `answered more than ${maxBytes} bytes`);
    this.name = 'HttpTooLargeError';
  }
}

/** The registry refused to reach the target: its URL, or an address its host resolves to (see `refusal`). */
export class HttpRefusedError extends HttpClientError {
  constructor(
    url: string,
    readonly refusal: TargetRefusedError,
  ) {
    super(url, refusal.message, { cause: refusal });
    this.name = 'HttpRefusedError';
  }

  get code(): TargetRefusedError['code'] {
    return this.refusal.code;
  }
}

/** A redirect that was not followed: one too many, to a location that is no URL, or one the policy refused. */
export class HttpRedirectError extends HttpClientError {
  constructor(
    url: string,
    readonly reason: 'too-many' | 'invalid-location' | 'refused',
    /** The Location as the server sent it. */
    readonly location: string,
    /** The URL it points at, when it is one. */
    readonly next: URL | undefined,
  ) {
    super(
      url,
      reason === 'too-many'
        ? `redirected once more than allowed, to ${location}`
        : reason === 'invalid-location'
          ? `redirected to ${location}, which is not a URL`
          : `redirected to ${location}, which is not followed`,
    );
    this.name = 'HttpRedirectError';
  }
}

/** The connection or the exchange failed: refused, reset, unresolvable, TLS, a malformed answer... */
export class HttpNetworkError extends HttpClientError {
  /** The system's error code (`ECONNREFUSED`, `ENOTFOUND`, `ERR_TLS_CERT_ALTNAME_INVALID`...), when there is one. */
  readonly code: string | undefined;

  constructor(url: string, cause: unknown) {
    const { code, message } = cause as { code?: unknown; message?: unknown };
    super(url, typeof message === 'string' ? message : String(cause), { cause });
    this.name = 'HttpNetworkError';
    this.code = typeof code === 'string' ? code : undefined;
  }
}

/** A one-line reason for a failed request: the system error code when there is one, and its message. */
export function describeRequestError(error: unknown): string {
  const { code, message } = error as { code?: unknown; message?: unknown };
  const text = typeof message === 'string' ? message : String(error);
  return typeof code === 'string' && !text.includes(code) ? `${code}: ${text}` : text;
}

/** The redirect statuses fetch follows; other 3xx answers are answers. */
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** Whether a status is a redirect the client follows (when the request has a redirect policy and a Location). */
export function isRedirect(status: number): boolean {
  return REDIRECTS.has(status);
}

/**
 * How long opening a connection (TCP and TLS) to a server an operator configured may take, however long the whole
 * exchange may: a server that does not accept a connection in 10 s is taken to be unreachable.
 */
export const CONNECT_TIMEOUT_MS = 10_000;

/** Connections kept open for reuse, one pool per protocol. */
export interface ConnectionPools {
  readonly http: http.Agent;
  readonly https: https.Agent;
}

/**
 * Pools whose connections stay open for reuse (the graph store is asked many times a second), at most
 * `maxSockets` per server when given. An idle one is closed after 4 s, or a second before the server's own
 * keep-alive hint, so that it is not reused just as the server closes it.
 */
export function connectionPools(maxSockets?: number): ConnectionPools {
  const options = {
    keepAlive: true,
    timeout: 4_000,
    ...(maxSockets === undefined ? {} : { maxSockets, maxFreeSockets: maxSockets }),
  };
  return { http: new http.Agent(options), https: new https.Agent(options) };
}

/** The pools of `any` requests that bring none of their own. */
const AGENTS = connectionPools();

/** Headers describing a request body, dropped when a redirect turns the request into a GET. */
const BODY_HEADERS = ['content-type', 'content-encoding', 'content-language', 'content-location'];
/** Headers carrying credentials, never sent on to another origin. */
const CREDENTIAL_HEADERS = ['authorization', 'proxy-authorization', 'cookie'];

const utf8 = new TextDecoder();
const EMPTY = Buffer.alloc(0);

/**
 * Sends a request and reads its answer within the request's bounds, following redirects as its policy allows and
 * checking every hop's target again. Fails with an HttpClientError (timeout, too large, refused, redirect,
 * network), or the reason of the request's signal.
 */
export async function httpRequest(url: string, request: HttpRequest): Promise<HttpResponse> {
  let current = url;
  const stop = new AbortController();
  const timer = setTimeout(
    () => stop.abort(new HttpTimeoutError(current, request.timeoutMs)),
    request.timeoutMs,
  );
  const { signal } = request;
  const cancel = (): void => stop.abort(signal?.reason);
  if (signal?.aborted === true) cancel();
  signal?.addEventListener('abort', cancel, { once: true });
  let method = request.method ?? 'GET';
  let body = request.body;
  let headers = outgoingHeaders(request);
  try {
    for (let hop = 0; ; hop++) {
      const target = await prepare(current, request.addresses, stop.signal);
      current = target.url.href;
      const outcome = await send(target, method, headers, body, request, stop.signal);
      if (outcome.kind === 'answer') return outcome.response;
      // A redirect the policy may follow (send reports one only when there is a policy).
      const policy = request.redirects as RedirectPolicy;
      let next: URL | undefined;
      try {
        next = new URL(outcome.location, target.url);
      } catch {
        next = undefined;
      }
      if (hop >= policy.max) throw new HttpRedirectError(current, 'too-many', outcome.location, next);
      if (next === undefined)
        throw new HttpRedirectError(current, 'invalid-location', outcome.location, next);
      if (!policy.allow(next, target.url))
        throw new HttpRedirectError(current, 'refused', outcome.location, next);
      // As fetch does: a 303 (and a 301 or 302 after a POST) is followed with a GET without a body.
      if (
        (outcome.status === 303 && method !== 'HEAD') ||
        ((outcome.status === 301 || outcome.status === 302) && method === 'POST')
      ) {
        method = 'GET';
        body = undefined;
        headers = without(headers, BODY_HEADERS);
      }
      if (next.origin !== target.url.origin) headers = without(headers, CREDENTIAL_HEADERS);
      current = next.href;
    }
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', cancel);
  }
}

/** The headers sent on every hop: the caller's (names in lower case), and a user agent when the caller names none. */
function outgoingHeaders(request: HttpRequest): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers ?? {})) headers[name.toLowerCase()] = value;
  headers['user-agent'] ??= 'reg';
  return headers;
}

function without(headers: Record<string, string>, names: readonly string[]): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !names.includes(name)));
}

/** Where one hop connects: the URL, and the address it is pinned to when the policy checks targets. */
interface Hop {
  readonly url: URL;
  readonly pinned?: ApprovedTarget;
}

/** Checks a hop's target as the address policy says; a refusal is an HttpRefusedError. */
async function prepare(url: string, addresses: AddressPolicy, stop: AbortSignal): Promise<Hop> {
  try {
    if (addresses === 'any') return { url: checkTargetUrl(url, { allowHttp: true, allowPrivate: true }) };
    const pinned = await untilStopped(approveTarget(url, addresses), stop);
    return { url: pinned.url, pinned };
  } catch (error) {
    throw error instanceof TargetRefusedError ? new HttpRefusedError(url, error) : error;
  }
}

/** The work's outcome, or the stop's reason if it comes first (a resolution cannot be cancelled, only left). */
function untilStopped<T>(work: Promise<T>, stop: AbortSignal): Promise<T> {
  if (stop.aborted) return Promise.reject(stop.reason as Error);
  return new Promise<T>((resolve, reject) => {
    const onStop = (): void => reject(stop.reason as Error);
    stop.addEventListener('abort', onStop, { once: true });
    void work.then(resolve, reject).finally(() => stop.removeEventListener('abort', onStop));
  });
}

type Outcome =
  | { readonly kind: 'answer'; readonly response: HttpResponse }
  | { readonly kind: 'redirect'; readonly status: number; readonly location: string };

/**
 * One exchange with one hop. A pinned hop connects to its approved address only: the host name is kept for the Host
 * header and for TLS (SNI and certificate verification against the name), while the `lookup` the socket uses
 * answers with the approved address, and no connection is reused.
 */
function send(
  hop: Hop,
  method: string,
  headers: Record<string, string>,
  body: string | Buffer | undefined,
  request: HttpRequest,
  stop: AbortSignal,
): Promise<Outcome> {
  const { url, pinned } = hop;
  const secure = url.protocol === 'https:';
  const hostname = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const port = url.port === '' ? (secure ? 443 : 80) : Number(url.port);
  const sent = { ...headers };
  if (request.decompress === true) sent['accept-encoding'] ??= secure ? 'br, gzip, deflate' : 'gzip, deflate';
  const payload = body ?? '';
  if (payload.length > 0 || (method !== 'GET' && method !== 'HEAD'))
    sent['content-length'] = String(Buffer.byteLength(payload));
  const options: https.RequestOptions = {
    protocol: url.protocol,
    hostname,
    port,
    path: `${url.pathname}${url.search}`,
    method,
    headers: sent,
    ...(pinned === undefined
      ? { agent: (request.pools ?? AGENTS)[secure ? 'https' : 'http'] }
      : {
          lookup: pinnedLookup(pinned),
          agent: false,
          ...(secure && isIP(hostname) === 0 ? { servername: hostname } : {}),
        }),
    ...(request.ca === undefined ? {} : { ca: request.ca }),
  };
  const max = request.maxBytes;
  const truncate = request.overflow === 'truncate';

  return new Promise<Outcome>((resolve, reject) => {
    let settled = false;
    let connectTimer: NodeJS.Timeout | undefined;
    /** Set once the body is being read: what a failure then means depends on `overflow`. */
    let keepPartial: ((complete: boolean) => void) | undefined;
    const finish = (outcome: () => void): void => {
      if (settled) return;
      settled = true;
      clearTimeout(connectTimer);
      stop.removeEventListener('abort', onStop);
      outcome();
    };
    const fail = (error: Error): void => finish(() => reject(error));
    const broken = (error: unknown): void => {
      if (keepPartial !== undefined && truncate) keepPartial(false);
      else fail(error instanceof HttpClientError ? error : new HttpNetworkError(url.href, error));
    };
    const onStop = (): void => {
      if (keepPartial !== undefined && truncate) keepPartial(false);
      else fail(stop.reason as Error);
      req.destroy();
    };

    const req = (secure ? https : http).request(options, (res) => {
      const status = res.statusCode ?? 0;
      const location = res.headers.location;
      if (request.redirects !== undefined && REDIRECTS.has(status) && location !== undefined) {
        res.destroy();
        finish(() => resolve({ kind: 'redirect', status, location }));
        return;
      }
      const answer = (bytes: Buffer, complete: boolean): Outcome => ({
        kind: 'answer',
        response: {
          status,
          headers: headersOf(res),
          body: bytes,
          complete,
          url,
          text: () => utf8.decode(bytes),
        },
      });
      if (!(request.read?.(status) ?? true)) {
        drop(res, status);
        finish(() => resolve(answer(EMPTY, false)));
        return;
      }
      if (!truncate && Number(res.headers['content-length'] ?? Number.NaN) > max) {
        res.destroy();
        fail(new HttpTooLargeError(url.href, max));
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      keepPartial = (complete) =>
        finish(() => resolve(answer(Buffer.concat(chunks, Math.min(size, max)), complete)));
      const stream = request.decompress === true ? decoded(res, method, status, broken) : res;
      stream.on('data', (chunk: Buffer) => {
        if (settled) return;
        if (size + chunk.length > max) {
          if (truncate) {
            chunks.push(chunk.subarray(0, max - size));
            size = max;
            keepPartial?.(false);
          } else fail(new HttpTooLargeError(url.href, max));
          res.destroy();
          if (stream !== res) stream.destroy();
          return;
        }
        chunks.push(chunk);
        size += chunk.length;
      });
      stream.on('end', () => keepPartial?.(true));
      stream.on('error', broken);
      res.on('error', broken);
      res.on('close', () => {
        if (!res.complete)
          broken(Object.assign(new Error('the answer was cut short'), { code: 'ECONNRESET' }));
      });
    });
    req.on('error', broken);
    if (request.connectTimeoutMs !== undefined) {
      const limit = request.connectTimeoutMs;
      req.once('socket', (socket) => {
        // Only a connection being opened is timed: a pool also hands a waiting request a connection already open
        // without marking it reused.
        if (req.reusedSocket || !socket.connecting) return;
        connectTimer = setTimeout(() => {
          const error = Object.assign(
            new Error(`connect ETIMEDOUT ${hostname}:${port} (no connection within ${limit / 1000} s)`),
            { code: 'ETIMEDOUT' },
          );
          req.destroy(error);
        }, limit);
        socket.once(secure ? 'secureConnect' : 'connect', () => clearTimeout(connectTimer));
      });
    }
    if (stop.aborted) {
      onStop();
      return;
    }
    stop.addEventListener('abort', onStop, { once: true });
    if (request.onSent !== undefined) req.once('finish', request.onSent);
    req.end(payload);
  });
}

/** A `lookup` that answers with the approved address only, whatever the name. */
function pinnedLookup(target: ApprovedTarget): LookupFunction {
  return (_hostname, options, callback) => {
    if (options.all === true) callback(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  };
}

/** Drops a body that is not read: an empty one is let run to its end, so that the connection can be reused. */
function drop(res: IncomingMessage, status: number): void {
  if (status === 204 || status === 304 || res.headers['content-length'] === '0') res.resume();
  else res.destroy();
}

/** The answer's headers as fetch shows them (repeated ones joined with commas). */
function headersOf(res: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, values] of Object.entries(res.headersDistinct)) {
    for (const value of values ?? []) {
      try {
        headers.append(name, value);
      } catch {
        // A value fetch would not carry either.
      }
    }
  }
  return headers;
}

/** Decompression that tolerates a stream cut at its end, as browsers do. */
const LENIENT = { flush: zlib.constants.Z_SYNC_FLUSH, finishFlush: zlib.constants.Z_SYNC_FLUSH };
const LENIENT_BROTLI = {
  flush: zlib.constants.BROTLI_OPERATION_FLUSH,
  finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH,
};

/**
 * The body with its content codings undone (last applied, first undone). A coding the client does not know leaves
 * the body as sent; so does an answer that has no body.
 */
function decoded(
  res: IncomingMessage,
  method: string,
  status: number,
  onError: (error: unknown) => void,
): Readable {
  if (method === 'HEAD' || status === 204 || status === 304) return res;
  const codings = (res.headers['content-encoding'] ?? '')
    .toLowerCase()
    .split(',')
    .map((coding) => coding.trim())
    .filter((coding) => coding !== '' && coding !== 'identity');
  const decoders: Transform[] = [];
  for (const coding of codings.reverse()) {
    if (coding === 'gzip' || coding === 'x-gzip') decoders.push(zlib.createGunzip(LENIENT));
    else if (coding === 'deflate') decoders.push(zlib.createInflate(LENIENT));
    else if (coding === 'br') decoders.push(zlib.createBrotliDecompress(LENIENT_BROTLI));
    else return res;
  }
  let stream: Readable = res;
  for (const decoder of decoders) {
    decoder.on('error', onError);
    stream = stream.pipe(decoder);
  }
  return stream;
}

/** The endpoint as it may be shown: scheme, host, port and path, without credentials or query. */
export function showEndpoint(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}${parsed.pathname}`;
  } catch {
    return '(an invalid URL)';
  }
}
