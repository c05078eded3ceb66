import { asRegError, type RegError } from '../core/errors.js';
import type { Logger } from '../core/log.js';
import { PROBLEM_BASE } from '../core/ns.js';

/** The RFC 9457 media type, exactly as clients compare it. */
export const PROBLEM_TYPE = 'application/problem+json';

/** Server-side problems whose detail helps the client and reveals nothing internal. */
const PUBLIC_5XX = new Set(['unavailable', 'query-timeout']);

/** The RFC 9457 body of an error; 5xx details are replaced by a reference to the request id. */
export function problemBody(error: RegError, requestId: string, instance?: string): Record<string, unknown> {
  const hidden = error.status >= 500 && !PUBLIC_5XX.has(error.code);
  return {
    type: `${PROBLEM_BASE}${error.code}`,
    title: error.title,
    status: error.status,
    detail: hidden ? `internal error; quote request id ${requestId} when reporting it` : error.detail,
    ...(instance === undefined ? {} : { instance }),
    code: error.code,
    request_id: requestId,
    ...(error.errors.length > 0 ? { errors: error.errors } : {}),
    ...(error.hints.length > 0 ? { hints: error.hints } : {}),
    ...error.extra,
  };
}

/** Turns anything thrown into a problem+json Response, logging server-side failures with the request id. */
export function problemResponse(
  thrown: unknown,
  requestId: string,
  log: Logger,
  instance?: string,
): Response {
  const error = asRegError(thrown);
  if (error.status === 503) {
    // Not ready yet (the index loading, a store away): expected while it lasts, and no fault of the code.
    log.warn('request refused: unavailable', { request_id: requestId, detail: error.detail });
  } else if (error.status >= 500) {
    log.error('request failed', {
      request_id: requestId,
      code: error.code,
      detail: error.detail,
      stack: (thrown as Error).stack,
    });
  }
  const headers: Record<string, string> = { 'content-type': PROBLEM_TYPE };
  if (error.status === 401) headers['www-authenticate'] = 'Bearer';
  if (error.status === 503) headers['retry-after'] = '5';
  return new Response(JSON.stringify(problemBody(error, requestId, instance)), {
    status: error.status,
    headers,
  });
}
