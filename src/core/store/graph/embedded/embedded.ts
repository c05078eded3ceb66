import { QueryTimeoutError, UnavailableError } from '../../../errors.js';
import { normaliseBinding } from '../sparql-terms.js';
import type { Logger } from '../../../log.js';
import type { Database } from '../../database.js';
import { canonicalTextOf, linesOf, markedRecord, toNQuads, toNTriples } from '../../nquads.js';
import {
  ensureSearchSchema,
  indexRecordForSearch,
  catchUpSearchRows,
  deferSearchRows,
  rebuildSearchIndex,
  searchPending,
  searchRebuildDue,
} from '../../search-index.js';
import type { SearchReader } from '../../search-entry.js';
import {
  claimLineageIndex,
  indexRecordLineage,
  lineageIndexReady,
  lineageRefillPosition,
  refillLineageIndex,
} from '../../lineage-index.js';
import { ClientIndex } from './client-index.js';
import type { IndexClient } from './index-client.js';
import type { IndexRequest } from './index-protocol.js';
import { IndexReplica } from './index-replica.js';
import {
  countRecordQuads,
  countRecordsByKind,
  deleteRecord,
  iterateRecords,
  readRecord,
  recordGraphs,
  recordsAfter,
  recordsOutside,
  writeRecord,
} from './record-table.js';
import { RowLoad } from './row-load.js';
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

/** Bytes of N-Quads text per dump chunk. */
const DUMP_CHUNK_BYTES = 1 << 20;

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
 * in worker threads answer SPARQL and are loaded from the rows. The registry's own queries go to one copy,
 * loaded at every start and loaded again at once whenever it fails. Client queries from /sparql go to a second
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
  private searchRebuild: Promise<void> | undefined;
  private searchCatchUp: Promise<void> | undefined;
  private lineageRefill: Promise<void> | undefined;
  private closing = false;
  /** The registry's own index. */
  private readonly main: IndexReplica;
  /** The copy client queries run on. */
  private readonly clients: ClientIndex;
  /** Whether the registry's own copy is loaded at its first use rather than at start. */
  private readonly onDemand: boolean;
  private idleTimer: NodeJS.Timeout | undefined;
  /** The registry's own queries under way, which keep a copy loaded on demand from being dropped. */
  private querying = 0;

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
    this.main = new IndexReplica(db, bundles, log, { name: 'query index', eager: !this.onDemand }, index);
    this.clients = new ClientIndex(db, bundles, log, options.clientIndexIdleMs ?? 0);
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
    if (lineageRefillPosition(this.db) !== undefined)
      this.lineageRefill ??= refillLineageIndex(this.db, recordsAfter(this.db), {
        stopped: () => this.closing,
        log: this.log,
      }).finally(() => {
        this.lineageRefill = undefined;
      });
    if (!this.onDemand) {
      const loading = storeMetrics(this).indexLoad.startTimer();
      await this.main.ensure();
      loading();
    }
    if (this.closing) throw new UnavailableError('the query index was closed while it loaded');
    this.opened = true;
    if (searchRebuildDue(this.db, this.options.search)) this.searchRebuild ??= this.rebuildSearch();
    if (searchPending(this.db)) this.searchCatchUp ??= this.catchUpSearch();
  }

  /** Brings the search rows of large commits up to date, a few records per step, after they committed. */
  private async catchUpSearch(): Promise<void> {
    try {
      // Commits that list more records while this runs are taken in the same pass.
      await new Promise((resolve) => setImmediate(resolve));
      await catchUpSearchRows(this.db, this.options.search, () => this.closing);
    } catch (error) {
      this.log.error('bringing search rows up to date failed', { detail: (error as Error).message });
    } finally {
      this.searchCatchUp = undefined;
    }
    if (!this.closing && searchPending(this.db)) this.searchCatchUp ??= this.catchUpSearch();
  }

  /**
   * Refills the search index from the records in the background, a batch at a time (search answers `partial`
   * meanwhile), so a start after a restore or an upgrade is not held up by it.
   */
  private async rebuildSearch(): Promise<void> {
    const started = Date.now();
    try {
      const records = await rebuildSearchIndex(this.db, this.options.search, () => this.closing);
      if (!this.closing) this.log.info('search index rebuilt', { records, ms: Date.now() - started });
    } catch (error) {
      this.log.error('search index rebuild failed', { detail: (error as Error).message });
    } finally {
      this.searchRebuild = undefined;
    }
  }

  async lineageFilled(): Promise<void> {
    await this.lineageRefill;
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
    let deferred = false;
    let durable: Promise<void>;
    try {
      ({ durable } = this.db.transactionDurableLater(() => {
        for (const item of batch) {
          const mine = { removed: [] as string[], added: [] as string[] };
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
            outcomes.push(() => item.resolve(result));
          } catch (error) {
            if (batch.length === 1) throw error;
            outcomes.push(() => item.reject(error));
          }
        }
      }));
    } catch (error) {
      for (const item of batch) item.reject(error);
      return;
    }
    this.commits++;
    if (deferred) this.searchCatchUp ??= this.catchUpSearch();
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
    changes: { removed: string[]; added: string[] },
    deferSearch: boolean,
  ): void {
    const search = (write: RecordWrite, kind: string | null | undefined): void => {
      if (deferSearch) deferSearchRows(this.db, write.graph, write.subject);
      else indexRecordForSearch(this.db, this.options.search, { ...write, kind });
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
      indexRecordLineage(this.db, write.graph, write.subject, linesOf(nquads));
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

  /**
   * Runs one of the registry's own queries within the time limit. Before the first load it is refused (503);
   * while the index is loaded again after a failure it waits for it. A query past the limit fails (504) and the
   * index, whose worker had to be stopped, is loaded again at once; a query whose index failed under it (a query
   * before it was stopped, or the engine broke) is asked again, once, of the new one.
   */
  private async runQuery(request: IndexRequest & { op: 'query' }): Promise<string> {
    if (!this.opened || this.closing) throw new UnavailableError('the query index is still loading');
    const timeout =
      this.options.queryTimeoutMs === undefined ? {} : { timeoutMs: this.options.queryTimeoutMs };
    this.querying++;
    clearTimeout(this.idleTimer);
    try {
      for (let attempt = 0; ; attempt++) {
        const index = await this.mainIndex();
        try {
          return (await index.request(request, timeout)) as string;
        } catch (error) {
          if (error instanceof QueryTimeoutError) {
            this.log.warn('a query ran past its time limit; the query index is loaded again', {
              timeout_ms: this.options.queryTimeoutMs,
              query: request.query.slice(0, 500),
            });
          }
          if (!index.failed || this.closing || attempt > 0 || error instanceof QueryTimeoutError) throw error;
        }
      }
    } finally {
      this.querying--;
      this.keepIndex();
    }
  }

  /** The registry's own copy, loaded first when it is loaded on demand and is not (timed as a start's load). */
  private async mainIndex(): Promise<IndexClient> {
    if (!this.onDemand || this.main.ready) return this.main.ensure();
    this.log.info('the query index is loaded for a query that needs it');
    const loading = storeMetrics(this).indexLoad.startTimer();
    try {
      return await this.main.ensure();
    } finally {
      loading();
    }
  }

  /** On demand, starts the idle clock once no query runs: after the idle time without one the copy is dropped. */
  private keepIndex(): void {
    const idleMs = this.options.clientIndexIdleMs ?? 0;
    if (!this.onDemand || idleMs <= 0 || this.closing || this.querying > 0) return;
    clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => {
      if (this.querying === 0) void this.main.release();
    }, idleMs);
    this.idleTimer.unref();
  }

  /** Runs a query whose result is SPARQL JSON, over the named graphs only (no union default graph). */
  private async queryJson<T>(query: string): Promise<T> {
    const body = await this.runQuery({ op: 'query', query, format: 'json', union: false });
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

  async *dump(options: { graph?: string } = {}): AsyncIterable<string> {
    const graph = options.graph;
    for (const bundle of this.bundles) {
      if (graph === undefined) yield toNQuads(bundle.ntriples, bundle.graph);
      else if (graph === bundle.graph) yield bundle.ntriples;
    }
    let chunk: string[] = [];
    let size = 0;
    const rows = graph === undefined ? iterateRecords(this.db) : iterateRecords(this.db, { graph });
    for (const row of rows) {
      // A full dump marks where each record starts, so a restore rebuilds exactly these records even when one
      // holds quads about another IRI (an agent named by its ORCID or ROR identifier).
      const text =
        graph === undefined
          ? markedRecord(row.graph, row.subject, row.nquads)
          : toNTriples(row.nquads, graph);
      chunk.push(text);
      size += text.length;
      if (size >= DUMP_CHUNK_BYTES) {
        yield chunk.join('');
        chunk = [];
        size = 0;
        // Let other work (HTTP requests, writes) run between chunks of a large dump.
        await new Promise((resolve) => setImmediate(resolve));
      }
    }
    if (chunk.length > 0) yield chunk.join('');
  }

  async close(): Promise<void> {
    this.closing = true;
    clearTimeout(this.idleTimer);
    await this.searchRebuild;
    await this.searchCatchUp;
    await this.lineageRefill;
    await this.clients.close();
    await this.main.close();
  }
}
