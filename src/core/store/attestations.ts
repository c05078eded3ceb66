/**
 * Every build attestation the registry accepted, kept byte for byte as it was received (a bare in-toto statement,
 * a DSSE envelope or a Sigstore bundle), under the digest of the statement it carries, with the outcome of its
 * signature check and the artifacts it speaks of.
 */
import type { Database } from './database.js';

/** One kept attestation. */
export interface KeptAttestation {
  readonly id: string;
  readonly mediaType: string;
  readonly body: Buffer;
  readonly predicateType: string;
  readonly kind: string;
  readonly run: string | null;
  readonly sender: string;
  readonly verification: unknown;
  readonly build: unknown;
  /** What the registry answered when it accepted the attestation, given again to a repeat. */
  readonly answer: unknown;
  readonly receivedAt: string;
}

interface AttestationRow {
  id: string;
  media_type: string;
  body: Buffer;
  predicate_type: string;
  kind: string;
  run: string | null;
  sender: string;
  verification: string;
  build: string | null;
  answer: string;
  received_at: string;
}

const present = (row: AttestationRow): KeptAttestation => ({
  id: row.id,
  mediaType: row.media_type,
  body: row.body,
  predicateType: row.predicate_type,
  kind: row.kind,
  run: row.run,
  sender: row.sender,
  verification: JSON.parse(row.verification) as unknown,
  build: row.build === null ? null : (JSON.parse(row.build) as unknown),
  answer: JSON.parse(row.answer) as unknown,
  receivedAt: row.received_at,
});

/** The attestation kept under `id`, if any. */
export function findAttestation(db: Database, id: string): KeptAttestation | undefined {
  const row = db.prepare('SELECT * FROM attestation WHERE id = ?').get(id) as AttestationRow | undefined;
  return row === undefined ? undefined : present(row);
}

/** Keeps an attestation and the artifacts it names; must run inside the write's transaction. */
export function keepAttestation(
  db: Database,
  kept: Omit<KeptAttestation, 'answer'> & { readonly answer: unknown },
  subjects: readonly string[],
): void {
  db.prepare(
    `INSERT INTO attestation (id, media_type, body, predicate_type, kind, run, sender, verification, build, answer,
       received_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING`,
  ).run(
    kept.id,
    kept.mediaType,
    kept.body,
    kept.predicateType,
    kept.kind,
    kept.run,
    kept.sender,
    JSON.stringify(kept.verification),
    kept.build === null ? null : JSON.stringify(kept.build),
    JSON.stringify(kept.answer),
    kept.receivedAt,
  );
  const link = db.prepare(
    'INSERT INTO attestation_subject (attestation, artifact) VALUES (?, ?) ON CONFLICT DO NOTHING',
  );
  for (const artifact of new Set(subjects)) link.run(kept.id, artifact);
}

/** The attestations a run was recorded from, oldest first. */
export function attestationsOfRun(db: Database, run: string): KeptAttestation[] {
  const rows = db
    .prepare('SELECT * FROM attestation WHERE run = ? ORDER BY received_at, id')
    .all(run) as AttestationRow[];
  return rows.map(present);
}

/** The attestations that name an artifact as their subject, oldest first. */
export function attestationsOfArtifact(db: Database, artifact: string): KeptAttestation[] {
  const rows = db
    .prepare(
      `SELECT a.* FROM attestation_subject s JOIN attestation a ON a.id = s.attestation
       WHERE s.artifact = ? ORDER BY a.received_at, a.id`,
    )
    .all(artifact) as AttestationRow[];
  return rows.map(present);
}
