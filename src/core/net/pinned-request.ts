import http, { type IncomingHttpHeaders } from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import type { ApprovedTarget } from './outbound-target.js';

/** One outbound request to an approved target. */
export interface PinnedRequest {
  readonly target: ApprovedTarget;
  readonly method: string;
  readonly headers: Readonly<Record<string, string>>;
  /** The request body; a GET or HEAD without one is sent without a length. */
  readonly body: string;
  /** Time limit for the whole exchange: connection, TLS, request and the read of the answer. */
  readonly timeoutMs: number;
  /** At most this many bytes of the answer are read; the rest is dropped. */
  readonly maxResponseBytes: number;
  /** Certificate authorities to trust instead of the system's (a private CA, or a test CA). */
  readonly ca?: string | Buffer | undefined;
}

/** The answer to a pinned request. Redirects are answers too: they are reported, never followed. */
export interface PinnedResponse {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  /** The start of the answer's body (up to `maxResponseBytes`). */
  readonly bytes: Buffer;
  readonly location: string | undefined;
  /** The body arrived to its end (not cut at `maxResponseBytes`, not broken off). */
  readonly complete: boolean;
}

/** The exchange took longer than its time limit. */
export class PinnedTimeoutError extends Error {
  constructor(timeoutMs: number) {
    super(`no answer within ${timeoutMs / 1000} s`);
    this.name = 'PinnedTimeoutError';
  }
}

/**
 * Sends a request that connects to exactly the approved address, whatever DNS says now: the host name is kept
 * for the Host header and for TLS (SNI and certificate verification against the name), while the `lookup` the
 * socket uses answers with the approved address only. No connection is reused and no redirect is followed.
 */
export function sendPinned(request: PinnedRequest): Promise<PinnedResponse> {
  const { target } = request;
  const pinned: LookupFunction = (_hostname, options, callback) => {
    if (options.all === true) callback(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  };
  const secure = target.url.protocol === 'https:';
  const options: https.RequestOptions = {
    protocol: target.url.protocol,
    hostname: target.hostname,
    port: target.url.port === '' ? (secure ? 443 : 80) : Number(target.url.port),
    path: `${target.url.pathname}${target.url.search}`,
    method: request.method,
    headers:
      request.body === '' && (request.method === 'GET' || request.method === 'HEAD')
        ? request.headers
        : { ...request.headers, 'content-length': String(Buffer.byteLength(request.body)) },
    lookup: pinned,
    agent: false,
    ...(secure && isIP(target.hostname) === 0 ? { servername: target.hostname } : {}),
    ...(request.ca === undefined ? {} : { ca: request.ca }),
  };
  return new Promise<PinnedResponse>((resolve, reject) => {
    let settled = false;
    const finish = (outcome: () => void): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      outcome();
    };
    const req = (secure ? https : http).request(options, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      const done = (complete: boolean): void =>
        finish(() => {
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            bytes: Buffer.concat(chunks).subarray(0, request.maxResponseBytes),
            location: res.headers.location,
            complete,
          });
        });
      res.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        size += chunk.length;
        if (size >= request.maxResponseBytes) {
          done(false);
          res.destroy();
        }
      });
      res.on('end', () => done(true));
      res.on('error', () => done(false));
      res.on('close', () => done(false));
    });
    const timer = setTimeout(() => {
      req.destroy(new PinnedTimeoutError(request.timeoutMs));
    }, request.timeoutMs);
    req.on('error', (error) => finish(() => reject(error)));
    req.end(request.body);
  });
}

/** A one-line reason for a failed request: the system error code when there is one, and its message. */
export function describeRequestError(error: unknown): string {
  const { code, message } = error as { code?: unknown; message?: unknown };
  const text = typeof message === 'string' ? message : String(error);
  return typeof code === 'string' && !text.includes(code) ? `${code}: ${text}` : text;
}
