/**
 * The free-text search index in `registry.db`: one row per searchable record (`search_entry`), a trigram FTS5
 * index over its title and other text for substring matches, and a word FTS5 index over its title for matches at
 * word starts. It is derived data: the write path keeps it current inside each commit (a large commit instead
 * lists its records in `search_pending`, and their rows follow a moment later, a few at a time), and it is
 * rebuilt from the record rows when it is missing, emptied, or marked stale (by a restore, which writes rows
 * directly).
 */
import type { Database } from './database.js';
import type { Quad } from './nquads.js';
import { GRAPHS } from '../ns.js';
import type { SearchEntry, SearchReader } from './search-entry.js';

/**
 * The schema of the search index as the migrations leave it, run (every statement is idempotent) when a database
 * lacks any of its tables. Migration 7 holds its own copy; a change here needs a new migration too.
 */
export const SEARCH_SCHEMA = `
  CREATE TABLE IF NOT EXISTS search_entry (
    id INTEGER PRIMARY KEY,
    graph TEXT NOT NULL,
    iri TEXT NOT NULL,
    kind TEXT NOT NULL,
    title TEXT NOT NULL,
    title_key TEXT NOT NULL,
    body TEXT NOT NULL,
    UNIQUE (graph, iri)
  );
  CREATE INDEX IF NOT EXISTS search_entry_title ON search_entry (title_key, iri);
  CREATE VIRTUAL TABLE IF NOT EXISTS search_text USING fts5(
    title, body, content = 'search_entry', content_rowid = 'id', tokenize = 'trigram remove_diacritics 1'
  );
  CREATE VIRTUAL TABLE IF NOT EXISTS search_word USING fts5(
    title, content = 'search_entry', content_rowid = 'id', tokenize = 'unicode61 remove_diacritics 2',
    prefix = '2 3'
  );
  CREATE TABLE IF NOT EXISTS search_rebuild (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    after_subject TEXT NOT NULL
  );`;

const TABLES = ['search_entry', 'search_text', 'search_word', 'search_rebuild'] as const;

/** Records read per rebuild step: one transaction of about 50 ms, so requests are served between steps. */
const REBUILD_BATCH = 500;

interface EntryRow {
  id: number;
  graph: string;
  iri: string;
  kind: string;
  title: string;
  title_key: string;
  body: string;
}

/** A candidate hit as the search service ranks it: the row without its other text. */
export type SearchCandidate = Readonly<Omit<EntryRow, 'body'>>;

/**
 * Creates the search tables when any is missing (a database whose index was dropped) and then marks the index
 * for a rebuild; returns whether it had to.
 */
export function ensureSearchSchema(db: Database): boolean {
  const present = db
    .prepare(`SELECT count(*) AS n FROM sqlite_master WHERE name IN (${TABLES.map(() => '?').join(', ')})`)
    .get(...TABLES) as { n: number };
  if (present.n === TABLES.length) return false;
  db.transaction(() => {
    // The content tables and their FTS indexes must agree, so whatever survived is dropped with the rest.
    for (const table of TABLES) db.exec(`DROP TABLE IF EXISTS ${table}`);
    db.exec(SEARCH_SCHEMA);
    markSearchStale(db);
  });
  return true;
}

/**
 * Empties the index and marks it for a rebuild from the record rows; used by writers that bypass the write path
 * (restore). Must run inside a transaction.
 */
export function markSearchStale(db: Database): void {
  db.exec(`DELETE FROM search_entry;
    DELETE FROM search_pending;
    INSERT INTO search_text (search_text) VALUES ('delete-all');
    INSERT INTO search_word (search_word) VALUES ('delete-all');`);
  db.prepare(
    `INSERT INTO search_rebuild (id, after_subject) VALUES (1, '')
     ON CONFLICT (id) DO UPDATE SET after_subject = ''`,
  ).run();
}

/** Whether a rebuild is due or under way: marked stale, or empty while searchable records exist. */
export function searchRebuildDue(db: Database, search: SearchReader): boolean {
  if (searchRebuilding(db)) return true;
  if (db.prepare('SELECT 1 FROM search_entry LIMIT 1').get() !== undefined) return false;
  const records = db
    .prepare(
      `SELECT coalesce(sum(records), 0) AS n FROM record_stats
       WHERE graph = ? AND kind IN (${search.kinds.map(() => '?').join(', ')})`,
    )
    .get(GRAPHS.local, ...search.kinds) as { n: number };
  return records.n > 0;
}

/** Whether a rebuild is under way, so that answers may miss records not yet indexed again. */
export function searchRebuilding(db: Database): boolean {
  return db.prepare('SELECT 1 FROM search_rebuild').get() !== undefined;
}

/**
 * Whether answers may miss records: a rebuild is under way, or the rows of a large commit are still being
 * brought up to date.
 */
export function searchBehind(db: Database): boolean {
  return searchRebuilding(db) || searchPending(db);
}

/** Whether records of a large commit still wait for their search rows. */
export function searchPending(db: Database): boolean {
  return db.prepare('SELECT 1 FROM search_pending LIMIT 1').get() !== undefined;
}

/**
 * Lists a written record whose search rows are brought up to date after the commit (`catchUpSearchRows`), for a
 * commit so large that indexing its text at once would hold the serving thread. Must run inside the write's
 * transaction, so the listing is as durable as the record.
 */
export function deferSearchRows(db: Database, graph: string, subject: string): void {
  db.prepare('INSERT INTO search_pending (graph, subject) VALUES (?, ?) ON CONFLICT DO NOTHING').run(
    graph,
    subject,
  );
}

/** Records whose search rows are brought up to date per step: one short transaction. */
const CATCH_UP_BATCH = 16;

/**
 * Brings the search rows of listed records up to date from their current record rows, a few per transaction,
 * yielding to other work between steps, until none is listed or `stopped`. A record written again meanwhile is
 * simply indexed as it now stands. Returns the number of records handled.
 */
export async function catchUpSearchRows(
  db: Database,
  search: SearchReader,
  stopped: () => boolean,
): Promise<number> {
  const next = db.prepare(
    `SELECT p.graph, p.subject, r.kind, r.nquads FROM search_pending p
     LEFT JOIN record r ON r.graph = p.graph AND r.subject = p.subject LIMIT ?`,
  );
  const done = db.prepare('DELETE FROM search_pending WHERE graph = ? AND subject = ?');
  let handled = 0;
  while (!stopped()) {
    // Each step's log is flushed to disk off this thread: the rows are derived data, and a step lost to a crash
    // is simply done again, as its records are still listed.
    const { result: count, durable } = db.transactionDurableLater(() => {
      const rows = next.all(CATCH_UP_BATCH) as {
        graph: string;
        subject: string;
        kind: string | null;
        nquads: string | null;
      }[];
      const stored = rows.filter((row): row is typeof row & { nquads: string } => row.nquads !== null);
      const entries = new Map(
        search.entriesOfRows(stored).map((entry) => [`${entry.graph}\n${entry.iri}`, entry]),
      );
      applyEntries(
        db,
        rows.map((row) => [row.graph, row.subject, entries.get(`${row.graph}\n${row.subject}`)]),
      );
      for (const row of rows) done.run(row.graph, row.subject);
      return rows.length;
    });
    handled += count;
    await durable;
    if (count < CATCH_UP_BATCH) break;
  }
  return handled;
}

/**
 * Rebuilds the index from the record rows, a batch per transaction, yielding to other work between batches. It
 * resumes where a previous run stopped (the position is stored), and writes committed meanwhile keep their own
 * rows current, so the result matches the records however the two interleave. `stopped` ends it early. Returns
 * the number of record rows read.
 */
export async function rebuildSearchIndex(
  db: Database,
  search: SearchReader,
  stopped: () => boolean,
): Promise<number> {
  if (!searchRebuilding(db)) markSearchStaleNow(db);
  const page = db.prepare(
    'SELECT graph, subject, kind, nquads FROM record WHERE graph = ? AND subject > ? ORDER BY subject LIMIT ?',
  );
  let read = 0;
  while (!stopped()) {
    const finished = db.transaction(() => {
      const marker = db.prepare('SELECT after_subject FROM search_rebuild').get() as
        { after_subject: string } | undefined;
      if (marker === undefined) return true;
      const rows = page.all(GRAPHS.local, marker.after_subject, REBUILD_BATCH) as {
        graph: string;
        subject: string;
        kind: string | null;
        nquads: string;
      }[];
      applyEntries(
        db,
        search.entriesOfRows(rows).map((entry) => [entry.graph, entry.iri, entry]),
      );
      read += rows.length;
      const last = rows.at(-1);
      if (last === undefined || rows.length < REBUILD_BATCH) {
        db.prepare('DELETE FROM search_rebuild').run();
        return true;
      }
      db.prepare('UPDATE search_rebuild SET after_subject = ?').run(last.subject);
      return false;
    });
    if (finished) break;
    await new Promise((resolve) => setImmediate(resolve));
  }
  return read;
}

function markSearchStaleNow(db: Database): void {
  db.transaction(() => markSearchStale(db));
}

/**
 * A record whose search rows a write brings up to date: its new quads, or its new canonical lines, or null when
 * it was deleted.
 */
export type SearchWrite = {
  readonly graph: string;
  readonly subject: string;
  readonly kind: string | null | undefined;
} & ({ readonly quads: readonly Quad[] | null } | { readonly lines: readonly string[] | null });

/**
 * Brings the search rows of written records up to date from their new quads or lines (null: deleted); the last
 * write of a record counts, and a record that is not searchable (withdrawn, another kind or graph) loses its row.
 * Must run inside the writes' transaction.
 */
export function indexRecordsForSearch(
  db: Database,
  search: SearchReader,
  writes: readonly SearchWrite[],
): void {
  const last = new Map(writes.map((write) => [`${write.graph}\n${write.subject}`, write]));
  const entryOf = (write: SearchWrite): SearchEntry | undefined => {
    if ('lines' in write)
      return write.lines === null
        ? undefined
        : search.entryOfLines(write.graph, write.subject, write.kind, write.lines);
    return write.quads === null
      ? undefined
      : search.entryOf(write.graph, write.subject, write.kind, write.quads);
  };
  applyEntries(
    db,
    [...last.values()].map((write) => [write.graph, write.subject, entryOf(write)]),
  );
}

/**
 * Puts each record's entry, or removes its row when it has none, then writes the full-text tables last, one
 * statement per table for all of them: SQLite opens a savepoint for most statements inside a transaction, and
 * FTS5 writes its pending terms to disk at every savepoint, so one statement per record left a small segment per
 * record for FTS5 to merge (about a tenth of a bulk load's time). Each record appears once.
 */
function applyEntries(
  db: Database,
  entries: readonly (readonly [graph: string, iri: string, entry: SearchEntry | undefined])[],
): void {
  const fts: FtsWork = { out: [], in: [] };
  for (const [graph, iri, entry] of entries) {
    if (entry === undefined) removeEntry(db, graph, iri, fts);
    else putEntry(db, entry, fts);
  }
  writeFts(db, fts);
}

/** Rows to take out of the full-text tables (with the values they indexed) and rows to add, in that order. */
interface FtsWork {
  readonly out: Pick<EntryRow, 'id' | 'title' | 'body'>[];
  readonly in: Pick<EntryRow, 'id' | 'title' | 'body'>[];
}

function currentRow(db: Database, graph: string, iri: string): EntryRow | undefined {
  return db.prepare('SELECT * FROM search_entry WHERE graph = ? AND iri = ?').get(graph, iri) as
    EntryRow | undefined;
}

/**
 * Writes the full-text rows of a batch: external-content FTS5 tables are told the values they indexed to take a
 * row out. Each list is one statement per table over a JSON array of `[rowid, title, body]`.
 */
function writeFts(db: Database, fts: FtsWork): void {
  const json = (rows: FtsWork['out']): string =>
    JSON.stringify(rows.map((row) => [row.id, row.title, row.body]));
  if (fts.out.length > 0) {
    const out = json(fts.out);
    db.prepare(
      `INSERT INTO search_text (search_text, rowid, title, body)
       SELECT 'delete', value ->> 0, value ->> 1, value ->> 2 FROM json_each(?)`,
    ).run(out);
    db.prepare(
      `INSERT INTO search_word (search_word, rowid, title) SELECT 'delete', value ->> 0, value ->> 1 FROM json_each(?)`,
    ).run(out);
  }
  if (fts.in.length > 0) {
    const rows = json(fts.in);
    db.prepare(
      'INSERT INTO search_text (rowid, title, body) SELECT value ->> 0, value ->> 1, value ->> 2 FROM json_each(?)',
    ).run(rows);
    db.prepare(
      'INSERT INTO search_word (rowid, title) SELECT value ->> 0, value ->> 1 FROM json_each(?)',
    ).run(rows);
  }
}

function removeEntry(db: Database, graph: string, iri: string, fts: FtsWork): void {
  const row = currentRow(db, graph, iri);
  if (row === undefined) return;
  fts.out.push(row);
  db.prepare('DELETE FROM search_entry WHERE id = ?').run(row.id);
}

/** Inserts or replaces one entry, keeping its row id (the tie-break of large result sets) when it exists. */
function putEntry(db: Database, entry: SearchEntry, fts: FtsWork): void {
  const row = currentRow(db, entry.graph, entry.iri);
  if (row === undefined) {
    const inserted = db
      .prepare(
        'INSERT INTO search_entry (graph, iri, kind, title, title_key, body) VALUES (?, ?, ?, ?, ?, ?)',
      )
      .run(entry.graph, entry.iri, entry.kind, entry.title, entry.titleKey, entry.body);
    fts.in.push({ id: Number(inserted.lastInsertRowid), title: entry.title, body: entry.body });
    return;
  }
  if (row.kind === entry.kind && row.title === entry.title && row.body === entry.body) return;
  fts.out.push(row);
  db.prepare('UPDATE search_entry SET kind = ?, title = ?, title_key = ?, body = ? WHERE id = ?').run(
    entry.kind,
    entry.title,
    entry.titleKey,
    entry.body,
    row.id,
  );
  fts.in.push({ id: row.id, title: entry.title, body: entry.body });
}

/**
 * How candidates are found: the title starts with the query, a word of the title starts with its words, or the
 * query is a substring of the title or of any field.
 */
export type CandidateSource = 'prefix' | 'word' | 'title' | 'text';

/** An FTS5 string token: the text in double quotes, quotes doubled. */
const ftsString = (text: string): string => `"${text.replace(/"/g, '""')}"`;

/**
 * Up to `limit` rows of the given kinds that `source` finds for the folded query `q`, each an index lookup:
 * titles starting with `q` in title order; titles with a word starting with `q`'s words; or `q` anywhere in the
 * title, or in any field (trigram index; `q` needs 3 characters). The caller ranks them.
 */
export function searchCandidates(
  db: Database,
  source: CandidateSource,
  q: string,
  kinds: readonly string[],
  limit: number,
): SearchCandidate[] {
  const kindList = kinds.map(() => '?').join(', ');
  const columns = 'e.id, e.graph, e.iri, e.kind, e.title, e.title_key';
  switch (source) {
    case 'prefix':
      return db
        .prepare(
          `SELECT ${columns} FROM search_entry e WHERE title_key >= ? AND title_key < ? AND kind IN (${kindList})
           ORDER BY title_key, iri LIMIT ?`,
        )
        .all(q, `${q}\u{10FFFF}`, ...kinds, limit) as SearchCandidate[];
    case 'word':
      return db
        .prepare(
          `SELECT ${columns} FROM search_word JOIN search_entry e ON e.id = search_word.rowid
           WHERE search_word MATCH ? AND e.kind IN (${kindList}) LIMIT ?`,
        )
        .all(`${ftsString(q)} *`, ...kinds, limit) as SearchCandidate[];
    case 'title':
    case 'text':
      return db
        .prepare(
          `SELECT ${columns} FROM search_text JOIN search_entry e ON e.id = search_text.rowid
           WHERE search_text MATCH ? AND e.kind IN (${kindList}) LIMIT ?`,
        )
        .all(
          source === 'title' ? `title : ${ftsString(q)}` : ftsString(q),
          ...kinds,
          limit,
        ) as SearchCandidate[];
  }
}

/** The other text of some rows, by row id (read only for the hits shown, to cut their snippets from). */
export function searchBodies(db: Database, ids: readonly number[]): Map<number, string> {
  if (ids.length === 0) return new Map();
  const rows = db
    .prepare(`SELECT id, body FROM search_entry WHERE id IN (${ids.map(() => '?').join(', ')})`)
    .all(...ids) as { id: number; body: string }[];
  return new Map(rows.map((row) => [row.id, row.body]));
}
