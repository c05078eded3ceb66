import { UnauthorizedError } from '../errors.js';
import type { Core } from '../core.js';
import type { Principal } from './principal.js';

/** The shape of a compact JWS: three base64url parts. */
export const JWT_PATTERN = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

/** Verifies an identity-provider token and resolves it into a person or a workload principal. */
export function authenticateJwt(core: Core, token: string): Promise<Principal> {
  void core;
  void token;
  return Promise.reject(new UnauthorizedError('no OIDC issuer is configured'));
}
