import { asRegError, BadRequestError, MethodNotAllowedError, type RegError } from '../core/errors.js';
import type { Logger } from '../core/log.js';
import { PROBLEM_BASE } from '../core/ns.js';

/** The RFC 9457 media type, exactly as clients compare it. */
export const PROBLEM_TYPE = 'application/problem+json';

/**
 * Server-side problems whose detail helps the client and reveals nothing internal: a store away, a query past its
 * limit, and a failure of an outside host the registry was asked to reach (whose URL the client knows already).
 */
const PUBLIC_5XX = new Set(['unavailable', 'query-timeout', 'upstream-failed']);

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
  const error = clientAbandoned(thrown)
    ? new BadRequestError('the request was cut off before its body arrived in full')
    : asRegError(thrown);
  logProblem(thrown, error, requestId, log);
  const headers: Record<string, string> = { 'content-type': PROBLEM_TYPE };
  if (error.status === 401) headers['www-authenticate'] = 'Bearer';
  if (error.status === 503) headers['retry-after'] = '5';
  if (error instanceof MethodNotAllowedError) headers.allow = error.allow.join(', ');
  return new Response(JSON.stringify(problemBody(error, requestId, instance)), {
    status: error.status,
    headers,
  });
}

/**
 * Logs what the operator should hear of: faults of the registry at error level with their stack; problems that
 * are nobody's fault here (not ready yet, an outside host failing, an outside address refused, a client gone)
 * at a level to match and without a stack. The cause of an outside failure (which may name an address the
 * client is not told) goes to the log only.
 */
function logProblem(thrown: unknown, error: RegError, requestId: string, log: Logger): void {
  const fields = { request_id: requestId, code: error.code, detail: error.detail };
  if (clientAbandoned(thrown)) log.debug('request abandoned by the client', fields);
  else if (error.status === 503) log.warn('request refused: unavailable', fields);
  else if (error.code === 'upstream-failed') {
    const outside = {
      ...fields,
      ...error.extra,
      ...(error.cause instanceof Error ? { cause: error.cause.message } : {}),
    };
    // The registry refusing an address it must not reach is policy at work, not trouble.
    if (error.extra.refused === undefined) log.warn('outside request failed', outside);
    else log.info('outside request refused', outside);
  } else if (error.status >= 500) log.error('request failed', { ...fields, stack: (thrown as Error).stack });
}

/** Whether the failure is Node's own report of a client that closed its connection before its body was read. */
function clientAbandoned(thrown: unknown): boolean {
  return (
    thrown instanceof Error &&
    (thrown as NodeJS.ErrnoException).code === 'ECONNRESET' &&
    thrown.message === 'aborted'
  );
}
