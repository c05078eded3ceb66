import { ForbiddenError, UnauthorizedError } from '../errors.js';
import type { Principal } from './principal.js';

/**
 * The policy checks every service calls. They look only at the principal's roles and scopes, so new kinds of
 * credential (API tokens, OIDC) plug in by resolving to a principal, without touching the services.
 */

/** Scopes with which a deployment's own credential keeps its own record; anything less manages subscriptions only. */
export const RECORD_KEEPING_SCOPES: readonly string[] = [
  'register:instance',
  'advertise:produce',
  'advertise:consume',
];

/**
 * The sentence of a 401 for a workload token that verified but binds to no deployment: it is not refused for
 * being invalid, and says so, so that its operator looks at the binding instead of the token (when its issuer
 * has trusted publishers, at the nearest one and the claim that differed).
 */
function unboundWorkload(principal: Principal, refusal: string): string {
  if (principal.publisherMiss !== null) return `${refusal}: ${principal.publisherMiss}`;
  return `${refusal}: the client ${principal.clientId ?? principal.subject} of ${principal.issuer ?? 'its issuer'} is bound to no deployment of this registry, so its token counts as anonymous (a curator declares it as a deployment's oidc_client_id, or lists it in a software's registration_clients so that it can register itself through PUT /api/v1/instances/self)`;
}

/**
 * Refuses a caller without a credential (401). A workload token that verified but matched none of its issuer's
 * trusted publishers is refused with a 403 naming the nearest binding and the claim that differed.
 */
export function requireAuthenticated(principal: Principal): void {
  if (principal.authenticated) return;
  if (principal.publisherMiss !== null) throw new ForbiddenError(principal.publisherMiss);
  if (principal.credential === 'oidc-workload')
    throw new UnauthorizedError(unboundWorkload(principal, 'this endpoint needs a credential'));
  throw new UnauthorizedError();
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

/**
 * Whether the principal is the deployment `instance` with a scope that lets it keep its own record
 * (`register:instance` or an advertise scope). A credential of the deployment with only `subscribe:artifacts`
 * manages that deployment's subscriptions and nothing else (contract §2 row 28).
 */
export function keepsOwnRecord(principal: Principal, instance: string): boolean {
  return (
    actsAs(principal, instance) && principal.scopes.some((scope) => RECORD_KEEPING_SCOPES.includes(scope))
  );
}

/**
 * Refuses callers that are neither curators nor the deployment `instance` keeping its own record (editing it,
 * declaring its capability, managing its tokens).
 */
export function requireCuratorOrRecordKeeper(principal: Principal, instance: string): void {
  requireAuthenticated(principal);
  if (isCurator(principal) || keepsOwnRecord(principal, instance)) return;
  const own = actsAs(principal, instance)
    ? ` with ${RECORD_KEEPING_SCOPES.join(' or ')} (this credential has ${principal.scopes.join(', ') || 'no scope'}, so it manages the deployment's subscriptions only)`
    : '';
  throw new ForbiddenError(
    `curator role required, or the credential of the deployment ${instance} itself${own}`,
  );
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
    if (principal.instance === null && principal.publisherMiss !== null)
      throw new ForbiddenError(principal.publisherMiss);
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
  const anonymous = 'this registry does not allow anonymous reads';
  if (!principal.authenticated)
    throw new UnauthorizedError(
      principal.credential === 'oidc-workload'
        ? unboundWorkload(principal, anonymous)
        : `${anonymous}: send a credential`,
    );
  if (principal.credential === 'oidc-human' && principal.roles.length === 0)
    throw new ForbiddenError('reader role required');
}
