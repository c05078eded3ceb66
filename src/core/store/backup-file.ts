import fs from 'node:fs';
import BetterSqlite3 from 'better-sqlite3';
import type { GraphBackend } from '../config/index.js';
import { BadRequestError } from '../errors.js';
import { DATABASE_FILE } from './database.js';
import { SCHEMA_VERSION } from './migrations.js';

/**
 * A backup is a copy of `registry.db` made by SQLite's online backup, with one more table, `reg_backup`, naming
 * what it is (`manifest`, a JSON object). Restoring drops that table and puts the file in place.
 */
const MANIFEST_TABLE = 'reg_backup';

/** Operational tables counted in a backup's manifest, by the name the manifest gives them. */
const COUNTED: Readonly<Record<string, string>> = {
  records: 'record',
  api_tokens: 'api_token',
  subscriptions: 'subscription',
  deliveries: 'delivery',
  peers: 'peer',
  audit_entries: 'audit',
  admin_tokens: 'admin_token',
  openlineage_events: 'openlineage_event',
};

/** Rows of each counted table in the database file at `file`. */
export function countRows(db: BetterSqlite3.Database): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const [name, table] of Object.entries(COUNTED)) {
    const row = db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number };
    counts[name] = row.n;
  }
  return counts;
}

/**
 * Makes the copy at `file` a self-contained backup: one file (no write-ahead log beside it), holding `manifest`
 * and the row counts. Returns the counts and the schema version of the copy.
 */
export function stampBackup(
  file: string,
  manifest: Readonly<Record<string, unknown>>,
): { counts: Record<string, number>; schema_version: number } {
  const db = new BetterSqlite3(file);
  try {
    db.pragma('journal_mode = DELETE');
    const schema = db.pragma('user_version', { simple: true }) as number;
    const counts = countRows(db);
    db.exec(`CREATE TABLE ${MANIFEST_TABLE} (key TEXT PRIMARY KEY, value TEXT NOT NULL)`);
    db.prepare(`INSERT INTO ${MANIFEST_TABLE} (key, value) VALUES ('manifest', ?)`).run(
      JSON.stringify({ ...manifest, schema_version: schema, counts }),
    );
    return { counts, schema_version: schema };
  } finally {
    db.close();
  }
}

/**
 * Checks that the file at `file` is a whole backup this reg can restore (a SQLite database that passes its
 * integrity check, holds a manifest and a schema no newer than this reg's) and returns its manifest. `named` is
 * how the refusal names the file the caller gave.
 */
export function readBackup(file: string, named: string): Record<string, unknown> {
  let db: BetterSqlite3.Database;
  try {
    db = new BetterSqlite3(file, { readonly: true, fileMustExist: true });
  } catch (error) {
    throw notBackup(named, (error as Error).message);
  }
  try {
    let check: unknown;
    try {
      check = db.pragma('integrity_check', { simple: true });
    } catch (error) {
      throw notBackup(named, (error as Error).message);
    }
    if (check !== 'ok') throw notBackup(named, `its database is damaged (${String(check)})`);
    const table = db
      .prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?`)
      .get(MANIFEST_TABLE);
    if (table === undefined) throw notBackup(named, 'it holds no backup manifest');
    const row = db.prepare(`SELECT value FROM ${MANIFEST_TABLE} WHERE key = 'manifest'`).get() as
      { value: string } | undefined;
    const manifest = row === undefined ? undefined : (JSON.parse(row.value) as unknown);
    if (typeof manifest !== 'object' || manifest === null || Array.isArray(manifest))
      throw notBackup(named, 'its manifest is unreadable');
    const schema = db.pragma('user_version', { simple: true }) as number;
    if (schema > SCHEMA_VERSION) {
      throw new BadRequestError(
        `${named} was made by a newer reg (schema ${schema}; this reg knows up to ${SCHEMA_VERSION}): restore it with that version or newer`,
      );
    }
    return manifest as Record<string, unknown>;
  } finally {
    db.close();
  }
}

/**
 * Puts the checked backup at `file` in place as the data directory's database: the manifest table is dropped
 * and the file linked in as `registry.db` (refused if one appeared meanwhile), so the directory never holds
 * half a database.
 */
export function installBackup(file: string, dataDir: string): void {
  const db = new BetterSqlite3(file);
  try {
    db.exec(`DROP TABLE ${MANIFEST_TABLE}`);
  } finally {
    db.close();
  }
  // A hard link never replaces an existing file: a registry started meanwhile keeps its own database.
  fs.linkSync(file, `${dataDir}/${DATABASE_FILE}`);
  fs.rmSync(file);
}

/** Where a backed-up registry's graph lives: in the backup (embedded), or in an external store it does not hold. */
export type BackupGraphStore =
  { readonly kind: 'embedded' } | { readonly kind: 'sparql'; readonly endpoint: string };

/** How a backup describes the configured graph store (an external endpoint without credentials). */
export function graphStoreOf(graph: GraphBackend): BackupGraphStore {
  if (graph.kind === 'embedded') return { kind: 'embedded' };
  const endpoint = new URL(graph.queryEndpoint);
  endpoint.username = '';
  endpoint.password = '';
  return { kind: 'sparql', endpoint: endpoint.href };
}

/** Refuses a backup whose graph lives elsewhere than the configured store would look for it. */
export function checkGraphStore(manifest: Record<string, unknown>, graph: GraphBackend, named: string): void {
  const store = manifest.graph_store as { kind?: unknown; endpoint?: unknown } | undefined;
  const kind = store?.kind;
  if (kind === graph.kind) return;
  if (kind === 'sparql') {
    throw new BadRequestError(
      `${named} holds the operational data of a registry whose graph is in the external store ${String(store?.endpoint)}: restore it with REG_SPARQL_ENDPOINT set to that store (and restore the store from its own backup)`,
    );
  }
  throw new BadRequestError(
    `${named} holds its graph (the embedded store); this data directory is configured for an external graph store: restore it without REG_SPARQL_ENDPOINT, then load the graph into the store with reg dump and reg restore --nquads if wanted`,
  );
}

function notBackup(named: string, reason: string): BadRequestError {
  return new BadRequestError(`${named} is not a reg backup: ${reason}`);
}
