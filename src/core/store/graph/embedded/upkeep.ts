import type { Logger } from '../../../log.js';
import type { Database } from '../../database.js';
import { lineageRefillPosition, refillLineageIndex } from '../../lineage/lineage-index.js';
import type { SearchReader } from '../../search-entry.js';
import {
  catchUpSearchRows,
  rebuildSearchIndex,
  searchPending,
  searchRebuildDue,
} from '../../search-index.js';
import { recordsAfter } from './record-table.js';

/**
 * The embedded store's derived indexes in `registry.db` brought up to date in the background, a batch at a time,
 * while the registry serves: the lineage index refilled from the records (after an upgrade that adds to it), the
 * search index rebuilt (search answers `partial` meanwhile), and the search rows of large commits, which follow
 * them. Each runs once at a time; `close` waits for them, and they stop at their next batch.
 */
export class Upkeep {
  private searchRebuild: Promise<void> | undefined;
  private searchCatchUp: Promise<void> | undefined;
  private lineageRefill: Promise<void> | undefined;

  constructor(
    private readonly db: Database,
    private readonly search: SearchReader,
    private readonly log: Logger,
    private readonly closing: () => boolean,
  ) {}

  /** Starts refilling the lineage index, when it is to be filled. */
  fillLineage(): void {
    if (lineageRefillPosition(this.db) === undefined) return;
    this.lineageRefill ??= refillLineageIndex(this.db, recordsAfter(this.db), {
      stopped: this.closing,
      log: this.log,
    }).finally(() => {
      this.lineageRefill = undefined;
    });
  }

  /** Starts rebuilding the search index when it is due, and bringing pending search rows up to date. */
  fillSearch(): void {
    if (searchRebuildDue(this.db, this.search)) this.searchRebuild ??= this.rebuildSearch();
    this.catchUp();
  }

  /** Brings the search rows that commits left pending up to date, unless that already runs. */
  catchUp(): void {
    if (searchPending(this.db)) this.searchCatchUp ??= this.catchUpSearch();
  }

  /** Resolves when the lineage refill under way (if any) has ended. */
  async lineageFilled(): Promise<void> {
    await this.lineageRefill;
  }

  /** Waits for what runs (each stops at its next batch once the store is closing). */
  async close(): Promise<void> {
    await this.searchRebuild;
    await this.searchCatchUp;
    await this.lineageRefill;
  }

  /** Brings the search rows of large commits up to date, a few records per step, after they committed. */
  private async catchUpSearch(): Promise<void> {
    try {
      // Commits that list more records while this runs are taken in the same pass.
      await new Promise((resolve) => setImmediate(resolve));
      await catchUpSearchRows(this.db, this.search, this.closing);
    } catch (error) {
      this.log.error('bringing search rows up to date failed', { detail: (error as Error).message });
    } finally {
      this.searchCatchUp = undefined;
    }
    if (!this.closing()) this.catchUp();
  }

  /**
   * Refills the search index from the records, a batch at a time (search answers `partial` meanwhile), so a start
   * after a restore or an upgrade is not held up by it.
   */
  private async rebuildSearch(): Promise<void> {
    const started = Date.now();
    try {
      const records = await rebuildSearchIndex(this.db, this.search, this.closing);
      if (!this.closing()) this.log.info('search index rebuilt', { records, ms: Date.now() - started });
    } catch (error) {
      this.log.error('search index rebuild failed', { detail: (error as Error).message });
    } finally {
      this.searchRebuild = undefined;
    }
  }
}
