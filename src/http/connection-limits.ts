/**
 * Time and count limits on client connections, applied to the Node HTTP server under the Hono app. A connection
 * that never finishes its request head, trickles its body, idles between requests or stops reading an answer is
 * closed, and the number of open connections is capped, so that slow or silent clients cannot hold the server's
 * sockets. Where the client can still be answered, the answer is a problem+json (408, 431, 400).
 */
import { randomUUID } from 'node:crypto';
import { maxHeaderSize, STATUS_CODES, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { HttpServerSettings } from '../core/config/index.js';
import { BadRequestError, RegError } from '../core/errors.js';
import type { Logger } from '../core/log.js';
import { PROBLEM_TYPE, problemBody } from './problem.js';

/** The client did not send its request in time (408). */
export class RequestTimeoutError extends RegError {
  constructor(detail: string) {
    super('request-timeout', detail);
  }
}

/** The request head is larger than the server reads (431). */
export class HeadersTooLargeError extends RegError {
  constructor(limit: number) {
    super(
      'headers-too-large',
      `the request head is larger than the ${limit} bytes this server reads; send fewer or shorter headers`,
      { extra: { limit } },
    );
  }
}

/**
 * How often Node looks for connections past their head or request time limit: a quarter of the shorter one, so
 * a limit is enforced within a quarter of itself, but never more often than every 100 ms.
 */
export function connectionsCheckingInterval(settings: HttpServerSettings): number {
  const shorter = Math.min(settings.headersTimeoutMs, settings.requestTimeoutMs);
  return Math.min(30_000, Math.max(100, Math.floor(shorter / 4)));
}

/** Sets the time limits and the connection cap on a server that has not started listening yet. */
export function applyConnectionLimits(server: Server, settings: HttpServerSettings, log: Logger): void {
  server.headersTimeout = settings.headersTimeoutMs;
  server.requestTimeout = settings.requestTimeoutMs;
  server.keepAliveTimeout = settings.keepAliveTimeoutMs;
  server.maxConnections = settings.maxConnections;
  // The answer each connection is working on: a connection with one whose head is unsent is busy, not idle.
  const answering = new WeakMap<Duplex, ServerResponse>();
  server.on('request', (request: { socket: Socket }, response: ServerResponse) => {
    answering.set(request.socket, response);
    // Node drops the inactivity limit once a connection has been kept alive; every request gets it again.
    request.socket.setTimeout(settings.idleTimeoutMs);
    response.once('close', () => {
      if (answering.get(request.socket) === response) answering.delete(request.socket);
    });
  });
  server.timeout = settings.idleTimeoutMs;
  server.on('timeout', (socket: Socket) => {
    // A request the registry is still working on, or an answer it is still producing, is not cut here: that
    // work has limits of its own (REG_SPARQL_TIMEOUT, ...). Only a client that is not reading what was written
    // to it (bytes still queued), or a connection with no request at all, is.
    const response = answering.get(socket);
    if (response !== undefined && (!response.headersSent || socket.writableLength === 0)) return;
    log.debug('connection closed: idle', { remote: socket.remoteAddress });
    socket.destroy();
  });
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    answerClientError(error, socket, answering.get(socket), settings, log);
  });
  server.on('drop', reportDrops(settings.maxConnections, log));
}

/** Answers a connection-level failure with a problem where the client can still read one, then closes it. */
function answerClientError(
  error: NodeJS.ErrnoException,
  socket: Duplex,
  response: ServerResponse | undefined,
  settings: HttpServerSettings,
  log: Logger,
): void {
  const problem = problemFor(error, socket, response, settings);
  if (problem !== undefined && socket.writable && response?.headersSent !== true) {
    const requestId = randomUUID();
    log.debug('request refused on its connection', { request_id: requestId, code: problem.code });
    socket.end(rawProblem(problem, requestId));
  }
  socket.destroy();
}

/** The problem a client error is answered with; none for a connection that never sent a byte. */
function problemFor(
  error: NodeJS.ErrnoException,
  socket: Duplex,
  response: ServerResponse | undefined,
  settings: HttpServerSettings,
): RegError | undefined {
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    if (response !== undefined)
      return new RequestTimeoutError(
        `the request was not received in full within ${settings.requestTimeoutMs / 1000} s (REG_HTTP_REQUEST_TIMEOUT)`,
      );
    // A connection that asked nothing is closed without a word: there is no request to answer.
    if ((socket as Partial<Socket>).bytesRead === 0) return undefined;
    return new RequestTimeoutError(
      `the request head was not received within ${settings.headersTimeoutMs / 1000} s (REG_HTTP_HEADERS_TIMEOUT)`,
    );
  }
  if (error.code === 'HPE_HEADER_OVERFLOW') return new HeadersTooLargeError(maxHeaderSize);
  if (error.code?.startsWith('HPE_') === true)
    return new BadRequestError(`the request is not valid HTTP/1.1 (${error.code})`);
  return undefined;
}

/** A whole HTTP/1.1 answer carrying a problem, written straight to the socket, after which it closes. */
function rawProblem(problem: RegError, requestId: string): string {
  const body = JSON.stringify(problemBody(problem, requestId));
  return [
    `HTTP/1.1 ${problem.status} ${STATUS_CODES[problem.status] ?? ''}`,
    `content-type: ${PROBLEM_TYPE}`,
    `content-length: ${Buffer.byteLength(body)}`,
    `x-request-id: ${requestId}`,
    'connection: close',
    '',
    body,
  ].join('\r\n');
}

/** Reports connections closed at the cap: a warning at the first, then at most one a minute with a count. */
function reportDrops(limit: number, log: Logger): () => void {
  let dropped = 0;
  let reported = 0;
  return () => {
    dropped++;
    const now = Date.now();
    if (now - reported < 60_000) return;
    reported = now;
    log.warn('connections closed at the connection cap (REG_HTTP_MAX_CONNECTIONS)', {
      limit,
      dropped_since_last_report: dropped,
    });
    dropped = 0;
  };
}
