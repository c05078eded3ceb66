import BetterSqlite3 from 'better-sqlite3';
import { lineChunks } from './line-chunks.js';

/** Raw better-sqlite3 inserts, the floor of `reg restore`. */
export interface SqliteBaseline {
  readonly rows: number;
  readonly ms: number;
}

/**
 * Reads an N-Quads file in chunks and inserts every line as one row, in one transaction, into a fresh database
 * file with the registry's durability settings (rollback journal, synchronous=FULL).
 */
export async function measureSqliteInserts(file: string, dbFile: string): Promise<SqliteBaseline> {
  const started = performance.now();
  const db = new BetterSqlite3(dbFile);
  try {
    db.pragma('journal_mode = TRUNCATE');
    db.pragma('synchronous = FULL');
    db.exec('CREATE TABLE quad (id INTEGER PRIMARY KEY, line TEXT NOT NULL)');
    const insert = db.prepare('INSERT INTO quad (line) VALUES (?)');
    let rows = 0;
    db.exec('BEGIN');
    for await (const chunk of lineChunks(file)) {
      let start = 0;
      for (let end = chunk.indexOf('\n'); end >= 0; end = chunk.indexOf('\n', start)) {
        insert.run(chunk.slice(start, end));
        rows++;
        start = end + 1;
      }
    }
    db.exec('COMMIT');
    return { rows, ms: performance.now() - started };
  } finally {
    db.close();
  }
}
