import { isCurator, keepsOwnRecord, requireSoftwareBinding } from '../access/policy.js';
import type { Principal } from '../access/principal.js';
import { listedSoftwareOf, softwareListingClient } from '../access/registration-clients.js';
import { ForbiddenError, UnauthorizedError, ValidationError } from '../errors.js';
import { DCT, REG, SCHEMA } from '../ns.js';
import { expandId, mintIri } from '../records/ids.js';
import type { JsonObject } from '../records/mapper.js';
import { INSTANCE, SOFTWARE } from '../records/specs.js';
import type { Core } from '../core.js';
import { getInstance, instanceRules } from './instances.js';
import { createRecord, patchRecord, readStored, requireObject, requireStored } from '../stored/records.js';
import type { Act } from '../stored/write-path.js';
import { recordsLinkingTo, recordsStating, valueOf } from '../stored/stating.js';
import { announcedFields, announcementHistory, recordFirstAnnouncement } from '../deployment/history.js';

/** What a deployment may send when it announces itself. */
const ANNOUNCED = [
  'label',
  'description',
  'instance_key',
  'endpoint_url',
  'health_endpoint',
  'availability',
  'jurisdiction',
  'version',
  'software',
] as const;
/** The announced fields stored on the record as they are sent (validated with the record, as POST does). */
const STORED = [
  'label',
  'description',
  'endpoint_url',
  'health_endpoint',
  'availability',
  'jurisdiction',
] as const;

/** The outcome of an announcement: whether a record was created, and the record. */
export interface Announcement {
  readonly created: boolean;
  readonly record: JsonObject;
}

/**
 * `PUT /api/v1/instances/self`: a deployment registers itself on its first call and updates the same record on
 * later ones. The credential, never the payload, decides which software it is a deployment of; the record is
 * found again by the credential's subject and `instance_key`.
 */
export async function announceInstance(core: Core, act: Act, body: unknown): Promise<Announcement> {
  const { principal, now } = act;
  // A workload that binds to no deployment counts as anonymous everywhere else, but this is how it gets one.
  if (!principal.authenticated && principal.credential !== 'oidc-workload') throw new UnauthorizedError();
  if (
    principal.credential === 'root-token' ||
    principal.credential === 'oidc-human' ||
    isCurator(principal)
  ) {
    throw new ForbiddenError(
      'only a deployment may announce itself: use a software token, a deployment token or a workload identity',
    );
  }
  const input = requireObject(body);
  core.warnings.note(
    Object.keys(input)
      .filter((key) => !(ANNOUNCED as readonly string[]).includes(key))
      .map((key) => `${key} is not a field of an announcement and was ignored`),
  );
  const software = await softwareOf(core, principal, input);
  const keyed = typeof input.instance_key === 'string' && input.instance_key.trim() !== '';
  const instanceKey = keyed ? (input.instance_key as string) : principal.subject;
  const fields: JsonObject = {};
  for (const key of STORED) {
    if (input[key] !== undefined) fields[key] = input[key];
  }
  if (typeof input.version === 'string') {
    const release = await releaseOf(core, software, input.version);
    if (release !== undefined) fields.release = release;
  }
  const existing = await announcedRecord(core, principal, instanceKey, keyed);
  if (existing !== undefined) {
    const stored = await requireStored(core, INSTANCE, existing);
    const announced = { last_seen_at: now, ...announcedFields(input) };
    // A changed version is kept in the deployment's history, in the same commit as the edit.
    const history = announcementHistory(core, act, stored.iri, stored.json, {
      ...stored.json,
      ...fields,
      ...announced,
    });
    await patchRecord(core, INSTANCE, stored, fields, announced, {
      act,
      action: 'instance.announce',
      codeRules: instanceRules(core, stored.iri, stored.json),
      ...(history === undefined ? {} : { inCommit: history }),
    });
    return { created: false, record: await getInstance(core, existing) };
  }
  const iri = mintIri(core.config.baseIri, INSTANCE.path);
  const registry: JsonObject = {
    software,
    self_registered_by: principal.subject,
    instance_key: instanceKey,
    last_seen_at: now,
    ...(principal.issuer === null ? {} : { self_registered_issuer: principal.issuer }),
    ...announcedFields(input),
  };
  await createRecord(core, INSTANCE, iri, { label: instanceKey, ...fields }, registry, {
    act,
    action: 'instance.self-register',
    codeRules: instanceRules(core, iri),
  });
  recordFirstAnnouncement(core, act, iri, { ...fields, ...announcedFields(input) });
  return { created: true, record: await getInstance(core, iri) };
}

/** Decides the software of the announcing deployment from its credential; the body may only agree. */
async function softwareOf(core: Core, principal: Principal, input: JsonObject): Promise<string> {
  const named =
    typeof input.software === 'string'
      ? expandId(core.config.baseIri, SOFTWARE.path, input.software, 'software')
      : undefined;
  if (principal.software !== null) {
    await requireAnnouncing(core, principal, principal.software);
    if (named !== undefined) requireSoftwareBinding(principal, named);
    return principal.software;
  }
  if (principal.credential === 'oidc-workload' && principal.clientId !== null && principal.issuer !== null) {
    const listed = await softwareListingClient(core, principal.clientId, principal.issuer);
    if (listed.length === 1 && listed[0] !== undefined) {
      if (named !== undefined && named !== listed[0]) {
        throw new ForbiddenError(
          `this credential may register deployments of ${listed[0]} only, not of ${named}`,
        );
      }
      return listed[0];
    }
    if (listed.length > 1) {
      throw new ForbiddenError(
        `client ${principal.clientId} is listed in registration_clients of several software records (${listed.join(', ')}); a curator must keep it on one`,
      );
    }
    if (core.config.oidc.autoRegisterInstances && named !== undefined) {
      const software = await readStored(core, SOFTWARE, named);
      if (software === undefined || software.tombstoned) {
        throw new ValidationError(`software: <${named}> is not a software this registry holds`, {
          errors: [
            { field: 'software', message: `software: <${named}> is not a software this registry holds` },
          ],
        });
      }
      return named;
    }
  }
  const client = principal.clientId ?? principal.subject;
  throw new ForbiddenError(
    `${client} is not a deployment this registry knows. Either a curator creates the deployment with oidc_client_id "${client}" ` +
      `(POST /api/v1/instances), or issues a software token for it (POST /api/v1/software/{id}/tokens), or adds "${client}" to the ` +
      `software's registration_clients${core.config.oidc.autoRegisterInstances ? '' : ' (or the operator sets REG_OIDC_AUTO_REGISTER_INSTANCES=true)'}.`,
  );
}

/**
 * Refuses a credential bound to `software` that may not announce (spec §4: `register:instance`). A workload whose
 * client the software lists in `registration_clients`, or any workload while REG_OIDC_AUTO_REGISTER_INSTANCES is
 * on, holds that right from the listing; but a deployment's credential that may only manage subscriptions never
 * edits its record, announcing included.
 */
async function requireAnnouncing(core: Core, principal: Principal, software: string): Promise<void> {
  const scopes = principal.scopes;
  if (principal.instance !== null && !keepsOwnRecord(principal, principal.instance)) {
    throw new ForbiddenError(
      `credential lacks the register:instance scope (has: ${scopes.join(', ') || 'none'}): it manages its deployment's subscriptions only`,
    );
  }
  if (scopes.includes('register:instance')) return;
  if (principal.credential === 'oidc-workload') {
    if (core.config.oidc.autoRegisterInstances) return;
    if ((await listedSoftwareOf(core, principal)) === software) return;
  }
  throw new ForbiddenError(
    `credential lacks the register:instance scope (has: ${scopes.join(', ') || 'none'}); announcing through PUT /api/v1/instances/self needs it`,
  );
}

/**
 * The record this announcement updates, if any: the deployment the credential is bound to, unless the
 * credential registered that one itself and now sends another `instance_key` (another replica of it, which has
 * or gets a record of its own); else the record it announced before under `instanceKey`.
 */
async function announcedRecord(
  core: Core,
  principal: Principal,
  instanceKey: string,
  keyed: boolean,
): Promise<string | undefined> {
  if (principal.instance !== null) {
    if (!keyed) return principal.instance;
    const bound = await readStored(core, INSTANCE, principal.instance);
    if (bound?.json.self_registered_by !== principal.subject) return principal.instance;
  }
  return findAnnounced(core, principal.subject, instanceKey);
}

/** The record a credential announced before under `instanceKey`, if any. */
async function findAnnounced(core: Core, subject: string, instanceKey: string): Promise<string | undefined> {
  const announced = await recordsStating(core, REG('selfRegisteredBy'), subject, [REG('Instance')]);
  return announced.filter(({ iri, about }) => valueOf(about, iri, REG('instanceKey')) === instanceKey).at(-1)
    ?.iri;
}

/** The newest live release of `software` with this version string, if one is registered. */
async function releaseOf(core: Core, software: string, version: string): Promise<string | undefined> {
  const releases = await recordsLinkingTo(core, DCT('isVersionOf'), software, [REG('Release')], {
    predicate: SCHEMA('softwareVersion'),
    value: version,
  });
  return releases.at(-1)?.iri;
}
