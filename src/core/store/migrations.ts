import type BetterSqlite3 from 'better-sqlite3';

/** One numbered schema change. */
interface Migration {
  readonly id: number;
  readonly name: string;
  readonly sql: string;
}

/**
 * Every schema change, in order. The database records the highest id applied in its `user_version`; an entry
 * is never edited once released, only followed by a new one.
 */
const MIGRATIONS: readonly Migration[] = [
  {
    id: 1,
    name: 'graph records',
    sql: `
      CREATE TABLE record (
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
      CREATE INDEX record_kind ON record (kind, graph);`,
  },
  {
    id: 2,
    name: 'record counts kept by triggers',
    // Counting by scanning a million-row table takes ~100 ms of the only thread; these totals are O(1).
    sql: `
      CREATE TABLE record_stats (
        graph TEXT NOT NULL,
        kind TEXT NOT NULL,
        records INTEGER NOT NULL,
        quads INTEGER NOT NULL,
        PRIMARY KEY (graph, kind)
      );
      INSERT INTO record_stats (graph, kind, records, quads)
        SELECT graph, coalesce(kind, ''), count(*), sum(quad_count) FROM record GROUP BY 1, 2;
      CREATE TRIGGER record_stats_insert AFTER INSERT ON record BEGIN
        INSERT INTO record_stats (graph, kind, records, quads) VALUES (new.graph, coalesce(new.kind, ''), 1, new.quad_count)
          ON CONFLICT (graph, kind) DO UPDATE SET records = records + 1, quads = quads + excluded.quads;
      END;
      CREATE TRIGGER record_stats_delete AFTER DELETE ON record BEGIN
        UPDATE record_stats SET records = records - 1, quads = quads - old.quad_count
          WHERE graph = old.graph AND kind = coalesce(old.kind, '');
      END;
      CREATE TRIGGER record_stats_update AFTER UPDATE OF graph, kind, quad_count ON record BEGIN
        UPDATE record_stats SET records = records - 1, quads = quads - old.quad_count
          WHERE graph = old.graph AND kind = coalesce(old.kind, '');
        INSERT INTO record_stats (graph, kind, records, quads) VALUES (new.graph, coalesce(new.kind, ''), 1, new.quad_count)
          ON CONFLICT (graph, kind) DO UPDATE SET records = records + 1, quads = quads + excluded.quads;
      END;`,
  },
  {
    id: 3,
    name: 'audit log',
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
    id: 4,
    name: 'peers',
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
  {
    id: 5,
    name: 'api tokens',
    // Only a SHA-256 digest of the whole token is kept (docs/decisions/0002-api-tokens.md); the prefix finds the
    // row. A token belongs to exactly one deployment or one software.
    sql: `
      CREATE TABLE api_token (
        id TEXT PRIMARY KEY,
        prefix TEXT NOT NULL UNIQUE,
        digest BLOB NOT NULL,
        instance_iri TEXT,
        software_iri TEXT,
        subject_kind TEXT NOT NULL CHECK (subject_kind IN ('instance', 'software')),
        scopes TEXT NOT NULL,
        label TEXT,
        created_at TEXT NOT NULL,
        created_by TEXT,
        expires_at TEXT,
        last_used_at TEXT,
        revoked_at TEXT,
        CHECK ((subject_kind = 'instance') = (instance_iri IS NOT NULL)),
        CHECK ((subject_kind = 'software') = (software_iri IS NOT NULL))
      );
      CREATE INDEX api_token_instance ON api_token (instance_iri, created_at);
      CREATE INDEX api_token_software ON api_token (software_iri, created_at);`,
  },
  {
    id: 6,
    name: 'advertising: run and artifact keys, claims, foreign IRIs to resolve',
    sql: `
      CREATE TABLE run_key (
        instance TEXT NOT NULL,
        external_key TEXT NOT NULL,
        run TEXT NOT NULL,
        created_at TEXT NOT NULL,
        PRIMARY KEY (instance, external_key)
      );
      CREATE TABLE artifact_key (
        instance TEXT NOT NULL,
        key TEXT NOT NULL,
        artifact TEXT NOT NULL,
        created_at TEXT NOT NULL,
        PRIMARY KEY (instance, key)
      );
      CREATE TABLE run_artifact (
        run TEXT NOT NULL,
        artifact TEXT NOT NULL,
        role TEXT NOT NULL CHECK (role IN ('produced', 'consumed')),
        claimed_at TEXT NOT NULL,
        PRIMARY KEY (run, artifact, role)
      );
      CREATE INDEX run_artifact_artifact ON run_artifact (artifact);
      CREATE TABLE resolve_queue (
        iri TEXT PRIMARY KEY,
        queued_at TEXT NOT NULL,
        attempts INTEGER NOT NULL DEFAULT 0,
        next_attempt_at TEXT,
        last_error TEXT
      );`,
  },
];

/** Applies every migration newer than the recorded version, each in its own transaction. */
export function applyMigrations(db: BetterSqlite3.Database): void {
  const current = db.pragma('user_version', { simple: true }) as number;
  for (const migration of MIGRATIONS.filter((m) => m.id > current)) {
    db.transaction(() => {
      db.exec(migration.sql);
      db.pragma(`user_version = ${migration.id}`);
    })();
  }
}
