import { ForbiddenError, UnauthorizedError } from '../errors.js';
import type { Principal } from './principal.js';

/**
 * The policy checks every service calls. They look only at the principal's roles and scopes, so new kinds of
 * credential (API tokens, OIDC) plug in by resolving to a principal, without touching the services.
 */

function requireAuthenticated(principal: Principal): void {
  if (!principal.authenticated) throw new UnauthorizedError();
}

/** Whether the principal holds the curator role (administrators are curators too). */
export function isCurator(principal: Principal): boolean {
  return principal.roles.includes('curator') || principal.roles.includes('admin');
}

/** Refuses callers that are not administrators. */
export function requireAdmin(principal: Principal): void {
  requireAuthenticated(principal);
  if (!principal.roles.includes('admin')) throw new ForbiddenError('admin role required');
}

/** Refuses callers that are neither curators nor administrators. */
export function requireCurator(principal: Principal): void {
  requireAuthenticated(principal);
  if (!isCurator(principal)) throw new ForbiddenError('curator role required');
}

/** Refuses callers that are neither curators nor hold `scope`. */
export function requireCuratorOrScope(principal: Principal, scope: string): void {
  requireAuthenticated(principal);
  if (isCurator(principal) || principal.scopes.includes(scope)) return;
  throw new ForbiddenError(
    `curator role or the ${scope} scope required (has: ${principal.scopes.join(', ') || 'none'})`,
  );
}
