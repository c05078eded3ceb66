import type { Database } from '../database.js';
import { canonicalText, linesOf } from '../nquads.js';
import { readRecord, writeRecord } from './embedded/record-table.js';

/**
 * Merges lines into a record: with `replace` the record becomes exactly these lines, otherwise the union of
 * what it held and these. Returns how many of the lines were not already present; `written` hears the record's
 * lines when it changed, and whether the record is new (`fresh`: it had no row before).
 */
export function mergeRecord(
  db: Database,
  target: { graph: string; subject: string; lines: readonly string[]; kind: string | null; replace: boolean },
  now: string,
  written?: (lines: readonly string[], fresh: boolean) => void,
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
      kind: target.kind,
    },
    now,
  );
  written?.(linesOf(nquads), before === undefined);
  return fresh.size;
}
