import type { Config } from '../config/index.js';

/**
 * The issuer a binding that names none (an `oidc_client_id` without `oidc_issuer`, `registration_clients`
 * without `registration_issuer`) is read against: the primary issuer, else the sole workload issuer.
 */
export function defaultIssuer(config: Config): string | undefined {
  return (
    config.oidc.issuer ??
    (config.oidc.workloadIssuers.length === 1 ? config.oidc.workloadIssuers[0] : undefined)
  );
}
