import type { Core } from '../core.js';
import { ForbiddenError } from '../errors.js';
import { REG } from '../ns.js';
import { recordsStating, valueOf } from '../stored/stating.js';
import { INSTANCE } from '../records/specs.js';
import { readStored, type StoredRecord } from '../stored/records.js';
import type { Principal } from './principal.js';

/**
 * The deployment record a principal's credential was checked against when the request was authenticated. A
 * principal lives for one request, so an act that needs its deployment's fields (its release, its software) reads
 * them from here instead of asking the store again (each read is a round trip to an external store).
 */
const checkedAgainst = new WeakMap<Principal, StoredRecord>();

/** Remembers the deployment record `principal` was authenticated against, for the rest of its request. */
export function rememberCheckedDeployment(principal: Principal, record: StoredRecord): void {
  checkedAgainst.set(principal, record);
}

/** The record of deployment `iri`: the one `principal` was authenticated against when it is that one, else read. */
export async function readActingDeployment(
  core: Core,
  principal: Principal,
  iri: string,
): Promise<StoredRecord | undefined> {
  const checked = checkedAgainst.get(principal);
  return checked?.iri === iri ? checked : readStored(core, INSTANCE, iri);
}

/** The request header that names, by its `instance_key`, which of a shared credential's deployments is calling. */
export const INSTANCE_KEY_HEADER = 'X-Reg-Instance-Key';

/** A live deployment a shared credential registered through `PUT /api/v1/instances/self`. */
interface Registered {
  readonly iri: string;
  readonly key: string | undefined;
}

const notADeployment = (): ForbiddenError =>
  new ForbiddenError(
    'this credential does not act as an Instance; advertise with a deployment token or workload identity',
  );

/**
 * The deployment an advertising credential acts as (spec §4 Advertising rule 1): the one it is bound to; for a
 * software token, the one deployment it registered itself, or the one whose `instance_key` the caller presents
 * in X-Reg-Instance-Key. Several candidates and no key is a 403 naming them: the registry never guesses. The body
 * of a request never takes part.
 */
export async function requireActingDeployment(core: Core, principal: Principal): Promise<string> {
  if (principal.instance !== null) return principal.instance;
  if (principal.publisherMiss !== null) throw new ForbiddenError(principal.publisherMiss);
  if (principal.credential !== 'local-token' || principal.software === null) throw notADeployment();
  const registered = await registeredBy(core, principal.subject);
  const listing = registered.map((row) => `${row.iri} (instance_key "${row.key ?? ''}")`).join(', ');
  const key = principal.instanceKey;
  if (key !== null) {
    const chosen = registered.find((row) => row.key === key);
    if (chosen !== undefined) return chosen.iri;
    throw new ForbiddenError(
      `no deployment registered with this software token has the instance_key ${JSON.stringify(key)} sent in ${INSTANCE_KEY_HEADER}; ` +
        (registered.length === 0
          ? 'it has registered none yet: announce the deployment with PUT /api/v1/instances/self first'
          : `its deployments are ${listing}`),
    );
  }
  const [only, ...others] = registered;
  if (only !== undefined && others.length === 0) return only.iri;
  if (only === undefined) {
    throw new ForbiddenError(
      'this software token acts as no deployment yet: announce the deployment with PUT /api/v1/instances/self first, then advertise with the same token',
    );
  }
  throw new ForbiddenError(
    `this software token registered several deployments, ${listing}; choose the calling one by sending its instance_key in the ${INSTANCE_KEY_HEADER} request header (reg advertise --instance-key, or REG_INSTANCE_KEY)`,
  );
}

/** The live deployments whose record says `subject` registered them, oldest first, with their instance keys. */
async function registeredBy(core: Core, subject: string): Promise<Registered[]> {
  const found = await recordsStating(core, REG('selfRegisteredBy'), subject, [REG('Instance')]);
  return found.map((record) => ({
    iri: record.iri,
    key: valueOf(record.about, record.iri, REG('instanceKey')),
  }));
}
