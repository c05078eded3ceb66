/**
 * Parsers for the value syntaxes of `REG_*` settings. Each returns the parsed value or throws a plain
 * `Error` whose message completes the sentence "REG_X <message>".
 */

const DURATION_UNITS: Readonly<Record<string, number>> = {
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
};

const SIZE_UNITS: Readonly<Record<string, number>> = {
  '': 1,
  b: 1,
  kb: 1000,
  mb: 1000 ** 2,
  gb: 1000 ** 3,
  kib: 1024,
  mib: 1024 ** 2,
  gib: 1024 ** 3,
  k: 1024,
  m: 1024 ** 2,
  g: 1024 ** 3,
};

/** Parses `true/false/1/0/yes/no/on/off`, case-insensitive. */
export function parseBoolean(raw: string): boolean {
  const value = raw.trim().toLowerCase();
  if (['true', '1', 'yes', 'on'].includes(value)) return true;
  if (['false', '0', 'no', 'off'].includes(value)) return false;
  throw new Error(`must be true or false, got "${raw}"`);
}

/** Parses a duration such as `30s`, `5m`, `6h`, `90d` or `250ms` into milliseconds; a bare number is seconds. */
export function parseDuration(raw: string): number {
  const match = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)?\s*$/i.exec(raw);
  if (match === null) throw new Error(`must be a duration such as 30s, 5m or 6h, got "${raw}"`);
  const unit = (match[2] ?? 's').toLowerCase();
  return Math.round(Number(match[1]) * (DURATION_UNITS[unit] ?? 1000));
}

/** Parses a byte size such as `2MiB`, `2 MiB`, `1MB` or `1048576`. */
export function parseByteSize(raw: string): number {
  const match = /^\s*(\d+(?:\.\d+)?)\s*([a-z]*)\s*$/i.exec(raw);
  const unit = match?.[2]?.toLowerCase() ?? '';
  const factor = SIZE_UNITS[unit];
  if (match === null || factor === undefined) {
    throw new Error(`must be a size such as 2MiB, 512KiB or 1048576, got "${raw}"`);
  }
  const bytes = Math.floor(Number(match[1]) * factor);
  if (bytes < 1) throw new Error(`must be at least 1 byte, got "${raw}"`);
  return bytes;
}

/** Parses a whole number within bounds. */
export function parseInteger(raw: string, min: number, max: number): number {
  const value = Number(raw.trim());
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new Error(`must be a whole number from ${min} to ${max}, got "${raw}"`);
  }
  return value;
}

/** Parses a comma- or whitespace-separated list, dropping empty entries. */
export function parseList(raw: string): string[] {
  return raw
    .split(/[\s,]+/)
    .map((entry) => entry.trim())
    .filter((entry) => entry.length > 0);
}

/** Parses an absolute http(s) URL and returns it without a trailing slash. */
export function parseHttpUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new Error(`must be an absolute http(s) URL, got "${raw}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new Error(`must be an http(s) URL, got "${raw}"`);
  }
  return url.href.replace(/\/+$/, '');
}

/** A listen address: host and port. */
export interface ListenAddress {
  readonly host: string;
  readonly port: number;
}

/** Parses `host:port`, `[v6]:port` or a bare port. */
export function parseListen(raw: string): ListenAddress {
  const value = raw.trim();
  const match = /^(?:\[([^\]]+)\]|([^:]+))?:?(\d+)$/.exec(value);
  const port = match === null ? NaN : Number(match[3]);
  if (match === null || !Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`must be host:port such as 0.0.0.0:8080, got "${raw}"`);
  }
  return { host: match[1] ?? match[2] ?? '0.0.0.0', port };
}

/**
 * Parses an OIDC issuer: an http(s) URL kept exactly as written (a token's `iss` must equal it byte for byte,
 * so a trailing slash is significant and never trimmed).
 */
export function parseIssuer(raw: string): string {
  const value = raw.trim();
  parseHttpUrl(value);
  return value;
}

/** The request classes the rate limiter counts separately, and the class of failed credentials. */
export const RATE_LIMIT_CLASSES = [
  'read',
  'write',
  'sparql',
  'federated',
  'mcp',
  'outbound',
  'auth_fail',
] as const;

/** One of the classes of `RATE_LIMIT_CLASSES`. */
export type RateLimitClass = (typeof RATE_LIMIT_CLASSES)[number];

/** One rate: `count` requests per `periodMs`, of which up to `burst` may come at once. */
export interface RateLimitRule {
  readonly count: number;
  readonly periodMs: number;
  readonly burst: number;
}

const RATE_PERIODS: Readonly<Record<string, number>> = {
  s: 1000,
  sec: 1000,
  min: 60_000,
  m: 60_000,
  h: 3_600_000,
};

/**
 * Parses a rate such as `600/min+100`: requests per period (`s`, `min` or `h`), then the burst, the most that may
 * come at once. Without a burst the whole count may come at once.
 */
export function parseRateLimit(raw: string): RateLimitRule {
  const match = /^\s*(\d+)\s*\/\s*([a-z]+)\s*(?:\+\s*(\d+))?\s*$/i.exec(raw);
  const periodMs = RATE_PERIODS[match?.[2]?.toLowerCase() ?? ''];
  if (match === null || periodMs === undefined) {
    throw new Error(
      `must be a rate such as 600/min+100 (requests per s, min or h, then + the burst), got "${raw}"`,
    );
  }
  const count = Number(match[1]);
  const burst = match[3] === undefined ? count : Number(match[3]);
  if (count < 1 || count > 1_000_000_000)
    throw new Error(`must allow from 1 to 1000000000 requests, got "${raw}"`);
  if (burst < 1 || burst > 1_000_000_000)
    throw new Error(`must have a burst from 1 to 1000000000, got "${raw}"`);
  return { count, periodMs, burst };
}

/**
 * Parses a comma-separated list of web origins (`https://app.example.org`, `http://localhost:5173`), each
 * scheme, host and port only, and returns them as browsers send them in `Origin`.
 */
export function parseOriginList(raw: string): string[] {
  return parseList(raw).map((entry) => {
    let url: URL;
    try {
      url = new URL(entry);
    } catch {
      throw new Error(`must list origins such as https://app.example.org, got "${entry}"`);
    }
    const bare = url.pathname === '/' && url.search === '' && url.hash === '' && url.username === '';
    if ((url.protocol !== 'http:' && url.protocol !== 'https:') || !bare) {
      throw new Error(
        `must list origins (scheme, host and port only) such as https://app.example.org, got "${entry}"`,
      );
    }
    return url.origin;
  });
}

/** The rates of one class: for callers with a credential, and for anonymous ones (per client address). */
export interface ClassRates {
  readonly authenticated: RateLimitRule;
  readonly anonymous: RateLimitRule;
}

/** What the rate limiter allows (`REG_RATE_LIMITS`, `REG_RATE_LIMIT_*`). */
export interface RateLimitSettings {
  readonly enabled: boolean;
  /** `auth_fail` counts per client address only: both of its rates are `REG_RATE_LIMIT_AUTH_FAIL`. */
  readonly classes: Readonly<Record<RateLimitClass, ClassRates>>;
}

/** The variable that sets a class's rate for callers with a credential; `_ANONYMOUS` follows it for the others. */
export function rateLimitVariable(limitClass: RateLimitClass): string {
  return `REG_RATE_LIMIT_${limitClass.toUpperCase()}`;
}

/** Gathers the parsed `REG_RATE_LIMIT*` settings (read through the settings table) into the limiter's settings. */
export function rateLimitSettings(need: <T>(name: string) => T): RateLimitSettings {
  const classes = {} as Record<RateLimitClass, ClassRates>;
  for (const limitClass of RATE_LIMIT_CLASSES) {
    const name = rateLimitVariable(limitClass);
    const authenticated = need<RateLimitRule>(name);
    const anonymous = limitClass === 'auth_fail' ? authenticated : need<RateLimitRule>(`${name}_ANONYMOUS`);
    classes[limitClass] = { authenticated, anonymous };
  }
  return { enabled: need<boolean>('REG_RATE_LIMITS'), classes };
}
