import type BetterSqlite3 from 'better-sqlite3';

/** One numbered schema change. */
export interface Migration {
  readonly id: number;
  readonly name: string;
  readonly sql: string;
}

/**
 * Every schema change, in order. The database records the highest id applied in its `user_version`; an entry
 * is never edited once released, only followed by a new one.
 */
export const MIGRATIONS: readonly Migration[] = [
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
  {
    id: 7,
    name: 'free-text search index (filled from the records at the next start)',
    // A frozen copy: a released migration never changes with the live schema (search-index.ts).
    sql: `
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
  );`,
  },
  {
    id: 8,
    name: 'subscriptions and their delivery queue',
    // One queue serves pull and webhook delivery: `seq` is the pull cursor, `next_attempt_at` is set only while
    // the webhook worker should try the row. The generation counter lets the advertising path keep compiled
    // filters in memory and notice any change that matters to queueing (filter, owner, enabled, webhook, state)
    // with one read.
    sql: `
      CREATE TABLE subscription (
        id TEXT PRIMARY KEY,
        instance_iri TEXT NOT NULL,
        label TEXT,
        filter TEXT NOT NULL,
        webhook_url TEXT,
        webhook_secret TEXT,
        enabled INTEGER NOT NULL DEFAULT 1,
        delivery_state TEXT NOT NULL DEFAULT 'active' CHECK (delivery_state IN ('active', 'suspended')),
        consecutive_failures INTEGER NOT NULL DEFAULT 0,
        cursor_seq INTEGER NOT NULL DEFAULT 0,
        created_at TEXT NOT NULL,
        created_by TEXT,
        updated_at TEXT NOT NULL,
        last_match_at TEXT,
        last_success_at TEXT,
        last_error TEXT,
        last_error_at TEXT,
        last_polled_at TEXT
      );
      CREATE INDEX subscription_instance ON subscription (instance_iri, created_at);
      CREATE TABLE delivery (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        id TEXT NOT NULL UNIQUE,
        subscription_id TEXT NOT NULL REFERENCES subscription (id) ON DELETE CASCADE,
        artifact_iri TEXT NOT NULL,
        run_iri TEXT,
        role TEXT NOT NULL CHECK (role IN ('produced', 'consumed')),
        instance_iri TEXT,
        software_iri TEXT,
        matched_at TEXT NOT NULL,
        status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'failed', 'dead', 'delivered')),
        attempts INTEGER NOT NULL DEFAULT 0,
        last_attempt_at TEXT,
        next_attempt_at TEXT,
        last_error TEXT,
        last_status INTEGER,
        delivered_at TEXT,
        notification TEXT
      );
      CREATE INDEX delivery_subscription ON delivery (subscription_id, seq);
      CREATE INDEX delivery_due ON delivery (next_attempt_at) WHERE next_attempt_at IS NOT NULL;
      CREATE TABLE subscription_generation (
        only INTEGER PRIMARY KEY CHECK (only = 1),
        n INTEGER NOT NULL
      );
      INSERT INTO subscription_generation (only, n) VALUES (1, 0);
      CREATE TRIGGER subscription_generation_insert AFTER INSERT ON subscription BEGIN
        UPDATE subscription_generation SET n = n + 1;
      END;
      CREATE TRIGGER subscription_generation_delete AFTER DELETE ON subscription BEGIN
        UPDATE subscription_generation SET n = n + 1;
      END;
      CREATE TRIGGER subscription_generation_update
        AFTER UPDATE OF instance_iri, filter, enabled, webhook_url, delivery_state ON subscription BEGIN
        UPDATE subscription_generation SET n = n + 1;
      END;`,
  },
  {
    id: 9,
    name: 'forge sync: conditional-request cache, rate-limit backoff, next-due times',
    // Answers are kept per URL and credential kind with their ETag, so an unchanged repository costs a 304
    // (which the forges do not count against the rate limit). A forge that answered "rate limited" is left
    // alone until its reset time; each connected software is synced again when its next-due time passes.
    sql: `
      CREATE TABLE forge_response (
        url TEXT NOT NULL,
        credential TEXT NOT NULL,
        etag TEXT NOT NULL,
        body TEXT NOT NULL,
        fetched_at TEXT NOT NULL,
        PRIMARY KEY (url, credential)
      );
      CREATE TABLE forge_limit (
        api_base TEXT NOT NULL,
        credential TEXT NOT NULL,
        limited_until TEXT NOT NULL,
        reason TEXT NOT NULL,
        PRIMARY KEY (api_base, credential)
      );
      CREATE TABLE forge_sync_due (
        software TEXT PRIMARY KEY,
        next_due_at TEXT NOT NULL,
        last_run_at TEXT
      );`,
  },
  {
    id: 10,
    name: 'federation: peer review and contact, resolution state, federated query ids',
    // A peer remembers who suggested it and when its description was last read; a queued foreign IRI remembers
    // which peer holds it, whether it resolved, and when. A federated query id is claimed once per registry, so a
    // query that comes back round a ring of peers is answered `already_handled`.
    sql: `
      ALTER TABLE peer ADD COLUMN suggested_by TEXT;
      ALTER TABLE peer ADD COLUMN software_version TEXT;
      ALTER TABLE peer ADD COLUMN described_at TEXT;
      ALTER TABLE peer ADD COLUMN last_contact_at TEXT;
      CREATE INDEX peer_state ON peer (state, added_at);
      ALTER TABLE resolve_queue ADD COLUMN status TEXT NOT NULL DEFAULT 'queued'
        CHECK (status IN ('queued', 'resolved', 'failed', 'no-peer'));
      ALTER TABLE resolve_queue ADD COLUMN peer_id TEXT;
      ALTER TABLE resolve_queue ADD COLUMN resolved_at TEXT;
      ALTER TABLE resolve_queue ADD COLUMN last_attempt_at TEXT;
      CREATE INDEX resolve_queue_due ON resolve_queue (status, next_attempt_at);
      CREATE INDEX resolve_queue_peer ON resolve_queue (peer_id);
      CREATE TABLE federated_query (
        id TEXT PRIMARY KEY,
        seen_at TEXT NOT NULL,
        origin TEXT,
        hops INTEGER
      );
      CREATE INDEX federated_query_seen ON federated_query (seen_at);`,
  },
  {
    id: 11,
    name: 'external graph store: the registry index of its records on the server',
    // Used only with REG_SPARQL_ENDPOINT: which subjects each record's quads have (a record is read with one
    // SELECT over them), lines asserted about outside subjects, lines the server keeps in another lexical form
    // (and typed lines written but not yet read back), counts kept by triggers, and the undo of a graph update
    // whose operational rows are not committed yet.
    sql: `
      CREATE TABLE external_record (
        graph TEXT NOT NULL,
        subject TEXT NOT NULL,
        kind TEXT,
        quad_count INTEGER NOT NULL,
        rewrites TEXT,
        unverified TEXT,
        version INTEGER NOT NULL DEFAULT 1,
        PRIMARY KEY (graph, subject)
      );
      CREATE TABLE external_subject (
        graph TEXT NOT NULL,
        record TEXT NOT NULL,
        subject TEXT NOT NULL,
        PRIMARY KEY (graph, record, subject)
      );
      CREATE TABLE external_shared_line (
        graph TEXT NOT NULL,
        record TEXT NOT NULL,
        line TEXT NOT NULL,
        PRIMARY KEY (graph, record, line)
      );
      CREATE INDEX external_shared_line_line ON external_shared_line (graph, line);
      CREATE TABLE external_stats (
        graph TEXT NOT NULL,
        kind TEXT NOT NULL,
        records INTEGER NOT NULL,
        quads INTEGER NOT NULL,
        PRIMARY KEY (graph, kind)
      );
      CREATE TRIGGER external_stats_insert AFTER INSERT ON external_record BEGIN
        INSERT INTO external_stats (graph, kind, records, quads) VALUES (new.graph, coalesce(new.kind, ''), 1, new.quad_count)
          ON CONFLICT (graph, kind) DO UPDATE SET records = records + 1, quads = quads + excluded.quads;
      END;
      CREATE TRIGGER external_stats_delete AFTER DELETE ON external_record BEGIN
        UPDATE external_stats SET records = records - 1, quads = quads - old.quad_count
          WHERE graph = old.graph AND kind = coalesce(old.kind, '');
      END;
      CREATE TRIGGER external_stats_update AFTER UPDATE OF graph, kind, quad_count ON external_record BEGIN
        UPDATE external_stats SET records = records - 1, quads = quads - old.quad_count
          WHERE graph = old.graph AND kind = coalesce(old.kind, '');
        INSERT INTO external_stats (graph, kind, records, quads) VALUES (new.graph, coalesce(new.kind, ''), 1, new.quad_count)
          ON CONFLICT (graph, kind) DO UPDATE SET records = records + 1, quads = quads + excluded.quads;
      END;
      CREATE TABLE external_intent (
        id INTEGER PRIMARY KEY,
        created_at TEXT NOT NULL,
        undo TEXT NOT NULL
      );`,
  },
  {
    id: 12,
    name: 'announced peer suggestions: the network each announcement came from',
    // Bounds per announcer need to know who announced a suggestion; rows from before have no announcer.
    sql: `
      ALTER TABLE peer ADD COLUMN announced_from TEXT;
      CREATE INDEX peer_announced ON peer (state, announced_from, added_at);`,
  },
  {
    id: 13,
    name: 'search rows of large commits, brought up to date after the commit',
    sql: `
      CREATE TABLE search_pending (
        graph TEXT NOT NULL,
        subject TEXT NOT NULL,
        PRIMARY KEY (graph, subject)
      ) WITHOUT ROWID;`,
  },
  {
    id: 14,
    name: 'OpenLineage events, every one kept as received',
    // The subject is the run a RunEvent reported, the dataset series of a DatasetEvent, or the job of a JobEvent.
    sql: `
      CREATE TABLE openlineage_event (
        id INTEGER PRIMARY KEY,
        subject TEXT NOT NULL,
        kind TEXT NOT NULL,
        digest TEXT NOT NULL,
        event_type TEXT,
        event_time TEXT NOT NULL,
        received_at TEXT NOT NULL,
        body TEXT NOT NULL,
        UNIQUE (subject, digest)
      );
      CREATE INDEX openlineage_event_subject ON openlineage_event (subject, event_time, id);`,
  },
  {
    id: 15,
    name: 'administrator tokens, kept as digests',
    // Administrator tokens: the one a new registry without REG_ROOT_TOKEN creates at its first start. Only the
    // SHA-256 of each token is kept.
    sql: `
      CREATE TABLE admin_token (
        id TEXT PRIMARY KEY,
        digest BLOB NOT NULL UNIQUE,
        label TEXT NOT NULL,
        created_at TEXT NOT NULL,
        revoked_at TEXT
      );`,
  },
  {
    id: 16,
    name: 'build attestations, every one kept as received',
    // An attestation is named by the digest of its statement; its subjects are the artifacts it speaks of.
    sql: `
      CREATE TABLE attestation (
        id TEXT PRIMARY KEY,
        media_type TEXT NOT NULL,
        body BLOB NOT NULL,
        predicate_type TEXT NOT NULL,
        kind TEXT NOT NULL,
        run TEXT,
        sender TEXT NOT NULL,
        verification TEXT NOT NULL,
        build TEXT,
        answer TEXT NOT NULL,
        received_at TEXT NOT NULL
      );
      CREATE INDEX attestation_run ON attestation (run, received_at);
      CREATE TABLE attestation_subject (
        attestation TEXT NOT NULL REFERENCES attestation (id),
        artifact TEXT NOT NULL,
        PRIMARY KEY (artifact, attestation)
      ) WITHOUT ROWID;`,
  },
  {
    id: 17,
    name: 'webhook payload formats and signature schemes, secret rotation, and the log of delivery attempts',
    // A rotated secret keeps signing beside the new one until previous_secret_until. A redelivery re-arms a
    // delivery with a fresh retry budget counted from budget_start. Each attempt is kept in delivery_attempt
    // (removed with its delivery); finished deliveries are pruned by the age of their last attempt.
    sql: `
      ALTER TABLE subscription ADD COLUMN format TEXT NOT NULL DEFAULT 'reg'
        CHECK (format IN ('reg', 'cloudevents', 'cdevents'));
      ALTER TABLE subscription ADD COLUMN signature TEXT NOT NULL DEFAULT 'reg'
        CHECK (signature IN ('reg', 'standard-webhooks'));
      ALTER TABLE subscription ADD COLUMN previous_secret TEXT;
      ALTER TABLE subscription ADD COLUMN previous_secret_until TEXT;
      ALTER TABLE delivery ADD COLUMN budget_start INTEGER NOT NULL DEFAULT 0;
      CREATE INDEX delivery_finished ON delivery (coalesce(last_attempt_at, delivered_at, matched_at))
        WHERE status IN ('delivered', 'dead');
      CREATE TABLE delivery_attempt (
        id INTEGER PRIMARY KEY,
        delivery_seq INTEGER NOT NULL REFERENCES delivery (seq) ON DELETE CASCADE,
        subscription_id TEXT NOT NULL,
        attempt INTEGER NOT NULL,
        at TEXT NOT NULL,
        status INTEGER,
        duration_ms INTEGER NOT NULL,
        response TEXT,
        error TEXT,
        retry_at TEXT
      );
      CREATE INDEX delivery_attempt_subscription ON delivery_attempt (subscription_id, id);
      CREATE INDEX delivery_attempt_delivery ON delivery_attempt (delivery_seq);`,
  },
  {
    id: 18,
    name: 'the dated history of each deployment',
    // One row per deployment event or announcement: what the deployment ran before and after it. `at` is the
    // event's own time; an event is recognised again by its source and id (CloudEvents), per deployment.
    sql: `
      CREATE TABLE deployment_history (
        id INTEGER PRIMARY KEY,
        instance TEXT NOT NULL,
        at TEXT NOT NULL,
        received_at TEXT NOT NULL,
        event_type TEXT NOT NULL,
        event_id TEXT,
        event_source TEXT,
        sender TEXT NOT NULL,
        previous_release TEXT,
        release TEXT,
        previous_version TEXT,
        version TEXT,
        previous_environment TEXT,
        environment TEXT,
        previous_running INTEGER NOT NULL,
        running INTEGER NOT NULL,
        artifact_id TEXT,
        changed INTEGER NOT NULL,
        applied INTEGER NOT NULL,
        event TEXT,
        UNIQUE (instance, event_source, event_id)
      );
      CREATE INDEX deployment_history_instance ON deployment_history (instance, at, id);`,
  },
  {
    id: 19,
    name: 'deliveries found by the artifact they are about',
    // The impact of an artifact names the subscriptions notified about it and what came from it: a lookup by
    // artifact that would otherwise read the whole delivery queue.
    sql: `
      CREATE INDEX delivery_artifact ON delivery (artifact_iri);`,
  },
  {
    id: 20,
    name: 'the lineage index',
    // The links lineage follows and what describes its nodes, per record (src/core/store/lineage/lineage-index.ts). The
    // state row is written by the graph store that opens the database: with none, the index is filled from the
    // records at that open.
    sql: `
      CREATE TABLE lineage_link (
        graph TEXT NOT NULL,
        record TEXT NOT NULL,
        s TEXT NOT NULL,
        p INTEGER NOT NULL,
        o TEXT NOT NULL
      );
      CREATE INDEX lineage_link_from ON lineage_link (s, p);
      CREATE INDEX lineage_link_to ON lineage_link (o, p);
      CREATE INDEX lineage_link_record ON lineage_link (graph, record);
      CREATE TABLE lineage_node (
        graph TEXT NOT NULL,
        record TEXT NOT NULL,
        iri TEXT NOT NULL,
        p INTEGER NOT NULL,
        value TEXT NOT NULL
      );
      CREATE INDEX lineage_node_iri ON lineage_node (iri, p);
      CREATE INDEX lineage_node_record ON lineage_node (graph, record);
      CREATE TABLE lineage_state (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        store TEXT NOT NULL,
        complete INTEGER NOT NULL,
        after_graph TEXT NOT NULL,
        after_subject TEXT NOT NULL
      );`,
  },
  {
    id: 21,
    name: 'software counts in the lineage index',
    // The index now also keeps what software counts are derived from: emptied with its state row, it is filled
    // again from the records when a graph store opens the database.
    sql: `
      DELETE FROM lineage_link;
      DELETE FROM lineage_node;
      DELETE FROM lineage_state;`,
  },
  {
    id: 22,
    name: 'records of a kind in subject order',
    // Unfiltered lists page the records of a kind newest first from these (src/core/store/graph/kind-pages.ts).
    sql: `
      CREATE INDEX record_kind_subject ON record (kind, subject);
      CREATE INDEX external_record_kind_subject ON external_record (kind, subject);`,
  },
  {
    id: 23,
    name: 'types, capabilities and list facets in the lineage index',
    // The index now also keeps conforms-to and capability links and the values list facets count: emptied with
    // its state row, it is filled again from the records when a graph store opens the database.
    sql: `
      DELETE FROM lineage_link;
      DELETE FROM lineage_node;
      DELETE FROM lineage_state;`,
  },
  {
    id: 24,
    name: 'words, keywords, lookups, run releases and content names in the lineage index',
    // The index now also keeps the text lists filter by words and keywords, theme links, the release each run
    // used, and the values records are looked up by (src/core/stored/stating.ts; content names for impact),
    // indexed by value: emptied with its state row, it is filled again from the records when a graph store opens
    // the database.
    sql: `
      DELETE FROM lineage_link;
      DELETE FROM lineage_node;
      DELETE FROM lineage_state;
      CREATE INDEX lineage_node_value ON lineage_node (p, value) WHERE p >= 100;`,
  },
  {
    id: 25,
    name: 'publishers, content identifiers, advertising keys, concepts and links to any IRI in the lineage index',
    // The index now also keeps publisher links and the content identifiers of distributions, which the software
    // and artifact lists filter by; the key and deployment a run or an artifact names by the predicates older
    // records used, from which advertising rows are rebuilt after a restore; concepts, repository sync sources,
    // every other statement linking a node to an IRI and the nodes a record describes without holding them (the
    // graph view, stranded terms, the vocabulary rule's peer check): emptied with its state row, it is filled
    // again from the records when a graph store opens the database.
    sql: `
      DELETE FROM lineage_link;
      DELETE FROM lineage_node;
      DELETE FROM lineage_state;`,
  },
];

/** The schema version this code writes: the id of its last migration. */
export const SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1]?.id ?? 0;

/** Applies every migration newer than the recorded version, each in its own transaction. */
export function applyMigrations(db: BetterSqlite3.Database): void {
  const current = db.pragma('user_version', { simple: true }) as number;
  for (const migration of MIGRATIONS.filter((m) => m.id > current)) {
    db.transaction(() => {
      db.exec(migration.sql);
      db.pragma(`user_version = ${migration.id}`);
    })();
  }
  // A load that set the lookups aside and stopped before building them again leaves them to be built here.
  buildLineageLookups(db);
}

/** Builds the lineage index's lookup indexes that are missing (a bulk load sets them aside). */
export function buildLineageLookups(db: { exec(sql: string): unknown }): void {
  db.exec(Object.values(LINEAGE_LOOKUPS).join(';\n'));
}

/**
 * The lineage index's lookup indexes as the schema defines them: what its readers search by. A bulk load into a
 * nearly empty index sets them aside and builds each once at its end, which is several times faster than keeping
 * them current row by row (`setLineageLookupsAside`).
 */
export const LINEAGE_LOOKUPS: Readonly<Record<string, string>> = {
  lineage_link_from: 'CREATE INDEX IF NOT EXISTS lineage_link_from ON lineage_link (s, p)',
  lineage_link_to: 'CREATE INDEX IF NOT EXISTS lineage_link_to ON lineage_link (o, p)',
  lineage_node_iri: 'CREATE INDEX IF NOT EXISTS lineage_node_iri ON lineage_node (iri, p)',
  lineage_node_value:
    'CREATE INDEX IF NOT EXISTS lineage_node_value ON lineage_node (p, value) WHERE p >= 100',
};
