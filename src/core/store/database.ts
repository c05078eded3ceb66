import fs from 'node:fs';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { DataDirLockedError, InternalError } from '../errors.js';
import { applyMigrations } from './migrations.js';

/** A prepared statement, as the rest of the store layer sees it. */
export type Statement = BetterSqlite3.Statement;

/** Values SQLite columns hold. */
export type SqlValue = string | number | bigint | Buffer | null;

/** The one SQLite connection over the data directory's `registry.db`: records and operational data. */
export interface Database {
  readonly dataDir: string;
  /** Runs `work` in one transaction that commits atomically, or rolls back if it throws. */
  transaction<T>(work: () => T): T;
  /** Prepares (and caches) a statement. */
  prepare(sql: string): Statement;
  /** Runs SQL with no result, such as DDL. */
  exec(sql: string): void;
  close(): void;
}

const PID_FILE = 'reg.pid';

/** The file holding the registry's records and its operational data. */
export const DATABASE_FILE = 'registry.db';

/**
 * Opens the data directory for exclusive use by this process. The lock is SQLite's own exclusive lock,
 * held for the connection's lifetime (locking_mode=EXCLUSIVE) and released by the OS if the process dies,
 * so a crashed registry never leaves a stale lock behind. Records and operational data share one file in WAL
 * mode with synchronous=FULL, so one act commits atomically with a single fsync (see docs/decisions).
 */
export function openDatabase(dataDir: string): Database {
  fs.mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, DATABASE_FILE);
  let db: BetterSqlite3.Database;
  try {
    db = new BetterSqlite3(file, { timeout: 0 });
  } catch (error) {
    throw new InternalError(`cannot open ${file}: ${(error as Error).message}`, { cause: error });
  }
  try {
    db.pragma('locking_mode = EXCLUSIVE');
    db.pragma('journal_mode = WAL');
    // Taking the write lock now, rather than at the first write, makes a second process fail at open time
    // instead of at some later commit.
    db.exec('BEGIN EXCLUSIVE; COMMIT;');
  } catch (error) {
    db.close();
    if (isBusy(error)) throw new DataDirLockedError(dataDir, readPid(dataDir));
    throw new InternalError(`cannot open the data directory ${dataDir}: ${(error as Error).message}`, {
      cause: error,
    });
  }
  db.pragma('synchronous = FULL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  fs.writeFileSync(path.join(dataDir, PID_FILE), `${process.pid}\n`);
  applyMigrations(db);

  const statements = new Map<string, Statement>();
  return {
    dataDir,
    transaction: <T>(work: () => T): T => db.transaction(work)(),
    prepare: (sql) => {
      let statement = statements.get(sql);
      if (statement === undefined) {
        statement = db.prepare(sql);
        statements.set(sql, statement);
      }
      return statement;
    },
    exec: (sql) => {
      db.exec(sql);
    },
    close: () => {
      if (!db.open) return;
      db.close();
      fs.rmSync(path.join(dataDir, PID_FILE), { force: true });
    },
  };
}

function isBusy(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED';
}

function readPid(dataDir: string): number | undefined {
  try {
    const pid = Number(fs.readFileSync(path.join(dataDir, PID_FILE), 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}
