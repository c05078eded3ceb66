import type BetterSqlite3 from 'better-sqlite3';

/** One numbered schema change of one of the two database files. */
interface Migration {
  readonly id: number;
  readonly name: string;
  readonly schema: 'main' | 'graph';
  readonly sql: string;
}

/**
 * Every schema change, in order. Each file records the highest id applied in its `user_version`; an entry is
 * never edited once released, only followed by a new one.
 */
const MIGRATIONS: readonly Migration[] = [
  {
    id: 1,
    name: 'graph records',
    schema: 'graph',
    sql: `
      CREATE TABLE graph.record (
        id INTEGER PRIMARY KEY,
        graph TEXT NOT NULL,
        subject TEXT NOT NULL,
        nquads TEXT NOT NULL,
        quad_count INTEGER NOT NULL,
        kind TEXT,
        version INTEGER NOT NULL DEFAULT 1,
        updated_at TEXT NOT NULL,
        UNIQUE (graph, subject)
      );
      CREATE INDEX graph.record_kind ON record (kind, graph);`,
  },
  {
    id: 1,
    name: 'audit log',
    schema: 'main',
    sql: `
      CREATE TABLE audit (
        id INTEGER PRIMARY KEY,
        at TEXT NOT NULL,
        actor TEXT,
        actor_kind TEXT NOT NULL,
        action TEXT NOT NULL,
        target TEXT,
        detail TEXT,
        remote_addr TEXT,
        request_id TEXT
      );
      CREATE INDEX audit_action ON audit (action, id);`,
  },
  {
    id: 2,
    name: 'peers',
    schema: 'main',
    sql: `
      CREATE TABLE peer (
        id TEXT PRIMARY KEY,
        base_iri TEXT NOT NULL UNIQUE,
        title TEXT,
        operator TEXT,
        state TEXT NOT NULL DEFAULT 'active',
        added_at TEXT NOT NULL,
        last_seen_at TEXT,
        resolve_status TEXT NOT NULL DEFAULT 'unknown',
        last_error TEXT
      );`,
  },
];

/** Applies every migration newer than each file's recorded version, each in its own transaction. */
export function applyMigrations(db: BetterSqlite3.Database): void {
  for (const schema of ['main', 'graph'] as const) {
    const current = db.pragma(`${schema}.user_version`, { simple: true }) as number;
    const pending = MIGRATIONS.filter((m) => m.schema === schema && m.id > current).sort(
      (a, b) => a.id - b.id,
    );
    for (const migration of pending) {
      db.transaction(() => {
        db.exec(migration.sql);
        db.pragma(`${schema}.user_version = ${migration.id}`);
      })();
    }
  }
}
