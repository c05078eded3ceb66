import type { Database } from '../database.js';
import { canonicalText, linesOf } from '../nquads.js';
import { readRecord, writeRecord } from './record-table.js';

/**
 * A staging area for a bulk restore: lines are collected in a temporary table keyed by (graph, record), then
 * merged into the records group by group. Everything happens inside the caller's transaction, so a failure
 * anywhere leaves the store untouched.
 */
export class RestoreStage {
  constructor(private readonly db: Database) {
    db.exec(
      'CREATE TEMP TABLE IF NOT EXISTS restore_stage (graph TEXT NOT NULL, owner TEXT NOT NULL, line TEXT NOT NULL)',
    );
    db.exec('DELETE FROM temp.restore_stage');
  }

  /** Adds one canonical N-Quads line belonging to record `owner` of `graph`. */
  add(graph: string, owner: string, line: string): void {
    this.db
      .prepare('INSERT INTO temp.restore_stage (graph, owner, line) VALUES (?, ?, ?)')
      .run(graph, owner, line);
  }

  /** Yields each staged record's key and lines, in (graph, owner) order. */
  *groups(): Generator<{ graph: string; owner: string; lines: string[] }> {
    this.db.exec('CREATE INDEX IF NOT EXISTS temp.restore_stage_key ON restore_stage (graph, owner)');
    const keys = this.db.prepare(
      'SELECT DISTINCT graph, owner FROM temp.restore_stage WHERE (graph, owner) > (?, ?) ORDER BY graph, owner LIMIT 500',
    );
    const lines = this.db
      .prepare('SELECT line FROM temp.restore_stage WHERE graph = ? AND owner = ?')
      .pluck();
    let cursor: [string, string] = ['', ''];
    for (;;) {
      const page = keys.all(cursor[0], cursor[1]) as { graph: string; owner: string }[];
      for (const key of page) yield { ...key, lines: lines.all(key.graph, key.owner) as string[] };
      const last = page.at(-1);
      if (last === undefined || page.length < 500) return;
      cursor = [last.graph, last.owner];
    }
  }

  /** Drops the staged lines. */
  clear(): void {
    this.db.exec('DELETE FROM temp.restore_stage');
  }
}

/**
 * Merges lines into a record: with `replace` the record becomes exactly these lines, otherwise the union of
 * what it held and these. Returns how many of the lines were not already present.
 */
export function mergeRecord(
  db: Database,
  target: { graph: string; subject: string; lines: readonly string[]; kind: string | null; replace: boolean },
  now: string,
): number {
  const before = readRecord(db, target.graph, target.subject);
  const existing = new Set(before === undefined ? [] : linesOf(before.nquads));
  const fresh = new Set(target.lines.filter((line) => !existing.has(line)));
  if (fresh.size === 0 && (!target.replace || existing.size === new Set(target.lines).size)) return 0;
  const nquads = canonicalText(target.replace ? target.lines : [...existing, ...fresh]);
  writeRecord(
    db,
    {
      graph: target.graph,
      subject: target.subject,
      nquads,
      quadCount: linesOf(nquads).length,
      kind: target.kind,
    },
    now,
  );
  return fresh.size;
}
