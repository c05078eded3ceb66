/**
 * Reading a deployment's history (`GET /api/v1/instances/{id}/history`, newest first, paged by cursor) and
 * recording what an announcement (`PUT /api/v1/instances/self` with `version`) changed, as the same entries
 * deployment events make.
 */
import { BadRequestError } from '../errors.js';
import { INSTANCE } from '../records/specs.js';
import type { JsonObject } from '../records/mapper.js';
import type { Core } from '../core.js';
import { parseLimit } from '../discovery/vocab-search.js';
import { iriOf, requireStored } from '../stored/records.js';
import type { Act } from '../stored/write-path.js';
import {
  countHistory,
  historyPage,
  keepHistoryEntry,
  type DeploymentState,
  type HistoryEntry,
  type HistoryPosition,
} from './history-store.js';

const DEFAULT_LIMIT = 25;
const MAX_LIMIT = 200;

/** What a deployment record says it runs. */
export function stateOf(json: JsonObject | undefined): DeploymentState {
  const text = (value: unknown) => (typeof value === 'string' ? value : null);
  return {
    release: text(json?.release),
    version: text(json?.version),
    environment: text(json?.environment),
    running: json !== undefined && (json.removed_at === undefined || json.removed_at === null),
  };
}

/** Whether two states differ in anything a deployment's history records. */
export function differs(a: DeploymentState, b: DeploymentState): boolean {
  return (
    a.release !== b.release ||
    a.version !== b.version ||
    a.environment !== b.environment ||
    a.running !== b.running
  );
}

/** One history entry as the API returns it. */
export function presentEntry(entry: HistoryEntry): JsonObject {
  const state = (s: DeploymentState): JsonObject => ({ ...s });
  return {
    id: entry.id,
    at: entry.at,
    received_at: entry.receivedAt,
    type: entry.eventType,
    event_id: entry.eventId,
    event_source: entry.eventSource,
    sender: entry.sender,
    previous: state(entry.previous),
    current: state(entry.current),
    artifact_id: entry.artifactId,
    changed: entry.changed,
    applied: entry.applied,
  };
}

const cursorOf = (entry: HistoryEntry): string =>
  Buffer.from(`${entry.at}|${entry.id}`, 'utf8').toString('base64url');

function positionOf(cursor: string | undefined): HistoryPosition | undefined {
  if (cursor === undefined || cursor === '') return undefined;
  const [at, id] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  const number = Number(id);
  if (at === undefined || at === '' || !Number.isSafeInteger(number)) {
    const message = 'cursor: not a cursor of this list; pass the next_cursor of the previous page';
    throw new BadRequestError(message, { errors: [{ field: 'cursor', message }] });
  }
  return { at, id: number };
}

/**
 * A deployment's history, newest first by the time things happened: `{items, total, next_cursor?}`. A withdrawn
 * deployment's history is still read; an unknown one is a 404.
 */
export async function listInstanceHistory(
  core: Core,
  id: string,
  params: { readonly limit?: string | undefined; readonly cursor?: string | undefined } = {},
): Promise<JsonObject> {
  const iri = (await requireStored(core, INSTANCE, iriOf(core, 'instance', id))).iri;
  const limit = parseLimit(params.limit, DEFAULT_LIMIT, MAX_LIMIT);
  const rows = historyPage(core.db, iri, limit + 1, positionOf(params.cursor));
  const items = rows.slice(0, limit);
  const last = items[items.length - 1];
  return {
    items: items.map(presentEntry),
    total: countHistory(core.db, iri),
    ...(rows.length > limit && last !== undefined ? { next_cursor: cursorOf(last) } : {}),
  };
}

/** The registry fields an announcement sets: the version it reports, and that the deployment runs. */
export function announcedFields(input: JsonObject): JsonObject {
  return typeof input.version === 'string' && input.version.trim() !== ''
    ? { version: input.version, removed_at: null }
    : { removed_at: null };
}

/** The entry an announcement makes when it changes what the deployment runs (else nothing is recorded). */
function announcementEntry(act: Act, iri: string, before: JsonObject | undefined, after: JsonObject) {
  const previous =
    before === undefined
      ? { release: null, version: null, environment: null, running: false }
      : stateOf(before);
  const current = stateOf(after);
  if (!differs(previous, current) || current.version === null) return undefined;
  return {
    instance: iri,
    at: act.now,
    receivedAt: act.now,
    eventType: 'announced',
    eventId: null,
    eventSource: null,
    sender: act.principal.subject,
    previous,
    current,
    artifactId: null,
    changed: true,
    applied: true,
  };
}

/**
 * The history work of an announcement that edits `before` into `after` (the stored fields merged with what it
 * sent): a function to run inside the edit's commit, or undefined when the announcement changes nothing it
 * records.
 */
export function announcementHistory(
  core: Core,
  act: Act,
  iri: string,
  before: JsonObject | undefined,
  after: JsonObject,
): (() => void) | undefined {
  const entry = announcementEntry(act, iri, before, after);
  return entry === undefined ? undefined : () => void keepHistoryEntry(core.db, entry);
}

/** Records the announcement that created the deployment `iri` with `fields`, when it reported a version. */
export function recordFirstAnnouncement(core: Core, act: Act, iri: string, fields: JsonObject): void {
  const keep = announcementHistory(core, act, iri, undefined, fields);
  if (keep !== undefined) core.db.transaction(keep);
}
