import { Problem } from '../core/errors.js';
import { ApiError } from './client/errors.js';

/** Exit codes of every `reg` command, as documented in the man pages. */
export const EXIT = {
  ok: 0,
  failure: 1,
  usage: 2,
  config: 3,
  locked: 4,
  input: 5,
  unhealthy: 6,
  notFound: 7,
  refused: 8,
  unauthorized: 9,
  unreachable: 10,
  profile: 11,
  serverError: 12,
  ambiguous: 13,
  ciToken: 14,
} as const;

/** Descriptions of the exit codes, for the generated documentation. */
export const EXIT_DESCRIPTIONS: ReadonlyArray<readonly [number, string]> = [
  [EXIT.ok, 'success'],
  [EXIT.failure, 'the command failed (the message says why)'],
  [EXIT.usage, 'unknown command, flag or argument'],
  [EXIT.config, 'a REG_* setting was refused'],
  [EXIT.locked, 'the data directory is in use by another process'],
  [EXIT.input, 'the input file is malformed or unreadable; nothing was written'],
  [EXIT.unhealthy, 'the registry did not answer ready (healthcheck)'],
  [EXIT.notFound, 'the registry has no such record (HTTP 404, 410)'],
  [EXIT.refused, 'the registry refused the request or its data (HTTP 400, 409, 413, 415, 422 and other 4xx)'],
  [EXIT.unauthorized, 'the credential is missing, unknown or not allowed to do this (HTTP 401, 403)'],
  [EXIT.unreachable, 'the registry could not be reached or did not answer in time'],
  [
    EXIT.profile,
    'the connection profile is unusable (unknown profile, bad URL, unreadable token or config file)',
  ],
  [EXIT.serverError, 'the registry failed or asked to retry later (HTTP 5xx, 429)'],
  [
    EXIT.ambiguous,
    'a name given instead of an id names several records (they are listed on standard error): give an id',
  ],
  [
    EXIT.ciToken,
    "the CI job's OIDC identity token could not be had (GitHub Actions token endpoint, GitLab CI id_tokens variable)",
  ],
];

/** The exit code for an HTTP error status answered by a registry. */
export function exitCodeForStatus(status: number): number {
  if (status === 404 || status === 410) return EXIT.notFound;
  if (status === 401 || status === 403) return EXIT.unauthorized;
  if (status === 429 || status >= 500) return EXIT.serverError;
  if (status >= 400) return EXIT.refused;
  return EXIT.failure;
}

/** The exit code for an error thrown by a command. */
export function exitCodeFor(error: unknown): number {
  if (!(error instanceof Problem)) return EXIT.failure;
  // A name or key the client looked up that matched several records, whichever way it was found out.
  if (error.code === 'ambiguous-name') return EXIT.ambiguous;
  if (error instanceof ApiError) return exitCodeForStatus(error.status);
  switch (error.code) {
    case 'config':
      return EXIT.config;
    case 'data-dir-locked':
      return EXIT.locked;
    case 'malformed-input':
    case 'bad-request':
      return EXIT.input;
    case 'unavailable':
      return EXIT.unhealthy;
    case 'unreachable':
      return EXIT.unreachable;
    case 'profile':
      return EXIT.profile;
    case 'ci-token':
      return EXIT.ciToken;
    case 'usage':
      return EXIT.usage;
    case 'not-found':
      return EXIT.notFound;
    case 'ambiguous-name':
      return EXIT.ambiguous;
    default:
      return EXIT.failure;
  }
}
