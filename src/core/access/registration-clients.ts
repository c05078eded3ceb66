import type { Core } from '../core.js';
import { REG } from '../ns.js';
import { recordsStating, valueOf } from '../stored/stating.js';
import { defaultIssuer } from './issuers.js';
import type { Principal } from './principal.js';

/**
 * The live software records that list `clientId` in `registration_clients` for `issuer`: pinned by
 * `registration_issuer`, or read against the default issuer when unpinned (spec §4 Software rule 1).
 */
export async function softwareListingClient(core: Core, clientId: string, issuer: string): Promise<string[]> {
  const listing = await recordsStating(core, REG('registrationClient'), clientId, [REG('Software')]);
  const fallback = defaultIssuer(core.config);
  return listing
    .filter((found) => (valueOf(found.about, found.iri, REG('registrationIssuer')) ?? fallback) === issuer)
    .map((found) => found.iri);
}

/** The software whose `registration_clients` name this identity-provider workload, when exactly one does. */
export async function listedSoftwareOf(core: Core, principal: Principal): Promise<string | undefined> {
  if (principal.credential !== 'oidc-workload' || principal.clientId === null || principal.issuer === null)
    return undefined;
  const listed = await softwareListingClient(core, principal.clientId, principal.issuer);
  return listed.length === 1 ? listed[0] : undefined;
}

/**
 * The software whose deployments this credential may register through `PUT /api/v1/instances/self`: a
 * software-bound credential with `register:instance`, or a workload whose client a software lists in
 * `registration_clients` (the curator's listing is that workload's grant). Null when there is none, or more than
 * one, so it cannot register without a curator's help.
 */
export async function registrableSoftware(core: Core, principal: Principal): Promise<string | null> {
  if (principal.software !== null && principal.scopes.includes('register:instance'))
    return principal.software;
  const listed = await listedSoftwareOf(core, principal);
  if (listed === undefined) return null;
  return principal.software === null || principal.software === listed ? listed : null;
}
