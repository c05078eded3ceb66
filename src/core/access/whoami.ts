import { isCurator } from './policy.js';
import type { Principal } from './principal.js';
import { registrableSoftware } from './registration-clients.js';
import type { Core } from '../core.js';
import type { Whoami } from '../../api/operations.js';

/** Who the caller is, as `GET /api/v1/whoami` reports it (contract §3.6): declared in `src/api`. */
export type { Whoami };

/**
 * Describes the principal of a request; anyone may ask, an anonymous caller included. A workload token that
 * binds to no deployment reads `authenticated: false`: that is how every other endpoint treats it.
 */
export async function whoami(core: Core, principal: Principal): Promise<Whoami> {
  return {
    authenticated: principal.authenticated,
    credential: principal.credential,
    subject: principal.subject,
    display_name: principal.displayName,
    instance: principal.instance,
    may_register_deployments_of: await registrableSoftware(core, principal),
    issuer: principal.issuer,
    scopes: [...principal.scopes],
    roles: [...principal.roles],
    is_curator: isCurator(principal),
    is_admin: principal.roles.includes('admin'),
  };
}
