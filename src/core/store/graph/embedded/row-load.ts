import type { Database } from '../../database.js';
import { markSearchStale } from '../../search-index.js';
import { markLineageStale } from '../../lineage-index.js';
import { mergeRecord } from '../record-merge.js';
import type { BulkLoad, KindOfLines, MergeTarget } from '../types.js';
import { readRecord } from './record-table.js';

/**
 * A bulk load into the embedded store: record rows merged inside one SQLite transaction, opened here and
 * committed by `finish` (all or nothing). Counts follow by the record table's triggers; the search and lineage
 * indexes are marked stale and refilled from the records at the next start.
 */
export class RowLoad implements BulkLoad {
  readonly atomic = true;
  private readonly now = new Date().toISOString();

  constructor(
    private readonly db: Database,
    private readonly kindOf: KindOfLines,
  ) {
    db.exec('BEGIN');
  }

  exists(graph: string, subject: string): Promise<boolean> {
    return Promise.resolve(readRecord(this.db, graph, subject) !== undefined);
  }

  merge(target: MergeTarget): Promise<number> {
    const kind = this.kindOf(target.subject, target.lines);
    return Promise.resolve(mergeRecord(this.db, { ...target, kind }, this.now));
  }

  finish(ops: () => void, changed: boolean): Promise<void> {
    if (changed) {
      markSearchStale(this.db);
      markLineageStale(this.db, 'embedded');
    }
    ops();
    this.db.exec('COMMIT');
    return Promise.resolve();
  }

  abort(): void {
    this.db.exec('ROLLBACK');
  }
}
