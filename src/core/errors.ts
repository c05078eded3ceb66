import { ERROR_CODES, type ErrorCode } from './error-codes.js';

/**
 * The registry's error hierarchy. Every failure a caller can act on is a `RegError` with a stable `code`
 * (callers branch on it, never on message text), an HTTP status, a title and a public detail.
 */

/** One field-level problem, named by the JSON field it concerns. */
export interface FieldError {
  readonly field: string;
  readonly message: string;
}

/** Options every registry error accepts beyond its detail sentence. */
export interface RegErrorOptions {
  readonly errors?: readonly FieldError[];
  readonly hints?: readonly string[];
  readonly extra?: Readonly<Record<string, unknown>>;
  readonly cause?: unknown;
}

/**
 * A problem with a code, an HTTP status, a title and a public detail sentence: one of the registry's own
 * (`RegError`, whose code is in the catalogue) or one a registry answered the CLI with, whatever its code.
 */
export class Problem extends Error {
  readonly code: string;
  readonly status: number;
  readonly title: string;
  readonly detail: string;
  readonly errors: readonly FieldError[];
  readonly hints: readonly string[];
  readonly extra: Readonly<Record<string, unknown>>;

  constructor(code: string, status: number, title: string, detail: string, options: RegErrorOptions = {}) {
    super(detail, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    this.status = status;
    this.title = title;
    this.detail = detail;
    this.errors = options.errors ?? [];
    this.hints = options.hints ?? [];
    this.extra = options.extra ?? {};
  }
}

/** Base class of the registry's errors: a code of the catalogue, whose status and title it takes from there. */
export class RegError extends Problem {
  declare readonly code: ErrorCode;

  constructor(code: ErrorCode, detail: string, options: RegErrorOptions = {}) {
    const entry = ERROR_CODES[code];
    super(code, entry.status, entry.title, detail, options);
  }
}

/** A record that was withdrawn cannot be changed or cited (410). */
export class TombstonedError extends RegError {
  constructor(detail: string, options?: RegErrorOptions) {
    super('tombstoned', detail, options);
  }
}

/** The request cannot be understood (400). */
export class BadRequestError extends RegError {
  constructor(detail: string, options?: RegErrorOptions) {
    super('bad-request', detail, options);
  }
}

/** No usable credential was presented (401). */
export class UnauthorizedError extends RegError {
  constructor(
    detail = 'this endpoint needs a credential: send Authorization: Bearer <token>',
    options?: RegErrorOptions,
  ) {
    super('unauthorized', detail, options);
  }
}

/** The credential is valid but not allowed to do this (403). */
export class ForbiddenError extends RegError {
  constructor(detail: string, options?: RegErrorOptions) {
    super('forbidden', detail, options);
  }
}

/** The named record or resource does not exist (404). */
export class NotFoundError extends RegError {
  constructor(detail: string, options?: RegErrorOptions) {
    super('not-found', detail, options);
  }
}

/** The resource exists but does not answer this method (405); `allow` lists the methods it answers. */
export class MethodNotAllowedError extends RegError {
  constructor(
    method: string,
    path: string,
    readonly allow: readonly string[],
  ) {
    super('method-not-allowed', `${path} does not answer ${method}; it answers ${allow.join(', ')}`, {
      extra: { allow },
    });
  }
}

/** None of the representations the client accepts can be produced (406). */
export class NotAcceptableError extends RegError {
  constructor(detail: string, options?: RegErrorOptions) {
    super('not-acceptable', detail, options);
  }
}

/** The request conflicts with the current state (409). */
export class ConflictError extends RegError {
  constructor(detail: string, options?: RegErrorOptions) {
    super('conflict', detail, options);
  }
}

/** The request body is larger than the configured limit (413). */
export class PayloadTooLargeError extends RegError {
  constructor(limit: number) {
    super('payload-too-large', `request body exceeds the limit of ${limit} bytes (REG_MAX_PAYLOAD_BYTES)`, {
      extra: { limit },
    });
  }
}

/** The media type of the request body is not one this endpoint reads (415). */
export class UnsupportedMediaTypeError extends RegError {
  constructor(detail: string, options?: RegErrorOptions) {
    super('unsupported-media-type', detail, options);
  }
}

/** A write was refused by validation; `errors` lists every violation (422). */
export class ValidationError extends RegError {
  constructor(detail: string, options?: RegErrorOptions) {
    super('shacl-validation-failed', detail, options);
  }
}

/** Input that is syntactically broken, such as a malformed N-Quads line (422 over HTTP). */
export class MalformedInputError extends RegError {
  constructor(detail: string, options?: RegErrorOptions) {
    super('malformed-input', detail, options);
  }
}

/** A request body that is not valid UTF-8 (400): nothing in it is read, rather than guessed at. */
export class InvalidEncodingError extends RegError {
  constructor(detail: string) {
    super('invalid-utf8', detail, {
      hints: ['send the body encoded as UTF-8'],
    });
  }
}

/** A JSON body nested deeper than the configured limit (400). */
export class TooDeepError extends RegError {
  constructor(limit: number) {
    super(
      'too-deep',
      `the request body nests objects and lists more than ${limit} levels deep (REG_MAX_JSON_DEPTH)`,
      { extra: { limit } },
    );
  }
}

/** Text that is not a sequence of Unicode characters, such as a lone surrogate (422); `errors` names each field. */
export class InvalidTextError extends RegError {
  constructor(errors: readonly FieldError[]) {
    super('invalid-text', errors.map((error) => error.message).join('; '), { errors });
  }
}

/** A list longer than the configured limit (422); `errors` names each list field that is too long. */
export class TooManyItemsError extends RegError {
  constructor(errors: readonly FieldError[], limit: number) {
    super('too-many-items', errors.map((error) => error.message).join('; '), {
      errors,
      extra: { limit },
      hints: ['send fewer items per list, or ask the operator to raise REG_MAX_LIST_ITEMS'],
    });
  }
}

/** A store is not usable right now: not yet loaded, or an external endpoint unreachable (503). */
export class UnavailableError extends RegError {
  constructor(detail: string, options?: RegErrorOptions) {
    super('unavailable', detail, options);
  }
}

/**
 * A query ran past its time limit (504). The query index cannot interrupt a query, so it was restarted to stop
 * this one; the limit is `REG_SPARQL_TIMEOUT`.
 */
export class QueryTimeoutError extends RegError {
  constructor(limitMs: number, setting = 'REG_SPARQL_TIMEOUT') {
    super(
      'query-timeout',
      `the query did not finish within ${limitMs / 1000} s (${setting}) and was stopped`,
      {
        extra: { timeout_ms: limitMs },
        hints: ['narrow the query: bind subjects or types, name the graph, add a LIMIT'],
      },
    );
  }
}

/**
 * A SPARQL query beyond one of the bounds checked before it reaches the query engine (400): `code` names the
 * bound (`query-too-long`, `query-too-deep`, `query-too-complex`), `limit` and `setting` say where it lies.
 */
export class QueryBoundError extends RegError {
  constructor(
    code: 'query-too-long' | 'query-too-deep' | 'query-too-complex',
    detail: string,
    limit: number,
    setting?: string,
  ) {
    super(code, detail, {
      extra: setting === undefined ? { limit } : { limit, setting },
      hints: [
        'split the query, or flatten it: fewer nested groups, fewer operators; list values with VALUES',
      ],
    });
  }
}

/** A SPARQL query holding a SERVICE clause (400): federated query is not offered. */
export class FederatedQueryError extends RegError {
  constructor() {
    super(
      'federated-query-refused',
      'SERVICE is not accepted: this endpoint answers from its own graph only and does not query other endpoints',
      { hints: ['query the other endpoint yourself and join the answers, or send the data as VALUES'] },
    );
  }
}

/** A SPARQL query with more solutions than its caller may fetch at once (400). */
export class TooManyRowsError extends RegError {
  constructor(limit: number, setting: string) {
    super(
      'too-many-rows',
      `the query has more than ${limit} solutions, the most one query may return here (${setting})`,
      {
        extra: { limit, setting },
        hints: [`add LIMIT ${limit} (or less) and page with OFFSET, or narrow the query`],
      },
    );
  }
}

/** A caller already has as many queries under way as it may (429); `retryAfter` is in seconds. */
export class TooManyQueriesError extends RegError {
  readonly retryAfter: number;
  constructor(limit: number, retryAfter: number) {
    super(
      'too-many-queries',
      `you already have ${limit} SPARQL ${limit === 1 ? 'query' : 'queries'} under way, the most one caller may have (REG_SPARQL_MAX_CONCURRENT)`,
      {
        extra: { limit, retry_after: retryAfter },
        hints: ['wait for an answer before sending the next query'],
      },
    );
    this.retryAfter = retryAfter;
  }
}

/** The data directory is held by another process. */
export class DataDirLockedError extends RegError {
  constructor(dir: string, pid: number | undefined) {
    const holder = pid === undefined ? 'another process' : `process ${pid}`;
    super('data-dir-locked', `data directory ${dir} is in use by ${holder}`, {
      extra: pid === undefined ? {} : { pid },
      hints: ['stop the running registry first, or use GET /admin/dump against it for a live backup'],
    });
  }
}

/** A start-up setting is unusable; the detail is one sentence naming the variable. */
export class ConfigError extends RegError {
  constructor(detail: string) {
    super('config', detail);
  }
}

/** An unexpected failure; its detail is never sent to clients. */
export class InternalError extends RegError {
  constructor(detail: string, options?: RegErrorOptions) {
    super('internal', detail, options);
  }
}

/** Wraps anything thrown into a RegError, keeping registry errors as they are. */
export function asRegError(error: unknown): RegError {
  if (error instanceof RegError) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new InternalError(message, { cause: error });
}
