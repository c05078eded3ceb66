/**
 * Every OpenLineage event the registry accepted, kept as it was received, in the order of its `eventTime`: the
 * events of a run (START, RUNNING, COMPLETE …), of a dataset (DatasetEvent) or of a job (JobEvent). A replay of
 * the same event (same canonical JSON) is recognised by its digest and kept once.
 */
import { createHash } from 'node:crypto';
import type { Database } from './database.js';

/** What an event reports on. */
export type OpenLineageEventKind = 'run' | 'dataset' | 'job';

/** One kept event. */
export interface KeptEvent {
  readonly id: number;
  readonly subject: string;
  readonly kind: OpenLineageEventKind;
  readonly digest: string;
  readonly eventType: string | null;
  readonly eventTime: string;
  readonly receivedAt: string;
  readonly body: unknown;
}

interface EventRow {
  id: number;
  subject: string;
  kind: OpenLineageEventKind;
  digest: string;
  event_type: string | null;
  event_time: string;
  received_at: string;
  body: string;
}

/** JSON with the members of every object in UTF-16 code-unit order, so equal events have equal text. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) {
    let text = '[';
    for (let i = 0; i < value.length; i++) text += (i === 0 ? '' : ',') + (canonicalJson(value[i]) ?? 'null');
    return `${text}]`;
  }
  const object = value as Record<string, unknown>;
  const keys = Object.keys(object).sort();
  let text = '{';
  let first = true;
  for (const key of keys) {
    const inner = object[key];
    if (inner === undefined) continue;
    text += `${first ? '' : ','}${JSON.stringify(key)}:${canonicalJson(inner)}`;
    first = false;
  }
  return `${text}}`;
}

/** The digest that recognises a replayed event: SHA-256 of its canonical JSON. */
export function eventDigest(body: unknown): string {
  return createHash('sha256').update(canonicalJson(body)).digest('hex');
}

/** Whether this exact event was kept for the subject before. */
export function hasEvent(db: Database, subject: string, digest: string): boolean {
  return (
    db.prepare('SELECT 1 FROM openlineage_event WHERE subject = ? AND digest = ?').get(subject, digest) !==
    undefined
  );
}

/** Keeps an event under its `digest` (a replay is ignored); must run inside the write's transaction. */
export function keepEvent(
  db: Database,
  event: {
    subject: string;
    kind: OpenLineageEventKind;
    digest: string;
    eventType: string | null;
    eventTime: string;
    receivedAt: string;
    body: unknown;
  },
): void {
  db.prepare(
    `INSERT INTO openlineage_event (subject, kind, digest, event_type, event_time, received_at, body)
     VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (subject, digest) DO NOTHING`,
  ).run(
    event.subject,
    event.kind,
    event.digest,
    event.eventType,
    event.eventTime,
    event.receivedAt,
    JSON.stringify(event.body),
  );
}

const present = (row: EventRow): KeptEvent => ({
  id: row.id,
  subject: row.subject,
  kind: row.kind,
  digest: row.digest,
  eventType: row.event_type,
  eventTime: row.event_time,
  receivedAt: row.received_at,
  body: JSON.parse(row.body) as unknown,
});

/** The events of a subject in `eventTime` order (ties in arrival order), `limit` of them from `offset` on. */
export function eventsOf(db: Database, subject: string, limit = 1000, offset = 0): KeptEvent[] {
  const rows = db
    .prepare(`SELECT * FROM openlineage_event WHERE subject = ? ORDER BY event_time, id LIMIT ? OFFSET ?`)
    .all(subject, limit, offset) as EventRow[];
  return rows.map(present);
}

/** How many events a subject has. */
export function countEvents(db: Database, subject: string): number {
  return (
    db.prepare('SELECT count(*) AS n FROM openlineage_event WHERE subject = ?').get(subject) as { n: number }
  ).n;
}
