import {
  isCurator,
  keepsOwnRecord,
  requireCuratorOrScope,
  requireDeploymentScope,
  requireReader,
} from '../../core/access/policy.js';
import type { Principal } from '../../core/access/principal.js';
import type { Config } from '../../core/config/index.js';

/**
 * Who is shown which tools, judged by the same policy checks the services call: a tool is offered when the check
 * its API call makes would let the caller through. The API still decides every call.
 */

/** Whether a policy check lets the principal through. */
function passes(check: () => void): boolean {
  try {
    check();
    return true;
  } catch {
    return false;
  }
}

/** Anyone who may read the registry: everyone when reads are public, else the callers the read rule admits. */
export function mayRead(principal: Principal, config: Config): boolean {
  return config.publicRead || passes(() => requireReader(principal));
}

/** Readers who may query /sparql: with a credential, or anonymous when anonymous queries are allowed. */
export function mayQuery(principal: Principal, config: Config): boolean {
  return mayRead(principal, config) && (config.sparqlPublic || principal.authenticated);
}

/** Curators, and credentials holding `scope` (the rule of registering software, releases, types, deployments). */
export function curatorOrScope(scope: string): (principal: Principal) => boolean {
  return (principal) => passes(() => requireCuratorOrScope(principal, scope));
}

/** Curators and administrators (edits of the catalogue). */
export function curator(principal: Principal): boolean {
  return isCurator(principal);
}

/** Deployments acting with `scope` (advertising). */
export function deploymentWith(scope: string): (principal: Principal) => boolean {
  return (principal) => passes(() => requireDeploymentScope(principal, scope));
}

/** Curators, and a deployment keeping its own record (declaring its capability). */
export function curatorOrRecordKeeper(principal: Principal): boolean {
  return (
    isCurator(principal) || (principal.instance !== null && keepsOwnRecord(principal, principal.instance))
  );
}

/** Curators, and a deployment's own credential (managing that deployment's subscriptions). */
export function curatorOrDeployment(principal: Principal): boolean {
  return isCurator(principal) || (principal.authenticated && principal.instance !== null);
}
