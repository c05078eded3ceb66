import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root. */
export const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** The built CLI entry point (`npm run bench` builds dist/ first). */
export const BIN = path.join(ROOT, 'bin', 'run.js');
/** The base IRI of the benchmark registry; generated records live under it. */
export const BASE_IRI = 'http://bench.test';

let graphSettings: (dataDir: string) => Record<string, string> = () => ({});

/** Sets the REG_SPARQL_* settings every `regEnv` adds for a data directory (none: the embedded store). */
export function useGraphStore(settings: (dataDir: string) => Record<string, string>): void {
  graphSettings = settings;
}

/**
 * Rates far above any load the benchmark sends, so that the rate limiter counts every request (as it does in
 * production) and refuses none; `REG_RATE_LIMITS=off` in `extra` switches it off.
 */
const UNREFUSED_RATES: Readonly<Record<string, string>> = Object.fromEntries(
  ['READ', 'WRITE', 'SPARQL', 'FEDERATED', 'MCP', 'OUTBOUND', 'AUTH_FAIL'].flatMap((name) => [
    [`REG_RATE_LIMIT_${name}`, '100000000/min'],
    ...(name === 'AUTH_FAIL' ? [] : [[`REG_RATE_LIMIT_${name}_ANONYMOUS`, '100000000/min']]),
  ]),
);

/** The environment of a `reg` command on `dataDir`: only REG_* settings and PATH. */
export function regEnv(dataDir: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH ?? '',
    REG_BASE_IRI: BASE_IRI,
    REG_DATA_DIR: dataDir,
    REG_ROOT_TOKEN: 'bench-root-token-0123456789abcdef',
    REG_LISTEN: '127.0.0.1:0',
    REG_LOG_LEVEL: 'warn',
    ...UNREFUSED_RATES,
    ...graphSettings(dataDir),
    ...extra,
  };
}
