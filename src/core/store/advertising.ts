import type { Database } from './database.js';

/** The run a deployment advertised under `key` before, if any. */
export function findRunByKey(db: Database, instance: string, key: string): string | undefined {
  const row = db
    .prepare('SELECT run FROM run_key WHERE instance = ? AND external_key = ?')
    .get(instance, key) as { run: string } | undefined;
  return row?.run;
}

/** Records that `run` is the deployment's run for `key`; call inside the advertising transaction. */
export function insertRunKey(db: Database, instance: string, key: string, run: string, at: string): void {
  db.prepare('INSERT INTO run_key (instance, external_key, run, created_at) VALUES (?, ?, ?, ?)').run(
    instance,
    key,
    run,
    at,
  );
}

/** The artifact a deployment advertised under `key` before, if any. */
export function findArtifactByKey(db: Database, instance: string, key: string): string | undefined {
  const row = db
    .prepare('SELECT artifact FROM artifact_key WHERE instance = ? AND key = ?')
    .get(instance, key) as { artifact: string } | undefined;
  return row?.artifact;
}

/** Records that `artifact` is the deployment's artifact for `key`; call inside the advertising transaction. */
export function insertArtifactKey(
  db: Database,
  instance: string,
  key: string,
  artifact: string,
  at: string,
): void {
  db.prepare('INSERT INTO artifact_key (instance, key, artifact, created_at) VALUES (?, ?, ?, ?)').run(
    instance,
    key,
    artifact,
    at,
  );
}

/** Whether `(run, artifact, role)` was already claimed. */
export function isClaimed(db: Database, run: string, artifact: string, role: string): boolean {
  return (
    db
      .prepare('SELECT 1 FROM run_artifact WHERE run = ? AND artifact = ? AND role = ?')
      .get(run, artifact, role) !== undefined
  );
}

/** Claims `(run, artifact, role)`; returns false when it was claimed already. */
export function claim(db: Database, run: string, artifact: string, role: string, at: string): boolean {
  return (
    db
      .prepare('INSERT OR IGNORE INTO run_artifact (run, artifact, role, claimed_at) VALUES (?, ?, ?, ?)')
      .run(run, artifact, role, at).changes === 1
  );
}

/** Queues a foreign IRI for the resolver; a queued IRI stays queued once. */
export function queueForResolution(db: Database, iri: string, at: string): void {
  db.prepare('INSERT OR IGNORE INTO resolve_queue (iri, queued_at) VALUES (?, ?)').run(iri, at);
}

/** The artifacts a run claimed in a role, oldest claim first. */
export function artifactsOfRun(db: Database, run: string, role: string): string[] {
  return (
    db
      .prepare('SELECT artifact FROM run_artifact WHERE run = ? AND role = ? ORDER BY claimed_at, artifact')
      .all(run, role) as {
      artifact: string;
    }[]
  ).map((row) => row.artifact);
}

/** The advertising rows a record implies: a run's key, an artifact's key, a run's claim of an artifact. */
export interface AdvertisingRows {
  readonly runKeys: readonly { instance: string; key: string; run: string }[];
  readonly artifactKeys: readonly { instance: string; key: string; artifact: string }[];
  readonly claims: readonly { run: string; artifact: string; role: 'produced' | 'consumed' }[];
}

/** Adds advertising rows that are missing (rows already there are kept); returns how many were added. */
export function addAdvertisingRows(db: Database, rows: AdvertisingRows, at: string): number {
  const runKey = db.prepare(
    'INSERT OR IGNORE INTO run_key (instance, external_key, run, created_at) VALUES (?, ?, ?, ?)',
  );
  const artifactKey = db.prepare(
    'INSERT OR IGNORE INTO artifact_key (instance, key, artifact, created_at) VALUES (?, ?, ?, ?)',
  );
  const claimRow = db.prepare(
    'INSERT OR IGNORE INTO run_artifact (run, artifact, role, claimed_at) VALUES (?, ?, ?, ?)',
  );
  return db.transaction(() => {
    let added = 0;
    for (const row of rows.runKeys) added += runKey.run(row.instance, row.key, row.run, at).changes;
    for (const row of rows.artifactKeys)
      added += artifactKey.run(row.instance, row.key, row.artifact, at).changes;
    for (const row of rows.claims) added += claimRow.run(row.run, row.artifact, row.role, at).changes;
    return added;
  });
}
