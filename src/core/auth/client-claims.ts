import type { Core } from '../core.js';
import { ConflictError } from '../errors.js';
import { GRAPHS, REG } from '../ns.js';
import type { JsonObject } from '../records/mapper.js';
import { sparqlString } from '../services/sparql-text.js';
import { defaultIssuer } from './issuers.js';

/**
 * Refuses a deployment record that names an identity-provider client another live deployment already names at
 * the same issuer (an unpinned `oidc_client_id` is read against the default issuer). A client is one workload,
 * so it acts as one deployment: a second claim would leave its token bound to none (or, from another tenant,
 * take it over), so it is a 409 naming the field and the deployment holding the client.
 */
export async function requireUnclaimedClient(core: Core, iri: string, candidate: JsonObject): Promise<void> {
  const clientId = candidate.oidc_client_id;
  if (typeof clientId !== 'string' || clientId === '') return;
  const fallback = defaultIssuer(core.config);
  const issuer = typeof candidate.oidc_issuer === 'string' ? candidate.oidc_issuer : fallback;
  const rows = await core.graph.select(
    `SELECT ?i ?issuer WHERE { GRAPH <${GRAPHS.local}> {
       ?i a <${REG('Instance')}> ; <${REG('oidcClientId')}> ${sparqlString(clientId)} .
       OPTIONAL { ?i <${REG('oidcIssuer')}> ?issuer }
       FILTER(?i != <${iri}>)
       FILTER NOT EXISTS { ?i <${REG('tombstoned')}> true } } }`,
  );
  const holder = rows.find((row) => (row.issuer?.value ?? fallback) === issuer)?.i?.value;
  if (holder === undefined) return;
  const message = `oidc_client_id: the client ${JSON.stringify(clientId)}${issuer === undefined ? '' : ` of ${issuer}`} is already the credential of the deployment ${holder}; a client acts as one deployment, so withdraw that one or choose another client`;
  throw new ConflictError(message, {
    errors: [{ field: 'oidc_client_id', message }],
    extra: { field: 'oidc_client_id' },
  });
}
