import type { Database } from '../../database.js';
import { markSearchStale } from '../../search-index.js';
import { indexRecordLineage, lineageIndexReady, markLineageStale } from '../../lineage/lineage-index.js';
import { mergeRecord } from '../record-merge.js';
import type { BulkLoad, KindOfLines, MergeTarget } from '../types.js';
import { readRecord } from './record-table.js';

/**
 * A bulk load into the embedded store: record rows merged inside one SQLite transaction, opened here and
 * committed by `finish` (all or nothing). Counts follow by the record table's triggers. A complete lineage index
 * is kept current as records are merged (the load's readers, advertising keys and the stranded-term check, read
 * it afterwards); an incomplete one is marked to be refilled from the records. The search index is marked stale
 * and rebuilt from the records in the background at the next start.
 */
export class RowLoad implements BulkLoad {
  readonly atomic = true;
  private readonly now = new Date().toISOString();
  private readonly lineageKept: boolean;

  constructor(
    private readonly db: Database,
    private readonly kindOf: KindOfLines,
  ) {
    db.exec('BEGIN');
    this.lineageKept = lineageIndexReady(db);
  }

  exists(graph: string, subject: string): Promise<boolean> {
    return Promise.resolve(readRecord(this.db, graph, subject) !== undefined);
  }

  merge(target: MergeTarget): Promise<number> {
    const kind = this.kindOf(target.subject, target.lines);
    const written = this.lineageKept
      ? (lines: readonly string[], fresh: boolean) =>
          indexRecordLineage(this.db, target.graph, target.subject, lines, fresh)
      : undefined;
    return Promise.resolve(mergeRecord(this.db, { ...target, kind }, this.now, written));
  }

  finish(ops: () => void, changed: boolean): Promise<void> {
    if (changed) {
      markSearchStale(this.db);
      if (!this.lineageKept) markLineageStale(this.db, 'embedded');
    }
    ops();
    this.db.exec('COMMIT');
    return Promise.resolve();
  }

  abort(): void {
    this.db.exec('ROLLBACK');
  }
}
