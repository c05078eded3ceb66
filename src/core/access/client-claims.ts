import type { Core } from '../core.js';
import { ConflictError } from '../errors.js';
import { REG } from '../ns.js';
import type { JsonObject } from '../records/mapper.js';
import { recordsStating, valueOf } from '../stored/stating.js';
import { defaultIssuer } from './issuers.js';
import { softwareListingClient } from './registration-clients.js';

/**
 * Refuses a deployment record `iri` that names an identity-provider client which already belongs elsewhere at
 * the same issuer (an unpinned `oidc_client_id` is read against the default issuer): another live deployment
 * declares it or registered itself with it, or another software lists it in `registration_clients`. A client
 * is one workload acting as one deployment; a second claim would leave its token bound to none or, from another
 * tenant, take it over. The refusal is a 409 naming the field and where the client belongs.
 */
export async function requireUnclaimedClient(core: Core, iri: string, candidate: JsonObject): Promise<void> {
  const clientId = candidate.oidc_client_id;
  if (typeof clientId !== 'string' || clientId === '') return;
  const issuer =
    typeof candidate.oidc_issuer === 'string' ? candidate.oidc_issuer : defaultIssuer(core.config);
  const software = typeof candidate.software === 'string' ? candidate.software : undefined;
  const holder = await claimedBy(core, { iri, software }, clientId, issuer);
  if (holder === undefined) return;
  const message = `oidc_client_id: the client ${JSON.stringify(clientId)}${issuer === undefined ? '' : ` of ${issuer}`} ${holder}; a client acts as one deployment, so withdraw that one or choose another client`;
  throw new ConflictError(message, {
    errors: [{ field: 'oidc_client_id', message }],
    extra: { field: 'oidc_client_id' },
  });
}

/** Where the client already belongs, as the end of a sentence, or undefined when it is free for `record`. */
async function claimedBy(
  core: Core,
  record: { readonly iri: string; readonly software: string | undefined },
  clientId: string,
  issuer: string | undefined,
): Promise<string | undefined> {
  const { iri } = record;
  const fallback = defaultIssuer(core.config);
  const others = async (predicate: string, value: string, issuerPredicate: string) =>
    (await recordsStating(core, predicate, value, [REG('Instance')]))
      .filter((found) => found.iri !== iri)
      .map((found) => ({ i: found.iri, issuer: valueOf(found.about, found.iri, issuerPredicate) }));
  const declared = await others(REG('oidcClientId'), clientId, REG('oidcIssuer'));
  const declarer = declared.find((row) => (row.issuer ?? fallback) === issuer)?.i;
  if (declarer !== undefined) return `is already the credential of the deployment ${declarer}`;
  if (issuer === undefined) return undefined;
  const registered = await others(
    REG('selfRegisteredBy'),
    `${issuer}|${clientId}`,
    REG('selfRegisteredIssuer'),
  );
  const registrant = registered.find((row) => row.issuer === issuer)?.i;
  if (registrant !== undefined) return `already registered the deployment ${registrant} itself`;
  const lister = (await softwareListingClient(core, clientId, issuer)).find((sw) => sw !== record.software);
  return lister === undefined ? undefined : `is listed in the registration_clients of the software ${lister}`;
}
