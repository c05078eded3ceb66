import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { UnauthorizedError } from '../errors.js';
import { INSTANCE, SOFTWARE } from '../records/specs.js';
import { readStored } from '../stored/records.js';
import { findApiTokenByPrefix, touchApiToken, type ApiTokenRow } from '../store/api-tokens.js';
import type { Core } from '../core.js';
import { rememberCheckedDeployment } from './acting-deployment.js';
import { principal, type Principal, type Role } from './principal.js';

/** The shape of a registry API token: `reg_<12 hex prefix>_<64 hex secret>`. */
export const API_TOKEN_PATTERN = /^reg_[0-9a-f]{12}_[0-9a-f]{64}$/;

/** `last_used_at` is written at most this often per token, so authenticating is not a write per request. */
export const LAST_USED_INTERVAL_MS = 60_000;

/** The subject of a software-bound token, which acts as no deployment. */
export const softwareTokenSubject = (id: string): string => `urn:reg:token:${id}`;

/** A freshly generated token and the two things kept of it. */
export interface GeneratedToken {
  readonly token: string;
  readonly prefix: string;
  readonly digest: Buffer;
}

/**
 * The stored form of a token: SHA-256 of the whole token. The secret part is 256 random bits, so a slow
 * password hash would add latency to every request and no protection (docs/decisions/0002-api-tokens.md).
 */
export function digestApiToken(token: string): Buffer {
  return createHash('sha256').update(token, 'utf8').digest();
}

/** Generates a token from the system's cryptographic random source. */
export function generateApiToken(): GeneratedToken {
  const prefix = randomBytes(6).toString('hex');
  const token = `reg_${prefix}_${randomBytes(32).toString('hex')}`;
  return { token, prefix, digest: digestApiToken(token) };
}

/** The scopes a token row carries. */
export function scopesOf(row: ApiTokenRow): string[] {
  const parsed = JSON.parse(row.scopes) as unknown;
  return Array.isArray(parsed) ? parsed.filter((scope): scope is string => typeof scope === 'string') : [];
}

/**
 * The scopes a deployment's token may use now: those it was issued with that the deployment's current
 * `allowed_scopes` still list (spec §5.6), or all of them when the deployment lists none. Read at every use, so
 * narrowing `allowed_scopes` takes effect at the next request, and widening it again gives back no more than the
 * token was issued with.
 */
export function withinAllowedScopes(scopes: readonly string[], allowed: unknown): string[] {
  const listed = Array.isArray(allowed) ? allowed.filter((scope) => typeof scope === 'string') : [];
  return listed.length === 0 ? [...scopes] : scopes.filter((scope) => listed.includes(scope));
}

const refused = (): UnauthorizedError => new UnauthorizedError('token is unknown, revoked or expired');

/** The row of a presented token when its digest matches and it is neither revoked nor expired at `now`. */
function liveRow(core: Core, token: string, now: Date): ApiTokenRow {
  const prefix = token.slice(4, 16);
  const row = findApiTokenByPrefix(core.db, prefix);
  // The prefix only finds the row; the secret is proven by comparing digests in constant time.
  if (row === undefined || !timingSafeEqual(digestApiToken(token), row.digest)) throw refused();
  if (row.revoked_at !== null) throw refused();
  if (row.expires_at !== null && Date.parse(row.expires_at) <= now.getTime()) throw refused();
  return row;
}

/**
 * Resolves a registry API token into its principal. Unknown, revoked and expired tokens are refused, and so are
 * tokens whose deployment or software is withdrawn. Nothing is cached: every request reads the token row and
 * its record, so a revocation or a withdrawal takes effect at the next request.
 */
export async function authenticateApiToken(core: Core, token: string, now = new Date()): Promise<Principal> {
  if (!API_TOKEN_PATTERN.test(token)) throw refused();
  const row = liveRow(core, token, now);
  const common = (scopes: readonly string[]) =>
    ({
      credential: 'local-token',
      actorKind: 'instance-token',
      displayName: row.label,
      scopes,
      roles: scopes.includes('admin:*') ? (['admin'] as Role[]) : [],
      tokenId: row.id,
    }) as const;
  let result: Principal;
  if (row.instance_iri !== null) {
    const instance = await readStored(core, INSTANCE, row.instance_iri);
    if (instance === undefined || instance.tombstoned) throw refused();
    const software = instance.json.software;
    result = principal({
      ...common(withinAllowedScopes(scopesOf(row), instance.json.allowed_scopes)),
      subject: row.instance_iri,
      instance: row.instance_iri,
      software: typeof software === 'string' ? software : null,
    });
    rememberCheckedDeployment(result, instance);
  } else {
    const software =
      row.software_iri === null ? undefined : await readStored(core, SOFTWARE, row.software_iri);
    if (software === undefined || software.tombstoned) throw refused();
    result = principal({
      ...common(scopesOf(row)),
      subject: softwareTokenSubject(row.id),
      software: software.iri,
    });
  }
  touchApiToken(
    core.db,
    row.id,
    now.toISOString(),
    new Date(now.getTime() - LAST_USED_INTERVAL_MS).toISOString(),
  );
  return result;
}
