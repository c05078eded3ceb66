/**
 * The registry's index of its records in an external graph store, kept in `registry.db` (migration 11). The
 * registry is the only writer of its graphs, so it knows, per record, which subjects its quads have (reading a
 * record is then one SELECT over those subjects, never a scan), the lines it asserts about subjects outside
 * itself (an agent named by its ORCID, which other records may assert too), the lines the server keeps in
 * another lexical form than the one written, and its kind and size (counts never ask the server). It also holds
 * the undo of a graph update whose operational rows are not committed yet (see external.ts).
 */
import type { Database } from '../../database.js';

/** What the registry knows about one record it keeps in the external store. */
export interface ExternalRecord {
  readonly graph: string;
  readonly subject: string;
  readonly kind: string | null;
  readonly quadCount: number;
  /** Every subject of the record's quads: the record, its fragments, and outside subjects it asserts about. */
  readonly subjects: readonly string[];
  /** The record's lines about subjects outside itself (not the record IRI nor one of its fragments). */
  readonly sharedLines: readonly string[];
  /** Lines as the server holds them, paired with the form the registry wrote: [server form, written form]. */
  readonly rewrites: readonly (readonly [string, string])[];
  /**
   * Lines with typed or language-tagged literals written since the record was last read back: the server may
   * hold them in another lexical form, which the next read pairs with these and records in `rewrites`.
   */
  readonly unverified: readonly string[];
  /** Changes with every write of the record, so a read only records what it learnt about the version it read. */
  readonly version: number;
}

interface RawRecord {
  graph: string;
  subject: string;
  kind: string | null;
  quad_count: number;
  rewrites: string | null;
  unverified: string | null;
  version: number;
}

/** Whether `subject` is the record `record` itself or one of its fragments. */
export function isOwnSubject(record: string, subject: string): boolean {
  return subject === record || subject.startsWith(`${record}#`);
}

function complete(db: Database, raw: RawRecord): ExternalRecord {
  const subjects = (
    db
      .prepare('SELECT subject FROM external_subject WHERE graph = ? AND record = ? ORDER BY subject')
      .all(raw.graph, raw.subject) as { subject: string }[]
  ).map((row) => row.subject);
  const sharedLines = subjects.some((subject) => !isOwnSubject(raw.subject, subject))
    ? (
        db
          .prepare('SELECT line FROM external_shared_line WHERE graph = ? AND record = ? ORDER BY line')
          .all(raw.graph, raw.subject) as { line: string }[]
      ).map((row) => row.line)
    : [];
  return {
    graph: raw.graph,
    subject: raw.subject,
    kind: raw.kind,
    quadCount: raw.quad_count,
    subjects,
    sharedLines,
    rewrites: raw.rewrites === null ? [] : (JSON.parse(raw.rewrites) as [string, string][]),
    unverified: raw.unverified === null ? [] : (JSON.parse(raw.unverified) as string[]),
    version: raw.version,
  };
}

/** Reads what is known of one record, or undefined when the registry keeps no such record. */
export function readExternalRecord(db: Database, graph: string, subject: string): ExternalRecord | undefined {
  const raw = db
    .prepare('SELECT * FROM external_record WHERE graph = ? AND subject = ?')
    .get(graph, subject) as RawRecord | undefined;
  return raw === undefined ? undefined : complete(db, raw);
}

const jsonOrNull = (list: readonly unknown[]): string | null =>
  list.length === 0 ? null : JSON.stringify(list);

/**
 * Records the new state of a record (replacing what was known; with `fresh`, nothing was known of it); must run
 * inside a transaction.
 */
export function writeExternalRecord(
  db: Database,
  record: Omit<ExternalRecord, 'version'>,
  fresh = false,
): void {
  db.prepare(
    `INSERT INTO external_record (graph, subject, kind, quad_count, rewrites, unverified) VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (graph, subject) DO UPDATE SET kind = excluded.kind, quad_count = excluded.quad_count,
       rewrites = excluded.rewrites, unverified = excluded.unverified, version = version + 1`,
  ).run(
    record.graph,
    record.subject,
    record.kind,
    record.quadCount,
    jsonOrNull(record.rewrites),
    jsonOrNull(record.unverified),
  );
  if (!fresh) {
    db.prepare('DELETE FROM external_subject WHERE graph = ? AND record = ?').run(
      record.graph,
      record.subject,
    );
    db.prepare('DELETE FROM external_shared_line WHERE graph = ? AND record = ?').run(
      record.graph,
      record.subject,
    );
  }
  const subject = db.prepare('INSERT INTO external_subject (graph, record, subject) VALUES (?, ?, ?)');
  for (const s of record.subjects) subject.run(record.graph, record.subject, s);
  const line = db.prepare(
    'INSERT OR IGNORE INTO external_shared_line (graph, record, line) VALUES (?, ?, ?)',
  );
  for (const l of record.sharedLines) line.run(record.graph, record.subject, l);
}

/**
 * Records what a read of `record` learnt: the server forms of its unverified lines. Nothing is recorded when the
 * record was written again since that read.
 */
export function recordVerified(
  db: Database,
  record: ExternalRecord,
  rewrites: readonly (readonly [string, string])[],
): void {
  db.prepare(
    `UPDATE external_record SET rewrites = ?, unverified = NULL WHERE graph = ? AND subject = ? AND version = ?`,
  ).run(jsonOrNull(rewrites), record.graph, record.subject, record.version);
}

/** Forgets a record; must run inside a transaction. */
export function deleteExternalRecord(db: Database, graph: string, subject: string): void {
  db.prepare('DELETE FROM external_record WHERE graph = ? AND subject = ?').run(graph, subject);
  db.prepare('DELETE FROM external_subject WHERE graph = ? AND record = ?').run(graph, subject);
  db.prepare('DELETE FROM external_shared_line WHERE graph = ? AND record = ?').run(graph, subject);
}

/** The records of `graph`, other than `except`, that assert `line` about a subject outside themselves. */
export function sharedLineHolders(db: Database, graph: string, line: string): string[] {
  return (
    db.prepare('SELECT record FROM external_shared_line WHERE graph = ? AND line = ?').all(graph, line) as {
      record: string;
    }[]
  ).map((row) => row.record);
}

/** Yields records in (graph, subject) order, `batch` rows per read, holding no read open between batches. */
export function* iterateExternalRecords(
  db: Database,
  options: { graph?: string; batch?: number; after?: readonly [string, string] } = {},
): Generator<ExternalRecord> {
  const batch = options.batch ?? 500;
  const page =
    options.graph === undefined
      ? db.prepare(
          'SELECT * FROM external_record WHERE (graph, subject) > (?, ?) ORDER BY graph, subject LIMIT ?',
        )
      : db.prepare('SELECT * FROM external_record WHERE graph = ? AND subject > ? ORDER BY subject LIMIT ?');
  let cursor: [string, string] = options.after === undefined ? [options.graph ?? '', ''] : [...options.after];
  for (;;) {
    const rows = page.all(cursor[0], cursor[1], batch) as RawRecord[];
    for (const raw of rows) yield complete(db, raw);
    const last = rows.at(-1);
    if (last === undefined || rows.length < batch) return;
    cursor = [last.graph, last.subject];
  }
}

/** Total quads of the records kept in the external store. */
export function countExternalQuads(db: Database): number {
  return (db.prepare('SELECT coalesce(sum(quads), 0) AS n FROM external_stats').get() as { n: number }).n;
}

/** Number of records of each kind in one graph. */
export function countExternalByKind(db: Database, graph: string): Map<string, number> {
  const rows = db
    .prepare("SELECT kind, records FROM external_stats WHERE graph = ? AND kind <> '' AND records > 0")
    .all(graph) as { kind: string; records: number }[];
  return new Map(rows.map((row) => [row.kind, row.records]));
}

/** The graphs that hold records in the external store. */
export function externalRecordGraphs(db: Database): string[] {
  return (
    db.prepare('SELECT DISTINCT graph FROM external_stats WHERE records > 0 ORDER BY graph').all() as {
      graph: string;
    }[]
  ).map((row) => row.graph);
}

/** Records of one graph whose subject does not start with `prefix`, with one example subject. */
export function externalRecordsOutside(
  db: Database,
  graph: string,
  prefix: string,
): { count: number; example: string | null } {
  return db
    .prepare(
      `SELECT count(*) AS count, min(subject) AS example FROM external_record
       WHERE graph = ? AND substr(subject, 1, length(?)) <> ?`,
    )
    .get(graph, prefix, prefix) as { count: number; example: string | null };
}

/** An update to send again, in reverse, if its commit did not finish: lines to delete and to insert, by graph. */
export interface UndoPlan {
  readonly delete: Record<string, string[]>;
  readonly insert: Record<string, string[]>;
  /**
   * New records (graph, subject) whose rows were written while the server took their lines (a bulk load's
   * commit); the undo forgets them.
   */
  readonly written?: readonly (readonly [string, string])[];
}

/** Journals the undo of a graph update about to be sent; returns its id. */
export function addIntent(db: Database, undo: UndoPlan, at: string): number {
  return Number(
    db.prepare('INSERT INTO external_intent (created_at, undo) VALUES (?, ?)').run(at, JSON.stringify(undo))
      .lastInsertRowid,
  );
}

/** Drops a journalled undo once its commit finished, or once it was applied. */
export function removeIntent(db: Database, id: number): void {
  db.prepare('DELETE FROM external_intent WHERE id = ?').run(id);
}

/** The undo plans of commits that did not finish, oldest first. */
export function pendingIntents(db: Database): { id: number; undo: UndoPlan }[] {
  return (
    db.prepare('SELECT id, undo FROM external_intent ORDER BY id').all() as { id: number; undo: string }[]
  ).map((row) => ({ id: row.id, undo: JSON.parse(row.undo) as UndoPlan }));
}
