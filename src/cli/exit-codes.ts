import { RegError } from '../core/errors.js';

/** Exit codes of every `reg` command, as documented in the man pages. */
export const EXIT = {
  ok: 0,
  failure: 1,
  usage: 2,
  config: 3,
  locked: 4,
  input: 5,
  unhealthy: 6,
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
];

/** The exit code for an error thrown by a command. */
export function exitCodeFor(error: unknown): number {
  if (!(error instanceof RegError)) return EXIT.failure;
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
    default:
      return EXIT.failure;
  }
}
