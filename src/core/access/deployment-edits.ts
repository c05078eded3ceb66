import { ForbiddenError } from '../errors.js';
import type { JsonObject } from '../records/mapper.js';
import { actsAs, isCurator, requireSoftwareBinding } from './policy.js';
import type { Principal } from './principal.js';

/** Fields only a curator may change: a deployment must not widen its own rights or move to another software. */
const CURATED_FIELDS = [
  'software',
  'allowed_scopes',
  'oidc_client_id',
  'oidc_issuer',
  'trusted_publishers',
] as const;

/**
 * A software-bound credential registers deployments of its own software only: the software defaults to it, and
 * naming another is refused (403), never silently replaced.
 */
export function withBoundSoftware(principal: Principal, input: JsonObject): JsonObject {
  if (principal.software === null) return input;
  if (input.software === undefined || input.software === null)
    return { ...input, software: principal.software };
  if (typeof input.software === 'string') requireSoftwareBinding(principal, input.software);
  return input;
}

/**
 * Refuses edits a caller may not make of the deployment `iri` whose stored fields are `stored`: a self-registered
 * record is kept by the deployment itself (an edit by anyone else would be overwritten at its next announcement;
 * curators may still withdraw it), and a deployment editing its own record may not change the fields that decide
 * who it is and what it may do.
 */
export function refuseEditOf(principal: Principal, iri: string, stored: JsonObject, patch: JsonObject): void {
  const self = actsAs(principal, iri);
  if (stored.self_registered_by !== undefined && !self) {
    throw new ForbiddenError(
      `${iri} registered itself and keeps its record through PUT /api/v1/instances/self; an edit here would be overwritten at its next announcement (it can still be withdrawn)`,
    );
  }
  if (!self || isCurator(principal)) return;
  for (const field of CURATED_FIELDS) {
    if (field in patch && JSON.stringify(patch[field]) !== JSON.stringify(stored[field])) {
      throw new ForbiddenError(`${field}: a deployment cannot change this on its own record; ask a curator`);
    }
  }
}
