import fs from 'node:fs';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { ConfigError, DataDirLockedError, InternalError } from '../errors.js';
import { applyMigrations, SCHEMA_VERSION } from './migrations.js';

/** A prepared statement, as the rest of the store layer sees it. */
export type Statement = BetterSqlite3.Statement;

/** Values SQLite columns hold. */
export type SqlValue = string | number | bigint | Buffer | null;

/** The one SQLite connection over the data directory's `registry.db`: records and operational data. */
export interface Database {
  readonly dataDir: string;
  /** Runs `work` in one transaction that commits atomically, or rolls back if it throws. */
  transaction<T>(work: () => T): T;
  /**
   * Like `transaction`, but the commit is only written to the write-ahead log, not yet flushed to disk: `durable`
   * resolves once it is (an fdatasync of the log on the thread pool, off this thread). Until then the change is
   * visible but would not survive a power failure, so nothing may be acknowledged before `durable` resolves.
   */
  transactionDurableLater<T>(work: () => T): { readonly result: T; readonly durable: Promise<void> };
  /** Prepares (and caches) a statement. */
  prepare(sql: string): Statement;
  /** Runs SQL with no result, such as DDL. */
  exec(sql: string): void;
  /**
   * Copies the whole database into `destination` with SQLite's online backup, a few pages per step so the
   * serving thread keeps answering; commits made meanwhile through this connection are carried into the copy, so
   * it holds every commit made before it resolves. `progress` is told the pages copied and the total.
   */
  backup(destination: string, progress?: (copied: number, total: number) => void): Promise<void>;
  close(): void;
}

const PID_FILE = 'reg.pid';

/** Pages the online backup copies per step before it lets other work run (4 KiB pages: about 1 MiB). */
const BACKUP_STEP_PAGES = 256;

/** The file holding the registry's records and its operational data. */
export const DATABASE_FILE = 'registry.db';

/**
 * Opens the data directory for exclusive use by this process. The lock is SQLite's own exclusive lock,
 * held for the connection's lifetime (locking_mode=EXCLUSIVE) and released by the OS if the process dies,
 * so a crashed registry never leaves a stale lock behind. Records and operational data share one file in WAL
 * mode with synchronous=FULL, so one act commits atomically with a single fsync (see docs/decisions); the
 * group commit of record writes flushes its log off the serving thread instead (`transactionDurableLater`).
 */
export function openDatabase(dataDir: string): Database {
  const file = path.join(dataDir, DATABASE_FILE);
  let db: BetterSqlite3.Database;
  try {
    fs.mkdirSync(dataDir, { recursive: true });
    fs.accessSync(dataDir, fs.constants.W_OK);
    db = new BetterSqlite3(file, { timeout: 0 });
  } catch (error) {
    throw unusableDataDir(dataDir, error);
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
  // The group commit gives each act its own savepoint; SQLite keeps the pages a savepoint may have to restore in
  // a statement journal, by default a temporary file written with a system call per page. In memory it costs a
  // copy: records are written about twice as fast (the journal lives only until the savepoint is released).
  db.pragma('temp_store = MEMORY');
  // SQLite's own lower() folds ASCII only; lists filtered by words compare text in any case as SPARQL's LCASE does.
  db.function('lower_unicode', { deterministic: true }, (text: unknown) =>
    typeof text === 'string' ? text.toLowerCase() : text,
  );
  const version = db.pragma('user_version', { simple: true }) as number;
  if (version > SCHEMA_VERSION) {
    db.close();
    throw new ConfigError(
      `the data directory ${dataDir} was written by a newer reg (schema ${version}; this reg knows up to ${SCHEMA_VERSION}): run that version or newer, or restore a backup made by this one`,
    );
  }
  fs.writeFileSync(path.join(dataDir, PID_FILE), `${process.pid}\n`);
  removeStaleSnapshots(dataDir);
  applyMigrations(db);

  const statements = new Map<string, Statement>();
  const syncLog = walSyncer(`${file}-wal`);
  return {
    dataDir,
    transaction: <T>(work: () => T): T => db.transaction(work)(),
    transactionDurableLater: <T>(work: () => T) => {
      // In WAL mode, synchronous=NORMAL commits by writing the log without an fsync; it never risks consistency,
      // only durability, which the fdatasync of the log below restores before anyone is told.
      db.pragma('synchronous = NORMAL');
      let result: T;
      try {
        result = db.transaction(work)();
      } finally {
        db.pragma('synchronous = FULL');
      }
      return { result, durable: syncLog() };
    },
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
    backup: async (destination, progress) => {
      await db.backup(destination, {
        progress: ({ totalPages, remainingPages }) => {
          progress?.(totalPages - remainingPages, totalPages);
          return BACKUP_STEP_PAGES;
        },
      });
    },
    close: () => {
      if (!db.open) return;
      syncLog.close();
      db.close();
      fs.rmSync(path.join(dataDir, PID_FILE), { force: true });
    },
  };
}

/**
 * Flushes the write-ahead log to disk on the thread pool. A flush that is already running may have started
 * before the caller's commit was written, so callers that arrive meanwhile share the next flush, which starts
 * when the running one ends: one fdatasync covers every commit written before it began.
 */
function walSyncer(file: string): (() => Promise<void>) & { close(): void } {
  let fd: number | undefined;
  let running: Promise<void> | undefined;
  let next: Promise<void> | undefined;
  const flush = (): Promise<void> =>
    new Promise<void>((resolve, reject) => {
      fd ??= fs.openSync(file, 'r');
      fs.fdatasync(fd, (error) =>
        error === null
          ? resolve()
          : reject(new InternalError(`cannot flush ${file} to disk: ${error.message}`)),
      );
    });
  const sync = (): Promise<void> => {
    if (running === undefined) {
      running = flush().finally(() => {
        running = undefined;
      });
      return running;
    }
    next ??= running
      .catch(() => undefined)
      .then(() => {
        next = undefined;
        return sync();
      });
    return next;
  };
  return Object.assign(sync, {
    close: () => {
      if (fd !== undefined) fs.closeSync(fd);
      fd = undefined;
    },
  });
}

/** A data directory that cannot be created, written or opened, named with the reason and what to do. */
function unusableDataDir(dataDir: string, error: unknown): ConfigError {
  const code = (error as { code?: unknown }).code;
  const reason =
    code === 'EACCES' || code === 'EPERM'
      ? 'permission denied'
      : code === 'EROFS' || code === 'SQLITE_READONLY'
        ? 'the file system is read-only'
        : code === 'ENOTDIR' || code === 'EEXIST'
          ? 'a file is in the way where a directory should be'
          : code === 'ENOSPC'
            ? 'no space left on the device'
            : (error as Error).message;
  return new ConfigError(
    `REG_DATA_DIR ${dataDir} cannot be used (${reason}): set REG_DATA_DIR to a directory this user can write (in a container, mount a volume at it)`,
  );
}

/**
 * Removes backup snapshots a stopped process left half-written in the data directory (`.backup-*`); with the
 * lock held, no other process can be writing one.
 */
function removeStaleSnapshots(dataDir: string): void {
  for (const name of fs.readdirSync(dataDir)) {
    if (name.startsWith('.backup-')) fs.rmSync(path.join(dataDir, name), { force: true });
  }
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
