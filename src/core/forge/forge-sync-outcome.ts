/**
 * Recording a sync run: the plan's writes validated together and committed with the run's bookkeeping and audit
 * entries in one transaction, or, when anything is refused or the forge failed, only the failure reported on the
 * record (`last_status: error`, `last_error`) with nothing else changed.
 */
import type { Principal } from '../access/principal.js';
import { mintIri } from '../records/ids.js';
import type { JsonObject } from '../records/mapper.js';
import { RELEASE, SOFTWARE } from '../records/specs.js';
import { appendAudit } from '../store/audit.js';
import { recordForgeSyncRun } from '../store/forge-cache.js';
import type { Core } from '../core.js';
import type { SyncPlan } from './forge-map.js';
import { withoutRegistryFields, type StoredRecord } from '../stored/records.js';
import type { SyncSettings } from './sync-settings.js';
import { checkRecords, commitRecords, type Act, type RecordWriteRequest } from '../stored/write-path.js';

/** Options of one sync run. */
export interface SyncRunOptions {
  readonly principal: Principal;
  readonly requestId?: string | undefined;
  readonly now?: () => Date;
  /** Awaited before every forge request, with the forge API and whether a token is sent (scheduler pacing). */
  readonly pace?: (apiBase: string, authenticated: boolean) => Promise<void>;
  /** Aborts the run (shutdown): nothing is recorded for an aborted run. */
  readonly signal?: AbortSignal;
}

/** How a run ended, as the record reports it. */
export interface SyncOutcome {
  readonly status: 'ok' | 'error';
  readonly changed: readonly string[];
  readonly error?: string;
}

/** Longest `last_error` kept on a record. */
const MAX_ERROR_LENGTH = 1000;

/** The writes of a plan: the software record with the run's bookkeeping, and one per release to register. */
function planWrites(
  core: Core,
  stored: StoredRecord,
  plan: SyncPlan,
  options: SyncRunOptions,
  at: string,
): { software: RecordWriteRequest; releases: RecordWriteRequest[] } {
  const contentChanged = plan.changed.some((field) => field !== 'releases');
  const { last_error: _error, ...sync } = stored.json.sync as JsonObject;
  const software: RecordWriteRequest = {
    spec: SOFTWARE,
    iri: stored.iri,
    candidate: {
      ...plan.candidate,
      ...(contentChanged ? { modified: at } : {}),
      sync: { ...sync, last_synced_at: at, last_status: 'ok', last_changed: plan.changed },
    },
    action: 'software.sync',
    act: runAct(options, at),
    // Only bookkeeping changes when the content does not: the stored record is not judged again then.
    validate: contentChanged,
  };
  const releases = plan.releases.map((input): RecordWriteRequest => ({
    spec: RELEASE,
    iri: mintIri(core.config.baseIri, RELEASE.path),
    // As createRelease builds one: the software from the registry, never from the input.
    candidate: {
      ...withoutRegistryFields(RELEASE.fields, input),
      software: stored.iri,
      created: at,
      modified: at,
    },
    action: 'release.create',
    act: runAct(options, at),
  }));
  return { software, releases };
}

/** Validates the plan's writes together and commits them with the run's bookkeeping, or commits none of them. */
export async function commitPlan(
  core: Core,
  stored: StoredRecord,
  settings: SyncSettings,
  plan: SyncPlan,
  options: SyncRunOptions,
  started: Date,
): Promise<SyncOutcome> {
  const { software, releases } = planWrites(core, stored, plan, options, started.toISOString());
  const writes = [software, ...releases];
  const outcomes = await checkRecords(
    core,
    writes.map((request, at) => ({ request, prefix: at === 0 ? '' : `releases[${at - 1}].` })),
  );
  const violations = outcomes.flatMap((outcome) =>
    outcome.results.filter((result) => result.severity === 'violation'),
  );
  if (violations.length > 0) {
    const message = `the repository's values were refused, nothing was changed: ${violations.map((v) => v.message).join('; ')}`;
    return recordSyncFailure(core, stored, settings, message, options, started);
  }
  const from = `from ${settings.source} ${settings.repo}`;
  const changes = plan.changed.length === 0 ? 'no change' : `changed ${plan.changed.join(', ')}`;
  await commitRecords(
    core,
    writes.map((request, at) => ({ request, quads: outcomes[at]?.quads ?? [] })),
    () => {
      audit(core, software, `ok ${from}: ${changes}`);
      for (const release of releases) {
        const version = release.candidate.version;
        audit(core, release, `${from}, version ${typeof version === 'string' ? version : ''}`);
      }
      recordForgeSyncRun(core.db, stored.iri, started, nextDue(core, started));
    },
    false,
  );
  return { status: 'ok', changed: plan.changed };
}

/** Reports a failed run on the record (nothing else changes) and when the next run is due. */
export async function recordSyncFailure(
  core: Core,
  stored: StoredRecord,
  settings: SyncSettings | undefined,
  message: string,
  options: SyncRunOptions,
  started: Date,
  until?: Date,
): Promise<SyncOutcome> {
  const error = message.length > MAX_ERROR_LENGTH ? `${message.slice(0, MAX_ERROR_LENGTH - 1)}…` : message;
  const at = started.toISOString();
  const request: RecordWriteRequest = {
    spec: SOFTWARE,
    iri: stored.iri,
    candidate: {
      ...stored.json,
      sync: {
        ...(stored.json.sync as JsonObject),
        last_synced_at: at,
        last_status: 'error',
        last_error: error,
        last_changed: [],
      },
    },
    action: 'software.sync',
    act: runAct(options, at),
    validate: false,
  };
  const [checked] = await checkRecords(core, [{ request }]);
  const from = settings === undefined ? '' : ` from ${settings.source} ${settings.repo}`;
  await commitRecords(
    core,
    [{ request, quads: checked?.quads ?? [] }],
    () => {
      audit(core, request, `error${from}: ${error}`);
      const due = until !== undefined && until > started ? until : nextDue(core, started);
      recordForgeSyncRun(core.db, stored.iri, started, due);
    },
    false,
  );
  return { status: 'error', changed: [], error };
}

function nextDue(core: Core, from: Date): Date {
  return new Date(from.getTime() + core.config.forgePollIntervalMs);
}

function audit(core: Core, request: RecordWriteRequest, detail: string): void {
  appendAudit(core.db, {
    actor: request.act.principal.subject,
    actorKind: request.act.principal.actorKind,
    action: request.action,
    target: request.iri,
    detail,
    requestId: request.act.requestId ?? null,
  });
}

/** The act of a sync run at `at`: its principal (a person's request, or the scheduler) and request id. */
function runAct(options: SyncRunOptions, at: string): Act {
  return { principal: options.principal, requestId: options.requestId, now: at };
}
