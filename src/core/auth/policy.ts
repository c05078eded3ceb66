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

/** Whether the principal acts as the deployment `instance`. */
export function actsAs(principal: Principal, instance: string): boolean {
  return principal.instance !== null && principal.instance === instance;
}

/** Refuses callers that are neither curators nor the deployment `instance` itself. */
export function requireCuratorOrSelf(principal: Principal, instance: string): void {
  requireAuthenticated(principal);
  if (isCurator(principal) || actsAs(principal, instance)) return;
  throw new ForbiddenError(`curator role required, or the credential of the deployment ${instance} itself`);
}

/** Refuses a credential bound to one software that names another (a software token, or a deployment's). */
export function requireSoftwareBinding(principal: Principal, software: string): void {
  if (principal.software === null || principal.software === software) return;
  throw new ForbiddenError(
    `this credential is bound to the software ${principal.software} and cannot act for ${software}`,
  );
}

/** Refuses callers that are not deployments acting with `scope` (the advertising and announcing rule). */
export function requireDeploymentScope(principal: Principal, scope: string): void {
  requireAuthenticated(principal);
  if (!principal.scopes.includes(scope)) {
    throw new ForbiddenError(
      `credential lacks the ${scope} scope (has: ${principal.scopes.join(', ') || 'none'})`,
    );
  }
}

/**
 * The read rule when anonymous reads are off: any valid credential reads, except a person holding no role at
 * all (a sign-in is not enough; the identity provider must grant at least `reader`).
 */
export function requireReader(principal: Principal): void {
  if (!principal.authenticated)
    throw new UnauthorizedError('this registry does not allow anonymous reads: send a credential');
  if (principal.credential === 'oidc-human' && principal.roles.length === 0)
    throw new ForbiddenError('reader role required');
}
