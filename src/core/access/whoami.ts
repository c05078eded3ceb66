import { isCurator } from './policy.js';
import type { CredentialKind, Principal, Role } from './principal.js';
import { registrableSoftware } from './registration-clients.js';
import type { Core } from '../core.js';

/** Who the caller is, as `GET /api/v1/whoami` reports it (contract §3.6). */
export interface Whoami {
  readonly authenticated: boolean;
  readonly credential: CredentialKind;
  readonly subject: string;
  readonly display_name: string | null;
  /** The deployment the credential acts as. */
  readonly instance: string | null;
  /**
   * The software whose deployments this credential may register through `PUT /api/v1/instances/self`: its bound
   * software when it carries `register:instance`, or the software listing its client in `registration_clients`.
   */
  readonly may_register_deployments_of: string | null;
  readonly issuer: string | null;
  readonly scopes: readonly string[];
  readonly roles: readonly Role[];
  readonly is_curator: boolean;
  readonly is_admin: boolean;
}

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
