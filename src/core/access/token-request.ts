import { SCOPES } from './scopes.js';
import { BadRequestError } from '../errors.js';
import { isObject } from '../records/json.js';

/** A token request read and checked: scopes known and unique, label trimmed, expiry as an instant. */
export interface TokenRequest {
  readonly scopes: readonly string[];
  readonly label: string | null;
  readonly expiresAt: string | null;
}

const MEMBERS = ['scopes', 'label', 'expires_in'];
const MAX_LABEL = 200;
const UNIT_MS: Readonly<Record<string, number>> = {
  s: 1000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 604_800_000,
};
/** Ten years: a longer lifetime is almost certainly a typo, and "never" is said by leaving expires_in out. */
const MAX_LIFETIME_MS = 3650 * 86_400_000;

/** Milliseconds of a duration such as `90d`, `12h`, `30m`, `45s` or `2w`; anything else is a 400. */
export function parseExpiresIn(value: unknown): number {
  const match = typeof value === 'string' ? /^\s*([1-9][0-9]{0,9})\s*([smhdw])\s*$/.exec(value) : null;
  const amount = Number(match?.[1]);
  const unit = UNIT_MS[match?.[2] ?? ''];
  if (match === null || unit === undefined || amount * unit > MAX_LIFETIME_MS) {
    throw new BadRequestError(
      `expires_in must be a positive duration of at most 3650d, a number followed by s, m, h, d or w (e.g. 90d, 12h); got ${JSON.stringify(value)}`,
    );
  }
  return amount * unit;
}

function parseScopes(value: unknown, defaults: readonly string[]): string[] {
  if (value === undefined || value === null) return [...defaults];
  if (!Array.isArray(value) || !value.every((scope): scope is string => typeof scope === 'string'))
    throw new BadRequestError('scopes must be a list of scope names');
  const known: readonly string[] = SCOPES;
  const unknown = value.filter((scope) => !known.includes(scope));
  if (unknown.length > 0) {
    throw new BadRequestError(
      `unknown scope ${unknown.map((scope) => JSON.stringify(scope)).join(', ')}; known: ${SCOPES.join(', ')}`,
    );
  }
  return [...new Set(value)];
}

function parseLabel(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') throw new BadRequestError('label must be a string');
  const label = value.trim();
  if (label.length > MAX_LABEL) throw new BadRequestError(`label must be at most ${MAX_LABEL} characters`);
  return label === '' ? null : label;
}

/** Reads the body of a token request (`{scopes?, label?, expires_in?}`); an empty body takes the defaults. */
export function parseTokenRequest(body: unknown, defaults: readonly string[], now: Date): TokenRequest {
  const input = body === undefined || body === null ? {} : body;
  if (!isObject(input)) throw new BadRequestError('request body must be a JSON object');
  const extra = Object.keys(input).filter((key) => !MEMBERS.includes(key));
  if (extra.length > 0)
    throw new BadRequestError(
      `unknown member ${extra.join(', ')}; a token request has ${MEMBERS.join(', ')}`,
    );
  const expiresIn = input.expires_in;
  return {
    scopes: parseScopes(input.scopes, defaults),
    label: parseLabel(input.label),
    expiresAt:
      expiresIn === undefined || expiresIn === null
        ? null
        : new Date(now.getTime() + parseExpiresIn(expiresIn)).toISOString(),
  };
}
