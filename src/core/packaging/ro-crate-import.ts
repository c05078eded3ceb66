/**
 * `POST /api/v1/ro-crate`: a Workflow Run Crate (or Process Run Crate) recorded as the runs of the deployment
 * that sends it, through the advertising service, so that every rule of advertising applies: the deployment's
 * credential and scopes, validation, audit, subscriptions, and idempotency by run key (the `CreateAction`'s
 * `@id`) and artifact key (the data entity's `@id`). Everything the crate says is recorded, or the crate is
 * refused (422) naming each statement that cannot be, and nothing is written.
 */
import { requireActingDeployment } from '../access/acting-deployment.js';
import { requireAuthenticated, requireDeploymentScope } from '../access/policy.js';
import { ValidationError, type FieldError } from '../errors.js';
import { isObject } from '../records/json.js';
import type { JsonObject } from '../records/mapper.js';
import { RUN } from '../records/activity-specs.js';
import { INSTANCE, RELEASE, SOFTWARE } from '../records/specs.js';
import { readStored } from '../stored/records.js';
import type { Act } from '../stored/write-path.js';
import type { Core } from '../core.js';
import { advertiseRun, type AdvertisedPart } from '../provenance/advertise.js';
import { RefusedCrateError } from './crate-context.js';
import { readCrate, type CrateAction } from './crate-read.js';

/** What one `CreateAction` became. */
export interface ImportedAction {
  /** The action's `@id`, the run's key. */
  readonly action: string;
  readonly run: string;
  /** Whether this import recorded anything new for it (false when the crate was imported before). */
  readonly created: boolean;
  readonly used: string[];
  readonly generated: string[];
}

/** The answer to an imported crate: each action's run, in the order they were recorded. */
export interface CrateImportResult {
  readonly runs: ImportedAction[];
  readonly created: boolean;
}

/** Records a crate's metadata document as runs of the calling deployment (see the module comment). */
export async function importCrate(core: Core, act: Act, document: unknown): Promise<CrateImportResult> {
  const { principal } = act;
  requireAuthenticated(principal);
  const instance = await requireActingDeployment(core, principal);
  let crate;
  try {
    crate = readCrate(document, core.config.baseIri);
  } catch (error) {
    if (error instanceof RefusedCrateError) throw refusal(error.errors);
    throw error;
  }
  const needs = new Set(crate.actions.flatMap((action) => roles(action).map((part) => part.role)));
  for (const role of needs)
    requireDeploymentScope(principal, role === 'produced' ? 'advertise:produce' : 'advertise:consume');
  const errors = [
    ...(await checkAgainstDeployment(core, instance, crate.actions)),
    ...(await keyRunsOfThisRegistry(core, instance, crate.actions)),
  ];
  if (errors.length > 0) throw refusal(errors);
  // Every action is checked before any is written, so a crate is recorded whole or not at all.
  for (const action of crate.actions)
    await advertiseRun(core, act, action.run, roles(action), {
      auditAction: 'ro-crate.import',
      dryRun: true,
    });
  const runs: ImportedAction[] = [];
  for (const action of crate.actions) {
    const done = await advertiseRun(core, act, action.run, roles(action), { auditAction: 'ro-crate.import' });
    const of = (role: string) =>
      done.parts.filter((part) => part.role === role).flatMap((part) => part.artifacts);
    runs.push({
      action: action.id,
      run: done.run,
      created: done.created,
      used: of('consumed'),
      generated: of('produced'),
    });
  }
  return { runs, created: runs.some((run) => run.created) };
}

/** The parts of an action's advertisement: what it generated, then what it used (each only when present). */
function roles(action: CrateAction): AdvertisedPart[] {
  return [
    ...(action.generated.length > 0 || action.used.length === 0
      ? [{ role: 'produced' as const, artifacts: action.generated }]
      : []),
    ...(action.used.length > 0 ? [{ role: 'consumed' as const, artifacts: action.used }] : []),
  ];
}

function refusal(errors: readonly FieldError[]): ValidationError {
  const [first] = errors;
  const more = errors.length > 1 ? ` (and ${errors.length - 1} more)` : '';
  return new ValidationError(
    `the crate says what the registry cannot record: ${first?.message ?? ''}${more}`,
    {
      errors,
    },
  );
}

/**
 * A run is recorded against the deployment that sends it: an action's instrument must name that deployment's
 * software (its record, release, homepage or repository) at its release's version, and its agent must be the
 * deployment or its operator.
 */
async function checkAgainstDeployment(
  core: Core,
  instance: string,
  actions: readonly CrateAction[],
): Promise<FieldError[]> {
  const deployment = (await readStored(core, INSTANCE, instance))?.json ?? {};
  const softwareIri = typeof deployment.software === 'string' ? deployment.software : undefined;
  const software =
    softwareIri === undefined ? undefined : (await readStored(core, SOFTWARE, softwareIri))?.json;
  const releaseIri = typeof deployment.release === 'string' ? deployment.release : undefined;
  const release = releaseIri === undefined ? undefined : (await readStored(core, RELEASE, releaseIri))?.json;
  const names = new Set(
    [softwareIri, releaseIri, software?.homepage, software?.code_repository]
      .filter((value): value is string => typeof value === 'string')
      .map(comparable),
  );
  const version = typeof release?.version === 'string' ? release.version : undefined;
  const operator = isObject(deployment.operator) ? deployment.operator : undefined;
  const agents = new Set(
    [instance, operator?.iri, operator?.identifier].filter(
      (value): value is string => typeof value === 'string',
    ),
  );
  const errors: FieldError[] = [];
  for (const action of actions) {
    const { instrument, agent } = action;
    if (instrument !== undefined && !instrument.addresses.some((address) => names.has(comparable(address))))
      errors.push({
        field: instrument.field,
        message: `the instrument "${instrument.id}" of "${action.id}" is not the software this deployment runs (${softwareName(software, softwareIri)}); a run is recorded against the deployment that sends it`,
      });
    if (instrument?.version !== undefined && instrument.version !== version)
      errors.push({
        field: instrument.field,
        message: `the instrument "${instrument.id}" of "${action.id}" is version ${instrument.version}, but this deployment runs ${version === undefined ? 'no recorded release' : `release ${version}`}`,
      });
    if (agent !== undefined && !agents.has(agent.id))
      errors.push({
        field: agent.field,
        message: `the agent "${agent.id}" of "${action.id}" is neither this deployment nor its recorded operator`,
      });
  }
  return errors;
}

function softwareName(software: JsonObject | undefined, iri: string | undefined): string {
  if (typeof software?.name === 'string') return `${software.name} <${iri ?? ''}>`;
  return iri === undefined ? 'no software is recorded for it' : `<${iri}>`;
}

/** An address as compared: without a trailing slash, scheme and host in lower case. */
function comparable(address: string): string {
  return address.replace(/\/+$/, '').replace(/^[a-z]+:\/\/[^/]+/i, (head) => head.toLowerCase());
}

/**
 * An action whose `@id` is a run of this registry (a crate this registry exported, sent back) adds to that run:
 * it is found by the key it was advertised under. Only the deployment that ran it may, and only when it has a key.
 */
async function keyRunsOfThisRegistry(
  core: Core,
  instance: string,
  actions: CrateAction[],
): Promise<FieldError[]> {
  const errors: FieldError[] = [];
  const prefix = `${core.config.baseIri}/${RUN.path}/`;
  for (const action of actions) {
    if (!action.id.startsWith(prefix)) continue;
    const stored = (await readStored(core, RUN, action.id))?.json;
    const field = action.field;
    if (stored === undefined)
      errors.push({ field, message: `"${action.id}" names a run of this registry that it does not hold` });
    else if (stored.instance !== instance)
      errors.push({ field, message: `"${action.id}" is a run of another deployment` });
    else if (typeof stored.external_key !== 'string')
      errors.push({
        field,
        message: `"${action.id}" was advertised without a key, so a crate cannot add to it`,
      });
    else action.run.external_key = stored.external_key;
  }
  return errors;
}
