import { actsAs, isCurator, requireAuthenticated } from '../access/policy.js';
import type { Principal } from '../access/principal.js';
import { ForbiddenError, NotFoundError } from '../errors.js';
import { findSubscription, type SubscriptionRow } from '../store/subscriptions.js';
import type { Core } from '../core.js';

/**
 * Who may manage subscriptions: administrators, curators and the owning deployment's own credential (whatever
 * its scopes; a token with only `subscribe:artifacts` is enough). Anyone else naming a subscription id gets the
 * same 403 whether or not the id exists, so ids cannot be enumerated (spec §4 Subscriptions rule 1).
 */

const REFUSAL =
  'curator or admin role required, or the credential of the deployment that owns the subscription';

/** Refuses callers that may not manage the subscriptions of the deployment `instance`. */
export function requireSubscriptionManager(principal: Principal, instance: string): void {
  requireAuthenticated(principal);
  if (isCurator(principal) || actsAs(principal, instance)) return;
  throw new ForbiddenError(
    `curator or admin role required, or the credential of the deployment ${instance} itself`,
  );
}

/**
 * The subscription `id` if the caller may manage it. Unknown ids are 404 only for curators and
 * administrators, who may see every subscription anyway; for everyone else they are the same 403 as another
 * deployment's subscription.
 */
export function managedSubscription(core: Core, principal: Principal, id: string): SubscriptionRow {
  requireAuthenticated(principal);
  const row = /^[\w.-]{1,100}$/.test(id) ? findSubscription(core.db, id) : undefined;
  if (row === undefined) {
    if (isCurator(principal)) throw new NotFoundError(`no subscription ${id}`);
    throw new ForbiddenError(REFUSAL);
  }
  if (!isCurator(principal) && !actsAs(principal, row.instance_iri)) throw new ForbiddenError(REFUSAL);
  return row;
}
