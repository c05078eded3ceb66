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
    id: 2,
    name: 'record counts kept by triggers',
    schema: 'graph',
    // Counting by scanning a million-row table takes ~100 ms of the only thread; these totals are O(1).
    sql: `
      CREATE TABLE graph.record_stats (
        graph TEXT NOT NULL,
        kind TEXT NOT NULL,
        records INTEGER NOT NULL,
        quads INTEGER NOT NULL,
        PRIMARY KEY (graph, kind)
      );
      INSERT INTO graph.record_stats (graph, kind, records, quads)
        SELECT graph, coalesce(kind, ''), count(*), sum(quad_count) FROM graph.record GROUP BY 1, 2;
      CREATE TRIGGER graph.record_stats_insert AFTER INSERT ON record BEGIN
        INSERT INTO record_stats (graph, kind, records, quads) VALUES (new.graph, coalesce(new.kind, ''), 1, new.quad_count)
          ON CONFLICT (graph, kind) DO UPDATE SET records = records + 1, quads = quads + excluded.quads;
      END;
      CREATE TRIGGER graph.record_stats_delete AFTER DELETE ON record BEGIN
        UPDATE record_stats SET records = records - 1, quads = quads - old.quad_count
          WHERE graph = old.graph AND kind = coalesce(old.kind, '');
      END;
      CREATE TRIGGER graph.record_stats_update AFTER UPDATE OF graph, kind, quad_count ON record BEGIN
        UPDATE record_stats SET records = records - 1, quads = quads - old.quad_count
          WHERE graph = old.graph AND kind = coalesce(old.kind, '');
        INSERT INTO record_stats (graph, kind, records, quads) VALUES (new.graph, coalesce(new.kind, ''), 1, new.quad_count)
          ON CONFLICT (graph, kind) DO UPDATE SET records = records + 1, quads = quads + excluded.quads;
      END;`,
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
