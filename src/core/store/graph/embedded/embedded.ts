import { UnavailableError } from '../../../errors.js';
import { normaliseBinding } from '../sparql-terms.js';
import type { Logger } from '../../../log.js';
import type { Database } from '../../database.js';
import { canonicalTextOf, linesOf } from '../../nquads.js';
import {
  ensureSearchSchema,
  indexRecordsForSearch,
  deferSearchRows,
  type SearchWrite,
} from '../../search-index.js';
import type { SearchReader } from '../../search-entry.js';
import { claimLineageIndex, indexRecordLineage, lineageIndexReady } from '../../lineage/lineage-index.js';
import { ClientIndex } from './client-index.js';
import type { IndexClient } from './index-client.js';
import { OwnIndex } from './own-index.js';
import {
  countRecordQuads,
  countRecordsByKind,
  deleteRecord,
  dumpRecords,
  readRecord,
  recordGraphs,
  recordsOutside,
  writeRecord,
} from './record-table.js';
import { RowLoad } from './row-load.js';
import { Upkeep } from './upkeep.js';
import { storeMetrics } from '../../../ops/metrics.js';
import type {
  Binding,
  BulkLoad,
  BundleGraph,
  GraphStore,
  KindOfLines,
  QueryBudget,
  QueryDataset,
  QueryForm,
  RecordWrite,
  SparqlResponse,
} from '../types.js';
import type { RecordTables } from '../kind-pages.js';

/**
 * Records a commit may write with their search rows in the same transaction. A larger one (an advertisement of
 * hundreds of artifacts) lists its records instead, and their rows follow a few at a time after it committed:
 * indexing all that text at once would hold the serving thread, and every other request, for a noticeable time.
 * Search answers say `partial` until they are done.
 */
const SEARCH_INLINE_RECORDS = 32;

/** Options of the embedded store. */
export interface EmbeddedOptions {
  /** Time limit of one of the registry's own queries on the index (`REG_SPARQL_TIMEOUT`); none when absent. */
  readonly queryTimeoutMs?: number;
  /** Idle time after which the copy answering client queries is dropped (`REG_SPARQL_INDEX_IDLE`; 0: kept). */
  readonly clientIndexIdleMs?: number;
  /** What records contribute to free-text search, kept current by each commit. */
  readonly search: SearchReader;
  /**
   * When the registry's own copy of the index is loaded (`REG_QUERY_INDEX`): at every start (the default), or at
   * the first of its own queries that needs it, and dropped after `clientIndexIdleMs` without one.
   */
  readonly queryIndex?: 'at-start' | 'on-demand';
}

/**
 * The embedded graph store: SQLite (`registry.db`, one row per record) is the truth; in-memory oxigraph indexes
 * in worker threads answer SPARQL and are loaded from the rows. The registry's own queries go to one copy
 * (`OwnIndex`: loaded at start or on demand, and loaded again at once whenever it fails). Client queries from /sparql go to a second
 * copy, loaded at the first such query and dropped after a while without one: oxigraph cannot interrupt a query,
 * so a client query past its time limit is stopped by stopping its worker, and with its own copy that never
 * holds up, or takes down, the index the API reads from. Both copies get every commit.
 */
export class EmbeddedGraphStore implements GraphStore {
  readonly kind = 'embedded' as const;
  readonly recordTables: RecordTables = { records: 'record', stats: 'record_stats' };
  readonly keepsDefaultGraph = true;
  readonly answersSideBySide = false;
  private opened = false;
  private commits = 0;
  private readonly pending: {
    writes: readonly RecordWrite[];
    ops: () => unknown;
    resolve: (value: unknown) => void;
    reject: (error: unknown) => void;
  }[] = [];
  private readonly upkeep: Upkeep;
  private closing = false;
  /** The registry's own index. */
  private readonly main: OwnIndex;
  /** The copy client queries run on. */
  private readonly clients: ClientIndex;
  /** Whether the registry's own copy is loaded at its first use rather than at start. */
  private readonly onDemand: boolean;

  /**
   * @param index a query index already started (its worker boots while the caller does other start-up work);
   *   when absent, `open()` starts one.
   */
  constructor(
    private readonly db: Database,
    private readonly bundles: readonly BundleGraph[],
    private readonly log: Logger,
    index: IndexClient | undefined = undefined,
    private readonly options: EmbeddedOptions,
  ) {
    // The write path keeps the search rows current, so they must exist before the first write.
    if (ensureSearchSchema(db)) this.log.warn('the search index was missing: it is rebuilt at the next open');
    claimLineageIndex(db, 'embedded', db.prepare('SELECT 1 FROM record LIMIT 1').get() !== undefined);
    this.onDemand = options.queryIndex === 'on-demand';
    this.main = new OwnIndex(db, bundles, log, index, {
      onDemand: this.onDemand,
      idleMs: options.clientIndexIdleMs ?? 0,
      ...(options.queryTimeoutMs === undefined ? {} : { queryTimeoutMs: options.queryTimeoutMs }),
      closing: () => this.closing,
      metrics: () => storeMetrics(this),
    });
    this.clients = new ClientIndex(db, bundles, log, options.clientIndexIdleMs ?? 0);
    this.upkeep = new Upkeep(db, options.search, log, () => this.closing);
  }

  get generation(): number {
    return this.commits;
  }

  /**
   * Ready once open and, at start, once the registry's copy is loaded too; on demand, once the lineage index is
   * complete (it is filled from the records after an upgrade or a restore), since the reads that do not load the
   * query index read it.
   */
  get ready(): boolean {
    return this.opened && !this.closing && (this.onDemand ? lineageIndexReady(this.db) : this.main.ready);
  }

  get notReadyReason(): string {
    return this.onDemand && this.opened
      ? 'the lineage index is still being filled from the records'
      : 'the query index is still loading';
  }

  /** Whether the registry's own copy of the index is loaded or loading, and so holds memory. */
  get indexHeld(): boolean {
    return this.main.held;
  }

  async open(): Promise<void> {
    // Lineage reads its own index, not the query index, so filling it need not wait for the load.
    this.upkeep.fillLineage();
    await this.main.start();
    if (this.closing) throw new UnavailableError('the query index was closed while it loaded');
    this.opened = true;
    this.upkeep.fillSearch();
  }

  lineageFilled(): Promise<void> {
    return this.upkeep.lineageFilled();
  }

  readRecord(graph: string, subject: string): Promise<string | undefined> {
    return Promise.resolve(readRecord(this.db, graph, subject)?.nquads);
  }

  readRecords(graph: string, subjects: readonly string[]): Promise<Map<string, string>> {
    const out = new Map<string, string>();
    for (const subject of subjects) {
      const text = readRecord(this.db, graph, subject)?.nquads;
      if (text !== undefined) out.set(subject, text);
    }
    return Promise.resolve(out);
  }

  /**
   * Queues the commit and flushes the queue on the next turn of the event loop: commits that arrive together
   * (concurrent requests) share one transaction and one flush of the log to disk, which runs off this thread while
   * the next batch commits. Each keeps its own atomicity through a savepoint: one that throws is rolled back alone
   * and rejected, the others commit.
   */
  commit<T>(writes: readonly RecordWrite[], ops: () => T): Promise<T> {
    return storeMetrics(this).timeCommit(
      'embedded',
      () =>
        new Promise<T>((resolve, reject) => {
          this.pending.push({ writes, ops, resolve: resolve as (value: unknown) => void, reject });
          if (this.pending.length === 1) setImmediate(() => void this.flush());
        }),
    );
  }

  private async flush(): Promise<void> {
    // A large commit goes alone, so the small ones queued beside it do not wait for its log and index updates.
    const large = this.pending.findIndex((item) => item.writes.length >= SEARCH_INLINE_RECORDS);
    const batch = this.pending.splice(0, large === -1 ? this.pending.length : Math.max(large, 1));
    if (this.pending.length > 0) setImmediate(() => void this.flush());
    storeMetrics(this).commitBatch.observe(batch.length);
    const now = new Date().toISOString();
    const removed: string[] = [];
    const added: string[] = [];
    const outcomes: (() => void)[] = [];
    // The search rows of every act's records are written after the last act, outside the acts' savepoints: FTS5
    // writes its pending terms to disk at each savepoint, so rows written inside them cost a segment per act.
    const searched: SearchWrite[] = [];
    let deferred = false;
    let durable: Promise<void>;
    try {
      ({ durable } = this.db.transactionDurableLater(() => {
        for (const item of batch) {
          const mine = { removed: [] as string[], added: [] as string[], searched: [] as SearchWrite[] };
          try {
            const deferSearch = item.writes.length >= SEARCH_INLINE_RECORDS;
            deferred ||= deferSearch;
            const act = () => {
              this.applyWrites(item.writes, now, mine, deferSearch);
              return item.ops();
            };
            // A commit alone in its batch needs no savepoint of its own: if it throws, the error leaves the
            // transaction, which rolls back, and the catch below the transaction rejects it.
            const result = batch.length === 1 ? act() : this.db.transaction(act);
            removed.push(...mine.removed);
            added.push(...mine.added);
            searched.push(...mine.searched);
            outcomes.push(() => item.resolve(result));
          } catch (error) {
            if (batch.length === 1) throw error;
            outcomes.push(() => item.reject(error));
          }
        }
        if (searched.length > 0) indexRecordsForSearch(this.db, this.options.search, searched);
      }));
    } catch (error) {
      for (const item of batch) item.reject(error);
      return;
    }
    this.commits++;
    if (deferred) this.upkeep.catchUp();
    // The next batch may commit while this one's log flush runs; no one hears of this one before it is on disk.
    const [flushed] = await Promise.allSettled([durable, this.publish(removed.join(''), added.join(''))]);
    if (flushed.status === 'rejected') {
      for (const item of batch) item.reject(flushed.reason);
      return;
    }
    for (const settle of outcomes) settle();
  }

  private applyWrites(
    writes: readonly RecordWrite[],
    now: string,
    changes: { removed: string[]; added: string[]; searched: SearchWrite[] },
    deferSearch: boolean,
  ): void {
    // The search rows of the records written are brought up to date by the caller, after every act.
    const search = (write: RecordWrite, kind: string | null | undefined): void => {
      if (deferSearch) deferSearchRows(this.db, write.graph, write.subject);
      else changes.searched.push({ ...write, kind });
    };
    for (const write of writes) {
      const before = readRecord(this.db, write.graph, write.subject);
      if (write.quads === null) {
        if (before !== undefined) {
          deleteRecord(this.db, write.graph, write.subject);
          search(write, before.kind);
          indexRecordLineage(this.db, write.graph, write.subject, null);
          changes.removed.push(before.nquads);
        }
        continue;
      }
      const nquads = canonicalTextOf(write.quads);
      if (before?.nquads === nquads && (write.kind === undefined || write.kind === before.kind)) continue;
      writeRecord(
        this.db,
        { graph: write.graph, subject: write.subject, nquads, kind: write.kind ?? null },
        now,
      );
      // Withdrawn records (kind `<kind>:withdrawn`, or carrying the tombstone) leave the search index here.
      search(write, write.kind ?? before?.kind);
      indexRecordLineage(this.db, write.graph, write.subject, linesOf(nquads), before === undefined);
      if (before !== undefined) changes.removed.push(before.nquads);
      changes.added.push(nquads);
    }
  }

  /**
   * Publishes a commit to both copies. A commit waits for the registry's own index (a read after a write sees it),
   * never for the client copy: its worker may be busy with a client query, and it takes changes in order anyway.
   */
  private async publish(remove: string, add: string): Promise<void> {
    if (remove.length === 0 && add.length === 0) return;
    this.clients.publish({ remove, add });
    await storeMetrics(this).timeIndexUpdate(() => this.main.publish({ remove, add }));
  }

  /** Runs a query whose result is SPARQL JSON, over the named graphs only (no union default graph). */
  private async queryJson<T>(query: string): Promise<T> {
    if (!this.opened || this.closing) throw new UnavailableError('the query index is still loading');
    const body = await this.main.run({ op: 'query', query, format: 'json', union: false });
    return JSON.parse(body) as T;
  }

  async select(query: string): Promise<Binding[]> {
    // In the registry's lexical forms, as the external store gives them: a time the index computed (a MAX over
    // xsd:dateTime) comes with its canonical form, which drops trailing zeros of the milliseconds.
    return (await this.queryJson<{ results: { bindings: Binding[] } }>(query)).results.bindings.map(
      normaliseBinding,
    );
  }

  async ping(): Promise<void> {
    // Loaded at start, the index must answer; loaded on demand, the rows do.
    if (this.onDemand) countRecordQuads(this.db);
    else await this.ask('ASK { GRAPH ?g { ?s ?p ?o } }');
  }

  async ask(query: string): Promise<boolean> {
    return (await this.queryJson<{ boolean: boolean }>(query)).boolean;
  }

  /** Runs a client query on the client copy of the index (see `ClientIndex`); the API's index is not touched. */
  async query(
    query: string,
    form: QueryForm,
    budget: QueryBudget,
    dataset?: QueryDataset,
  ): Promise<SparqlResponse> {
    if (!this.opened || this.closing) throw new UnavailableError('the query index is still loading');
    return this.clients.query(query, form, budget, dataset);
  }

  recordGraphs(): string[] {
    return recordGraphs(this.db);
  }

  recordsOutside(graph: string, prefix: string): { count: number; example: string | null } {
    return recordsOutside(this.db, graph, prefix);
  }

  bulkLoad(kindOf: KindOfLines): BulkLoad {
    return new RowLoad(this.db, kindOf);
  }

  countQuads(): Promise<number> {
    const bundleQuads = this.bundles.reduce((sum, bundle) => sum + bundle.tripleCount, 0);
    return Promise.resolve(bundleQuads + countRecordQuads(this.db));
  }

  countByKind(graph: string): Promise<Map<string, number>> {
    return Promise.resolve(countRecordsByKind(this.db, graph));
  }

  dump(options: { graph?: string } = {}): AsyncIterable<string> {
    return dumpRecords(this.db, this.bundles, options.graph);
  }

  async close(): Promise<void> {
    this.closing = true;
    await this.upkeep.close();
    await this.clients.close();
    await this.main.close();
  }
}
