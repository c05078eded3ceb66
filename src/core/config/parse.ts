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
