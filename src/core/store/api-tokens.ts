import type { Database } from './database.js';

/** What a registry API token stands for: one deployment, or one software shared by its deployments. */
export type TokenSubjectKind = 'instance' | 'software';

/** One API token row; the digest is the SHA-256 of the whole token and never leaves core. */
export interface ApiTokenRow {
  readonly id: string;
  readonly prefix: string;
  readonly digest: Buffer;
  readonly instance_iri: string | null;
  readonly software_iri: string | null;
  readonly subject_kind: TokenSubjectKind;
  /** JSON array of scope names. */
  readonly scopes: string;
  readonly label: string | null;
  readonly created_at: string;
  readonly created_by: string | null;
  readonly expires_at: string | null;
  readonly last_used_at: string | null;
  readonly revoked_at: string | null;
}

/** The record a token belongs to, as the token table names it. */
export interface TokenOwner {
  readonly kind: TokenSubjectKind;
  readonly iri: string;
}

const COLUMNS = `id, prefix, digest, instance_iri, software_iri, subject_kind, scopes, label, created_at,
  created_by, expires_at, last_used_at, revoked_at`;

const ownerColumn = (owner: TokenOwner): string =>
  owner.kind === 'instance' ? 'instance_iri' : 'software_iri';

/** Inserts a token row; call it inside the transaction that audits the mint. */
export function insertApiToken(db: Database, row: ApiTokenRow): void {
  db.prepare(
    `INSERT INTO api_token (${COLUMNS}) VALUES (@id, @prefix, @digest, @instance_iri, @software_iri,
    @subject_kind, @scopes, @label, @created_at, @created_by, @expires_at, @last_used_at, @revoked_at)`,
  ).run(row);
}

/** Whether a token with this prefix exists (prefixes are unique). */
export function apiTokenPrefixTaken(db: Database, prefix: string): boolean {
  return db.prepare('SELECT 1 FROM api_token WHERE prefix = ?').get(prefix) !== undefined;
}

/** The token with this prefix, whatever its state; the caller checks digest, revocation and expiry. */
export function findApiTokenByPrefix(db: Database, prefix: string): ApiTokenRow | undefined {
  return db.prepare(`SELECT ${COLUMNS} FROM api_token WHERE prefix = ?`).get(prefix) as
    ApiTokenRow | undefined;
}

/** One token of one owner, or undefined when the id names no token of that owner. */
export function findOwnedApiToken(db: Database, owner: TokenOwner, id: string): ApiTokenRow | undefined {
  return db
    .prepare(`SELECT ${COLUMNS} FROM api_token WHERE id = ? AND ${ownerColumn(owner)} = ?`)
    .get(id, owner.iri) as ApiTokenRow | undefined;
}

/** Every token of one owner, revoked and expired ones included, newest first. */
export function listApiTokens(db: Database, owner: TokenOwner): ApiTokenRow[] {
  return db
    .prepare(
      `SELECT ${COLUMNS} FROM api_token WHERE ${ownerColumn(owner)} = ? ORDER BY created_at DESC, id DESC`,
    )
    .all(owner.iri) as ApiTokenRow[];
}

/** Tokens of a deployment that still work at `now`: not revoked, not expired. */
export function countLiveApiTokens(db: Database, instanceIri: string, now: string): number {
  const row = db
    .prepare(
      `SELECT count(*) AS n FROM api_token WHERE instance_iri = ? AND revoked_at IS NULL
         AND (expires_at IS NULL OR expires_at > ?)`,
    )
    .get(instanceIri, now) as { n: number };
  return row.n;
}

/** Marks a token revoked at `at`; a token already revoked keeps its first revocation time. */
export function revokeApiToken(db: Database, id: string, at: string): boolean {
  return (
    db.prepare('UPDATE api_token SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL').run(at, id)
      .changes > 0
  );
}

/** Sets when a token expires (null: never); revocation is untouched. */
export function setApiTokenExpiry(db: Database, id: string, expiresAt: string | null): void {
  db.prepare('UPDATE api_token SET expires_at = ? WHERE id = ?').run(expiresAt, id);
}

/**
 * Records a use at `at`, unless one was recorded after `since`: at most one write per token per interval, so
 * authenticating a request does not cost a commit.
 */
export function touchApiToken(db: Database, id: string, at: string, since: string): void {
  db.prepare(
    'UPDATE api_token SET last_used_at = ? WHERE id = ? AND (last_used_at IS NULL OR last_used_at <= ?)',
  ).run(at, id, since);
}

/** How many API tokens were ever issued, revoked ones included. */
export function countApiTokens(db: Database): number {
  return (db.prepare('SELECT count(*) AS n FROM api_token').get() as { n: number }).n;
}
