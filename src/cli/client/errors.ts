import type { FieldError, Problem as ProblemJson } from '../../api/index.js';
import { Problem, RegError } from '../../core/errors.js';

/** A problem+json answer (or any non-2xx answer) from the registry, kept with its HTTP status. */
export class ApiError extends Problem {
  /** The response body when it was a JSON object (the RFC 9457 problem), for `--json` output. */
  readonly problem: Partial<ProblemJson> | undefined;

  constructor(
    status: number,
    code: string,
    title: string,
    detail: string,
    options: {
      errors?: readonly FieldError[];
      hints?: readonly string[];
      problem?: Partial<ProblemJson>;
    } = {},
  ) {
    super(code, status, title, detail, {
      ...(options.errors === undefined ? {} : { errors: options.errors }),
      ...(options.hints === undefined ? {} : { hints: options.hints }),
    });
    this.message = detail === '' ? `${status} ${title}` : `${status} ${title}: ${detail}`;
    this.problem = options.problem;
  }
}

/** The registry could not be reached: connection refused, unknown host, TLS failure or no answer in time. */
export class UnreachableError extends RegError {
  constructor(detail: string, hints: readonly string[] = []) {
    super('unreachable', detail, { hints });
  }
}

/** The connection profile cannot be used: unknown profile, bad URL, unreadable token or config file. */
export class ProfileError extends RegError {
  constructor(detail: string, hints: readonly string[] = []) {
    super('profile', detail, { hints });
  }
}

/** The registry answered 2xx with something other than the JSON the command expects. */
export class UnexpectedResponseError extends RegError {
  constructor(detail: string, hints: readonly string[] = []) {
    super('unexpected-response', detail, { hints });
  }
}

/** The command line asks for something impossible, such as an update with nothing to change. */
export class UsageError extends RegError {
  constructor(detail: string, hints: readonly string[] = []) {
    super('usage', detail, { hints });
  }
}
