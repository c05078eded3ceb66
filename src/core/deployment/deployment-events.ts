/**
 * `POST /api/v1/deployment-events`: a CDEvent changes what a deployment runs. The deployment is the one the
 * caller's credential acts as (a deployment token, a software token that registered it, or a trusted
 * publisher's workload token); a curator names it with `?instance=` or a service event's `subject.id`. The
 * change goes through the write path of a deployment edit (validated, audited) with its history entry in the
 * same commit; a replayed event (same `context.source` and `context.id` for the deployment) changes nothing.
 */
import { requireActingDeployment } from '../access/acting-deployment.js';
import { isCurator, RECORD_KEEPING_SCOPES, requireAuthenticated } from '../access/policy.js';
import type { Principal } from '../access/principal.js';
import { BadRequestError, ConflictError, ForbiddenError, TombstonedError } from '../errors.js';
import type { JsonObject } from '../records/mapper.js';
import { INSTANCE } from '../records/specs.js';
import type { Core } from '../core.js';
import { instanceRules } from '../catalogue/instances.js';
import { iriOf, patchRecord, readStored, requireStored, type StoredRecord } from '../stored/records.js';
import type { Act } from '../stored/write-path.js';
import type { DeploymentEvent } from './cdevent.js';
import { releaseOfEvent, type EventRelease } from './event-releases.js';
import { differs, presentEntry, stateOf } from './history.js';
import {
  appliedEntries,
  entryOfEvent,
  keepHistoryEntry,
  type DeploymentState,
  type NewHistoryEntry,
} from './history-store.js';
import { releaseHintOf } from './purl.js';

/** The answer to a deployment event. */
export interface EventAnswer {
  /** The deployment the event was applied to. */
  readonly instance: string;
  /** True when the event was received before: nothing changed, and `entry` is the one it made then. */
  readonly replayed: boolean;
  /** The history entry of the event. */
  readonly entry: JsonObject;
  /** The release the event named, when it named one the registry holds or registered for it. */
  readonly release?: { readonly iri: string; readonly version: string | null; readonly created: boolean };
}

/** The deployment a registry IRI or id in `value` names, if it names a stored one. */
async function namedDeployment(core: Core, value: string): Promise<string | undefined> {
  try {
    const stored = await readStored(core, INSTANCE, iriOf(core, 'instance', value));
    return stored?.iri;
  } catch {
    return undefined; // not an id or IRI at all: a service name of the sender's own
  }
}

const forbidden = (field: string, message: string) =>
  new ForbiddenError(`${field}: ${message}`, {
    errors: [{ field, message: `${field}: ${message}` }],
    extra: { field },
  });

/**
 * The deployment an event changes. A deployment's credential changes its own and may name no other (403 naming
 * the field that does); a curator names one with `instance` or a service event's `subject.id`.
 */
async function targetOf(
  core: Core,
  principal: Principal,
  event: DeploymentEvent,
  instance: string | undefined,
): Promise<string> {
  requireAuthenticated(principal);
  const bySubject = event.kind.startsWith('service.')
    ? await namedDeployment(core, event.subjectId)
    : undefined;
  const byQuery = instance === undefined ? undefined : iriOf(core, 'instance', instance);
  if (isCurator(principal) && principal.instance === null) {
    const target = byQuery ?? bySubject;
    if (target !== undefined) return target;
    const message =
      'instance: name the deployment this event is about, with ?instance=<id or IRI> or, for a service event, its IRI as subject.id';
    throw new BadRequestError(message, {
      errors: [{ field: 'instance', message }],
      extra: { field: 'instance' },
    });
  }
  const own = await requireActingDeployment(core, principal);
  if (!principal.scopes.some((scope) => RECORD_KEEPING_SCOPES.includes(scope)))
    throw new ForbiddenError(
      `credential lacks ${RECORD_KEEPING_SCOPES.join(' or ')} (has: ${principal.scopes.join(', ') || 'none'}): it manages its deployment's subscriptions only`,
    );
  if (byQuery !== undefined && byQuery !== own)
    throw forbidden('instance', `this credential acts as ${own} and may not send events about ${byQuery}`);
  if (bySubject !== undefined && bySubject !== own)
    throw forbidden('subject.id', `names the deployment ${bySubject}, but this credential acts as ${own}`);
  return own;
}

/** What the deployment runs after the event, and the release it named. */
interface Outcome {
  readonly next: DeploymentState;
  readonly release: EventRelease | undefined;
}

/** The state an event of a service deploying something leads to. */
async function deployedState(
  core: Core,
  act: Act,
  stored: StoredRecord,
  event: DeploymentEvent,
  current: DeploymentState,
): Promise<Outcome> {
  const purl = event.purl;
  if (purl === undefined) return rolledBackState(core, event, current, stored.iri);
  const software = stored.json.software as string;
  const hint = releaseHintOf(purl);
  const release = await releaseOfEvent(core, act, software, purl, hint, false);
  return {
    next: {
      release: release?.iri ?? null,
      version: hint.version ?? release?.version ?? null,
      environment: event.environment ?? current.environment,
      running: true,
    },
    release,
  };
}

/** A rollback that names no artifact restores the most recent release in the history other than the current one. */
function rolledBackState(
  core: Core,
  event: DeploymentEvent,
  current: DeploymentState,
  instance: string,
): Outcome {
  const earlier = appliedEntries(core.db, instance, 200).find(
    (entry) => entry.current.release !== current.release || entry.current.version !== current.version,
  );
  if (earlier === undefined)
    throw new ConflictError(
      'subject.content.artifactId: the history holds no earlier release to roll back to; name the artifact that runs now',
      {
        errors: [
          {
            field: 'subject.content.artifactId',
            message:
              'subject.content.artifactId: missing, and the history holds no earlier release to roll back to',
          },
        ],
        extra: { field: 'subject.content.artifactId' },
      },
    );
  const release = earlier.current.release;
  return {
    next: {
      release,
      version: earlier.current.version,
      environment: event.environment ?? current.environment,
      running: true,
    },
    release:
      release === null ? undefined : { iri: release, version: earlier.current.version, created: false },
  };
}

/** The state the event leads to from `current`. */
async function outcomeOf(
  core: Core,
  act: Act,
  stored: StoredRecord,
  event: DeploymentEvent,
  current: DeploymentState,
): Promise<Outcome> {
  const software = stored.json.software as string;
  switch (event.kind) {
    case 'service.deployed':
    case 'service.upgraded':
    case 'service.rolledback':
      return deployedState(core, act, stored, event, current);
    case 'service.removed':
      return {
        next: { ...current, environment: event.environment ?? current.environment, running: false },
        release: undefined,
      };
    case 'environment.created':
    case 'environment.modified':
      return { next: { ...current, environment: event.subjectId }, release: undefined };
    case 'environment.deleted': {
      const here = current.environment === null || current.environment === event.subjectId;
      return { next: here ? { ...current, running: false } : current, release: undefined };
    }
    case 'artifact.published': {
      const purl = event.purl;
      const hint = purl === undefined ? { version: undefined, digest: undefined } : releaseHintOf(purl);
      if (purl === undefined || (hint.version === undefined && hint.digest === undefined)) {
        const message =
          'subject.id: the package URL names no version or digest, so no release can be told from it';
        throw new BadRequestError(message, {
          errors: [{ field: 'subject.id', message }],
          extra: { field: 'subject.id' },
        });
      }
      return { next: current, release: await releaseOfEvent(core, act, software, purl, hint, true) };
    }
  }
}

/** The record fields a state sets (null clears). */
const fieldsOf = (
  state: DeploymentState,
  event: DeploymentEvent,
  at: string,
  before: JsonObject,
): JsonObject => ({
  release: state.release,
  version: state.version,
  environment: state.environment,
  artifact_id: event.artifactId ?? (before.artifact_id === undefined ? null : before.artifact_id),
  removed_at: state.running ? null : typeof before.removed_at === 'string' ? before.removed_at : at,
});

/**
 * Applies a deployment event read by `readDeploymentEvent`. An event older than the newest event applied to the
 * deployment is kept in its history but changes nothing (`applied: false`); an event that repeats the state is
 * kept with `changed: false`. `instance` is the deployment a curator names.
 */
export async function applyDeploymentEvent(
  core: Core,
  act: Act,
  event: DeploymentEvent,
  instance?: string,
): Promise<EventAnswer> {
  const iri = await targetOf(core, act.principal, event, instance);
  return core.locks.run(`deployment-events\n${iri}`, async () => {
    const replay = entryOfEvent(core.db, iri, event.source, event.id);
    if (replay !== undefined) return { instance: iri, replayed: true, entry: presentEntry(replay) };
    const stored = await requireStored(core, INSTANCE, iri);
    if (stored.tombstoned) throw new TombstonedError(`${iri} is withdrawn; it takes no deployment events`);
    const current = stateOf(stored.json);
    const { next, release } = await outcomeOf(core, act, stored, event, current);
    // Events are ordered among themselves by their own time; an announcement, dated on receipt, never makes an
    // event that happened just before it count as late.
    const newest = appliedEntries(core.db, iri, 1, true)[0];
    const applied = newest === undefined || event.timestamp >= newest.at;
    const changed = applied && differs(current, next);
    const entry: NewHistoryEntry = {
      instance: iri,
      at: event.timestamp,
      receivedAt: act.now,
      eventType: event.kind,
      eventId: event.id,
      eventSource: event.source,
      sender: act.principal.subject,
      previous: current,
      current: applied ? next : current,
      artifactId: event.artifactId ?? null,
      changed,
      applied,
      event: event.cdevent,
    };
    let id = 0;
    const keep = () => {
      id = keepHistoryEntry(core.db, entry);
    };
    if (changed) {
      await patchRecord(core, INSTANCE, stored, {}, fieldsOf(next, event, event.timestamp, stored.json), {
        act,
        action: 'instance.deployment-event',
        codeRules: instanceRules(core, stored.iri, stored.json),
        inCommit: keep,
      });
    } else {
      core.db.transaction(keep);
    }
    return {
      instance: iri,
      replayed: false,
      entry: presentEntry({ ...entry, id }),
      ...(release === undefined ? {} : { release }),
    };
  });
}
