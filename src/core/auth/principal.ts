import { createHash, timingSafeEqual } from 'node:crypto';
import { UnauthorizedError } from '../errors.js';
import { ROOT_SUBJECT } from '../ns.js';
import type { ActorKind } from '../store/audit.js';
import { SCOPES } from './scopes.js';
import type { Config } from '../config/index.js';

/** A role a principal may hold. */
export type Role = 'reader' | 'curator' | 'admin';

/** Who is calling, resolved once per request from the presented credential. */
export interface Principal {
  readonly authenticated: boolean;
  readonly credential: 'none' | 'root-token';
  readonly actorKind: ActorKind;
  readonly subject: string;
  readonly displayName: string | null;
  readonly roles: readonly Role[];
  /** Scopes the credential carries (`register:software`, `advertise:produce`, ...). */
  readonly scopes: readonly string[];
}

/** The caller that presented no credential. */
export const ANONYMOUS: Principal = Object.freeze<Principal>({
  authenticated: false,
  credential: 'none',
  actorKind: 'anonymous',
  subject: 'anonymous',
  displayName: null,
  roles: [],
  scopes: [],
});

const ROOT: Principal = Object.freeze<Principal>({
  authenticated: true,
  credential: 'root-token',
  actorKind: 'root-token',
  subject: ROOT_SUBJECT,
  displayName: 'bootstrap admin',
  roles: ['admin'],
  scopes: [...SCOPES],
});

const digest = (value: string): Buffer => createHash('sha256').update(value).digest();

/**
 * Resolves an Authorization header value. No header is the anonymous caller; a header that is present but
 * not a known credential is refused rather than treated as anonymous.
 */
export function resolveCredential(config: Config, header: string | undefined): Principal {
  if (header === undefined || header.trim() === '') return ANONYMOUS;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (match?.[1] === undefined) {
    throw new UnauthorizedError('unrecognised credential format: send Authorization: Bearer <token>');
  }
  const root = config.secrets.rootToken;
  // Comparing digests keeps the comparison constant-time whatever the lengths.
  if (root !== undefined && timingSafeEqual(digest(match[1]), digest(root))) return ROOT;
  throw new UnauthorizedError('token is unknown, revoked or expired');
}
