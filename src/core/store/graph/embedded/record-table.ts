import type { Database } from '../../database.js';
import type { RefillPosition, RefillRecord } from '../../lineage/lineage-index.js';
import { linesOf, markedRecord, toNQuads, toNTriples } from '../../nquads.js';
import type { BundleGraph } from '../types.js';

/** One stored record: the canonical N-Quads of one subject (and its fragments) in one graph. */
export interface RecordRow {
  readonly graph: string;
  readonly subject: string;
  readonly nquads: string;
  readonly quadCount: number;
  readonly kind: string | null;
  readonly version: number;
  readonly updatedAt: string;
}

interface RawRow {
  graph: string;
  subject: string;
  nquads: string;
  quad_count: number;
  kind: string | null;
  version: number;
  updated_at: string;
}

const toRow = (raw: RawRow): RecordRow => ({
  graph: raw.graph,
  subject: raw.subject,
  nquads: raw.nquads,
  quadCount: raw.quad_count,
  kind: raw.kind,
  version: raw.version,
  updatedAt: raw.updated_at,
});

/** Reads one record, or undefined when it does not exist. */
export function readRecord(db: Database, graph: string, subject: string): RecordRow | undefined {
  const raw = db.prepare('SELECT * FROM record WHERE graph = ? AND subject = ?').get(graph, subject) as
    RawRow | undefined;
  return raw === undefined ? undefined : toRow(raw);
}

/**
 * Replaces a record's canonical text in place (keeping its row) or inserts it, counting its quads (one per line);
 * must run inside a transaction.
 */
export function writeRecord(
  db: Database,
  row: { graph: string; subject: string; nquads: string; kind: string | null },
  now: string,
): void {
  const quadCount = lineCount(row.nquads);
  db.prepare(
    `INSERT INTO record (graph, subject, nquads, quad_count, kind, version, updated_at)
     VALUES (@graph, @subject, @nquads, @quadCount, @kind, 1, @now)
     ON CONFLICT (graph, subject) DO UPDATE SET nquads = excluded.nquads, quad_count = excluded.quad_count,
       kind = coalesce(excluded.kind, record.kind), version = record.version + 1, updated_at = excluded.updated_at`,
  ).run({ ...row, quadCount, now });
}

/** Deletes a record; must run inside a transaction. */
export function deleteRecord(db: Database, graph: string, subject: string): void {
  db.prepare('DELETE FROM record WHERE graph = ? AND subject = ?').run(graph, subject);
}

/**
 * Yields records in (graph, subject) order, reading `batch` rows at a time with a key cursor, so no read stays
 * open between batches and writes may interleave with a long dump.
 */
export function* iterateRecords(
  db: Database,
  options: { graph?: string; batch?: number; after?: readonly [string, string] } = {},
): Generator<RecordRow> {
  const batch = options.batch ?? 500;
  const page =
    options.graph === undefined
      ? db.prepare('SELECT * FROM record WHERE (graph, subject) > (?, ?) ORDER BY graph, subject LIMIT ?')
      : db.prepare('SELECT * FROM record WHERE graph = ? AND subject > ? ORDER BY subject LIMIT ?');
  // Subjects are never empty, so ('', '') precedes every row, the default graph's included.
  let cursor: [string, string] = options.after === undefined ? [options.graph ?? '', ''] : [...options.after];
  for (;;) {
    const rows = (page.all(cursor[0], cursor[1], batch) as RawRow[]).map(toRow);
    for (const row of rows) yield row;
    const last = rows.at(-1);
    if (last === undefined || rows.length < batch) return;
    cursor = [last.graph, last.subject];
  }
}

/** Records and their quads in each graph, of every kind. */
export function recordTotalsByGraph(db: Database): Map<string, { records: number; quads: number }> {
  const rows = db
    .prepare(
      'SELECT graph, sum(records) AS records, sum(quads) AS quads FROM record_stats GROUP BY graph HAVING sum(records) > 0',
    )
    .all() as { graph: string; records: number; quads: number }[];
  return new Map(rows.map((row) => [row.graph, { records: row.records, quads: row.quads }]));
}

/** Total quads held in records. */
export function countRecordQuads(db: Database): number {
  const row = db.prepare('SELECT coalesce(sum(quads), 0) AS n FROM record_stats').get() as {
    n: number;
  };
  return row.n;
}

/** Number of records of each kind in one graph. */
export function countRecordsByKind(db: Database, graph: string): Map<string, number> {
  const rows = db
    .prepare("SELECT kind, records FROM record_stats WHERE graph = ? AND kind <> '' AND records > 0")
    .all(graph) as { kind: string; records: number }[];
  return new Map(rows.map((row) => [row.kind, row.records]));
}

/** The distinct graph names that hold records. */
export function recordGraphs(db: Database): string[] {
  return (
    db.prepare('SELECT DISTINCT graph FROM record_stats WHERE records > 0 ORDER BY graph').all() as {
      graph: string;
    }[]
  ).map((r) => r.graph);
}

/** Records of one graph whose subject does not start with `prefix`, with one example subject. */
export function recordsOutside(
  db: Database,
  graph: string,
  prefix: string,
): { count: number; example: string | null } {
  const row = db
    .prepare(
      `SELECT count(*) AS count, min(subject) AS example FROM record
       WHERE graph = ? AND substr(subject, 1, length(?)) <> ?`,
    )
    .get(graph, prefix, prefix) as { count: number; example: string | null };
  return row;
}

/** Lines of a canonical N-Quads text (each ends with a newline), counted without splitting it. */
function lineCount(text: string): number {
  let count = 0;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) count++;
  return count;
}

/**
 * Reads records for a refill of the lineage index: those after a position in (graph, subject) order, each with a
 * check that it is still the version read.
 */
export function recordsAfter(db: Database): (after: RefillPosition, size: number) => Promise<RefillRecord[]> {
  const version = db.prepare('SELECT version FROM record WHERE graph = ? AND subject = ?').pluck();
  return (after, size) => {
    const out: RefillRecord[] = [];
    for (const row of iterateRecords(db, { after: [after.graph, after.subject], batch: size })) {
      out.push({
        graph: row.graph,
        subject: row.subject,
        lines: linesOf(row.nquads),
        current: () => version.get(row.graph, row.subject) === row.version,
      });
      if (out.length >= size) break;
    }
    return Promise.resolve(out);
  };
}

/** Bytes of N-Quads text per dump chunk. */
const DUMP_CHUNK_BYTES = 1 << 20;

/**
 * The bundles and the records as N-Quads (or, for one `graph`, that graph's N-Triples), about a megabyte per
 * chunk, letting other work run between chunks.
 */
export async function* dumpRecords(
  db: Database,
  bundles: readonly BundleGraph[],
  graph: string | undefined,
): AsyncIterable<string> {
  for (const bundle of bundles) {
    if (graph === undefined) yield toNQuads(bundle.ntriples, bundle.graph);
    else if (graph === bundle.graph) yield bundle.ntriples;
  }
  let chunk: string[] = [];
  let size = 0;
  const rows = graph === undefined ? iterateRecords(db) : iterateRecords(db, { graph });
  for (const row of rows) {
    // A full dump marks where each record starts, so a restore rebuilds exactly these records even when one
    // holds quads about another IRI (an agent named by its ORCID or ROR identifier).
    const text =
      graph === undefined ? markedRecord(row.graph, row.subject, row.nquads) : toNTriples(row.nquads, graph);
    chunk.push(text);
    size += text.length;
    if (size >= DUMP_CHUNK_BYTES) {
      yield chunk.join('');
      chunk = [];
      size = 0;
      // Let other work (HTTP requests, writes) run between chunks of a large dump.
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
  if (chunk.length > 0) yield chunk.join('');
}
