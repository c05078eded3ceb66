import { UnauthorizedError } from '../errors.js';
import type { Core } from '../core.js';
import { isAdminToken } from './admin-token.js';
import { authenticateApiToken, API_TOKEN_PATTERN } from './api-tokens.js';
import { authenticateJwt, JWT_PATTERN } from './oidc.js';
import { ANONYMOUS, isRootToken, ROOT_PRINCIPAL, withInstanceKey, type Principal } from './principal.js';

/**
 * Resolves an Authorization header into the principal it proves. No header is the anonymous caller; a
 * header that is present but not a valid credential is refused (401), never treated as anonymous. The
 * `instanceKey` presented beside it picks one of the deployments a shared credential registered itself.
 */
export async function resolveCredential(
  core: Core,
  header: string | undefined,
  instanceKey?: string,
  registers = true,
): Promise<Principal> {
  const who = await credentialOf(core, header, instanceKey?.trim() || undefined, registers);
  return withInstanceKey(who, instanceKey);
}

async function credentialOf(
  core: Core,
  header: string | undefined,
  instanceKey: string | undefined,
  registers: boolean,
): Promise<Principal> {
  if (header === undefined || header.trim() === '') return ANONYMOUS;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  const token = match?.[1];
  if (token === undefined)
    throw new UnauthorizedError('unrecognised credential format: send Authorization: Bearer <token>');
  if (isRootToken(core.config, token) || isAdminToken(core, token)) return ROOT_PRINCIPAL;
  if (API_TOKEN_PATTERN.test(token)) return authenticateApiToken(core, token);
  if (JWT_PATTERN.test(token)) return authenticateJwt(core, token, instanceKey, registers);
  throw new UnauthorizedError('token is unknown, revoked or expired');
}
