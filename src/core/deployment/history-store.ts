/**
 * The dated history of each deployment (migration 18, table `deployment_history`): one row per deployment event
 * or announcement, with what the deployment ran before and after it. A row's `at` is the event's own time, so
 * history reads in the order things happened, whatever order the events arrived in.
 */
import type { Database } from '../store/database.js';

/** What a deployment runs at one moment. */
export interface DeploymentState {
  readonly release: string | null;
  readonly version: string | null;
  readonly environment: string | null;
  readonly running: boolean;
}

/** One history entry as stored. */
export interface HistoryEntry {
  readonly id: number;
  readonly instance: string;
  /** When it happened: the event's timestamp, or the time of the announcement. */
  readonly at: string;
  readonly receivedAt: string;
  /** The CDEvents kind (`service.deployed`, …) or `announced` for `PUT /api/v1/instances/self`. */
  readonly eventType: string;
  readonly eventId: string | null;
  readonly eventSource: string | null;
  /** The subject of the credential that sent it. */
  readonly sender: string;
  readonly previous: DeploymentState;
  readonly current: DeploymentState;
  readonly artifactId: string | null;
  /** Whether the record changed (false for an event that repeated the state, or one older than the state). */
  readonly changed: boolean;
  /** False for an event older than the newest applied one: kept in the history, but the record is left as it is. */
  readonly applied: boolean;
}

/** An entry to keep (its id is given when it is kept). */
export type NewHistoryEntry = Omit<HistoryEntry, 'id'> & { readonly event?: unknown };

interface Row {
  id: number;
  instance: string;
  at: string;
  received_at: string;
  event_type: string;
  event_id: string | null;
  event_source: string | null;
  sender: string;
  previous_release: string | null;
  release: string | null;
  previous_version: string | null;
  version: string | null;
  previous_environment: string | null;
  environment: string | null;
  previous_running: number;
  running: number;
  artifact_id: string | null;
  changed: number;
  applied: number;
}

const entryOf = (row: Row): HistoryEntry => ({
  id: row.id,
  instance: row.instance,
  at: row.at,
  receivedAt: row.received_at,
  eventType: row.event_type,
  eventId: row.event_id,
  eventSource: row.event_source,
  sender: row.sender,
  previous: {
    release: row.previous_release,
    version: row.previous_version,
    environment: row.previous_environment,
    running: row.previous_running === 1,
  },
  current: {
    release: row.release,
    version: row.version,
    environment: row.environment,
    running: row.running === 1,
  },
  artifactId: row.artifact_id,
  changed: row.changed === 1,
  applied: row.applied === 1,
});

/** Keeps an entry; must run inside the commit of the edit it records. Answers its id. */
export function keepHistoryEntry(db: Database, entry: NewHistoryEntry): number {
  const result = db
    .prepare(
      `INSERT INTO deployment_history (instance, at, received_at, event_type, event_id, event_source, sender,
         previous_release, release, previous_version, version, previous_environment, environment,
         previous_running, running, artifact_id, changed, applied, event)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(
      entry.instance,
      entry.at,
      entry.receivedAt,
      entry.eventType,
      entry.eventId,
      entry.eventSource,
      entry.sender,
      entry.previous.release,
      entry.current.release,
      entry.previous.version,
      entry.current.version,
      entry.previous.environment,
      entry.current.environment,
      entry.previous.running ? 1 : 0,
      entry.current.running ? 1 : 0,
      entry.artifactId,
      entry.changed ? 1 : 0,
      entry.applied ? 1 : 0,
      entry.event === undefined ? null : JSON.stringify(entry.event),
    );
  return Number(result.lastInsertRowid);
}

/** The entry an event (by its source and id) made for a deployment, if it was received before. */
export function entryOfEvent(
  db: Database,
  instance: string,
  source: string,
  id: string,
): HistoryEntry | undefined {
  const row = db
    .prepare('SELECT * FROM deployment_history WHERE instance = ? AND event_source = ? AND event_id = ?')
    .get(instance, source, id) as Row | undefined;
  return row === undefined ? undefined : entryOf(row);
}

/**
 * The applied entries of a deployment, newest first (at most `limit`); with `eventsOnly`, those of deployment
 * events, leaving out announcements.
 */
export function appliedEntries(
  db: Database,
  instance: string,
  limit: number,
  eventsOnly = false,
): HistoryEntry[] {
  const rows = db
    .prepare(
      `SELECT * FROM deployment_history WHERE instance = ? AND applied = 1
       ${eventsOnly ? 'AND event_id IS NOT NULL' : ''} ORDER BY at DESC, id DESC LIMIT ?`,
    )
    .all(instance, limit) as Row[];
  return rows.map(entryOf);
}

/** A position in a deployment's history, newest first: the entry after which a page starts. */
export interface HistoryPosition {
  readonly at: string;
  readonly id: number;
}

/** One page of a deployment's history, newest first, after `after` when given. */
export function historyPage(
  db: Database,
  instance: string,
  limit: number,
  after: HistoryPosition | undefined,
): HistoryEntry[] {
  const rows = (
    after === undefined
      ? db
          .prepare('SELECT * FROM deployment_history WHERE instance = ? ORDER BY at DESC, id DESC LIMIT ?')
          .all(instance, limit)
      : db
          .prepare(
            `SELECT * FROM deployment_history WHERE instance = ? AND (at < ? OR (at = ? AND id < ?))
             ORDER BY at DESC, id DESC LIMIT ?`,
          )
          .all(instance, after.at, after.at, after.id, limit)
  ) as Row[];
  return rows.map(entryOf);
}

/** How many entries a deployment's history holds. */
export function countHistory(db: Database, instance: string): number {
  return (
    db.prepare('SELECT count(*) AS n FROM deployment_history WHERE instance = ?').get(instance) as {
      n: number;
    }
  ).n;
}

/** When the deployment's state last changed, by its history; undefined when it has none. */
export function changedAt(db: Database, instance: string): string | undefined {
  const row = db
    .prepare(
      'SELECT max(at) AS at FROM deployment_history WHERE instance = ? AND applied = 1 AND changed = 1',
    )
    .get(instance) as { at: string | null } | undefined;
  return row?.at ?? undefined;
}
