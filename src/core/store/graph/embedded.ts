import { QueryTimeoutError, UnavailableError } from '../../errors.js';
import type { Logger } from '../../log.js';
import type { Database } from '../database.js';
import { canonicalTextOf, recordMarker, toNQuads, toNTriples } from '../nquads.js';
import {
  ensureSearchSchema,
  indexRecordForSearch,
  rebuildSearchIndex,
  searchRebuildDue,
} from '../search-index.js';
import { IndexClient } from './index-client.js';
import type { IndexRequest } from './index-protocol.js';
import {
  countRecordQuads,
  countRecordsByKind,
  deleteRecord,
  iterateRecords,
  readRecord,
  writeRecord,
} from './record-table.js';
import type { Binding, BundleGraph, GraphStore, QueryForm, RecordWrite, SparqlResponse } from './types.js';

/** Bytes of N-Quads text sent to the index per load call; about 1 MiB loads fastest. */
const LOAD_CHUNK_BYTES = 1 << 20;

/** Options of the embedded store. */
export interface EmbeddedOptions {
  /** Time limit of one query on the index (`REG_SPARQL_TIMEOUT`); none when absent. */
  readonly queryTimeoutMs?: number;
}

/**
 * The embedded graph store: SQLite (`registry.db`, one row per record) is the truth; an in-memory oxigraph index in
 * a worker thread answers SPARQL and is rebuilt from the rows at every start.
 */
export class EmbeddedGraphStore implements GraphStore {
  readonly kind = 'embedded' as const;
  private isReady = false;
  private rebuilding: Promise<void> | undefined;
  private commits = 0;
  private readonly pending: {
    writes: readonly RecordWrite[];
    ops: () => unknown;
    resolve: (value: unknown) => void;
    reject: (error: unknown) => void;
  }[] = [];
  private searchRebuild: Promise<void> | undefined;
  private closing = false;
  /** Changes committed while the index is rebuilt, applied once it is loaded (the loader may have read older rows). */
  private missed: { remove: string; add: string }[] | undefined;

  /**
   * @param index a query index already started (its worker boots while the caller does other start-up work);
   *   when absent, `open()` starts one.
   */
  constructor(
    private readonly db: Database,
    private readonly bundles: readonly BundleGraph[],
    private readonly log: Logger,
    private index: IndexClient | undefined = undefined,
    private readonly options: EmbeddedOptions = {},
  ) {
    // The write path keeps the search rows current, so they must exist before the first write.
    if (ensureSearchSchema(db)) this.log.warn('the search index was missing: it is rebuilt at the next open');
  }

  get generation(): number {
    return this.commits;
  }

  get ready(): boolean {
    return this.isReady && this.index !== undefined && !this.index.failed;
  }

  async open(): Promise<void> {
    this.index ??= new IndexClient();
    await this.index.started;
    await this.loadIndex(this.index);
    this.isReady = true;
    if (searchRebuildDue(this.db)) this.searchRebuild ??= this.rebuildSearch();
  }

  /**
   * Refills the search index from the records in the background, a batch at a time (search answers `partial`
   * meanwhile), so a start after a restore or an upgrade is not held up by it.
   */
  private async rebuildSearch(): Promise<void> {
    const started = Date.now();
    try {
      const records = await rebuildSearchIndex(this.db, () => this.closing);
      if (!this.closing) this.log.info('search index rebuilt', { records, ms: Date.now() - started });
    } catch (error) {
      this.log.error('search index rebuild failed', { detail: (error as Error).message });
    } finally {
      this.searchRebuild = undefined;
    }
  }

  private async loadIndex(index: IndexClient): Promise<void> {
    const started = Date.now();
    // Two chunks in flight keep the worker busy while the next chunk is read from SQLite.
    const inFlight: Promise<unknown>[] = [];
    const track = (request: Promise<unknown>): void => {
      // Failures surface through the await below; this only stops a second failure going unhandled.
      request.catch(() => undefined);
      inFlight.push(request);
    };
    const send = async (nquads: string): Promise<void> => {
      if (inFlight.length >= 2) await inFlight.shift();
      track(index.request({ op: 'load', nquads }));
    };
    let chunk: string[] = [];
    let size = 0;
    for (const row of iterateRecords(this.db, { batch: 2000 })) {
      chunk.push(row.nquads);
      size += row.nquads.length;
      if (size >= LOAD_CHUNK_BYTES) {
        await send(chunk.join(''));
        chunk = [];
        size = 0;
      }
    }
    if (chunk.length > 0) await send(chunk.join(''));
    for (const bundle of this.bundles) {
      track(index.request({ op: 'loadGraph', ntriples: bundle.ntriples, graph: bundle.graph }));
    }
    await Promise.all(inFlight);
    this.log.debug('query index loaded', { ms: Date.now() - started });
  }

  /** Drops the index and loads it again from the durable rows; used when the index failed. */
  private async rebuild(reason: string): Promise<void> {
    this.rebuilding ??= (async () => {
      this.log.warn('rebuilding the query index', { reason });
      this.isReady = false;
      this.missed = [];
      await this.index?.close();
      const index = new IndexClient();
      this.index = index;
      await index.started;
      await this.loadIndex(index);
      for (let change = this.missed.shift(); change !== undefined; change = this.missed.shift())
        await index.request({ op: 'replace', ...change });
      this.isReady = true;
    })().finally(() => {
      this.missed = undefined;
      this.rebuilding = undefined;
    });
    return this.rebuilding;
  }

  readRecord(graph: string, subject: string): Promise<string | undefined> {
    return Promise.resolve(readRecord(this.db, graph, subject)?.nquads);
  }

  /**
   * Queues the commit and flushes the queue on the next turn of the event loop: commits that arrive together
   * (concurrent requests) share one transaction and one flush of the log to disk, which runs off this thread while
   * the next batch commits. Each keeps its own atomicity through a savepoint: one that throws is rolled back alone
   * and rejected, the others commit.
   */
  commit<T>(writes: readonly RecordWrite[], ops: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.pending.push({ writes, ops, resolve: resolve as (value: unknown) => void, reject });
      if (this.pending.length === 1) setImmediate(() => void this.flush());
    });
  }

  private async flush(): Promise<void> {
    const batch = this.pending.splice(0);
    const now = new Date().toISOString();
    const removed: string[] = [];
    const added: string[] = [];
    const outcomes: (() => void)[] = [];
    let durable: Promise<void>;
    try {
      ({ durable } = this.db.transactionDurableLater(() => {
        for (const item of batch) {
          const mine = { removed: [] as string[], added: [] as string[] };
          try {
            const result = this.db.transaction(() => {
              this.applyWrites(item.writes, now, mine);
              return item.ops();
            });
            removed.push(...mine.removed);
            added.push(...mine.added);
            outcomes.push(() => item.resolve(result));
          } catch (error) {
            outcomes.push(() => item.reject(error));
          }
        }
      }));
    } catch (error) {
      for (const item of batch) item.reject(error);
      return;
    }
    this.commits++;
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
  ): void {
    for (const write of writes) {
      const before = readRecord(this.db, write.graph, write.subject);
      if (write.quads === null) {
        if (before !== undefined) {
          deleteRecord(this.db, write.graph, write.subject);
          indexRecordForSearch(this.db, { ...write, kind: before.kind });
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
      indexRecordForSearch(this.db, { ...write, kind: write.kind ?? before?.kind });
      if (before !== undefined) changes.removed.push(before.nquads);
      changes.added.push(nquads);
    }
  }

  private async publish(remove: string, add: string): Promise<void> {
    const index = this.index;
    if (index === undefined || (remove.length === 0 && add.length === 0)) return;
    if (this.rebuilding !== undefined) {
      this.missed?.push({ remove, add });
      return;
    }
    try {
      await index.request({ op: 'replace', remove, add });
    } catch (error) {
      await this.recover(index, (error as Error).message);
    }
  }

  /** Rebuilds the index if `failed` is still the current one (a later failure of an old one needs nothing). */
  private recover(failed: IndexClient, reason: string): Promise<void> {
    if (this.index !== failed) return this.rebuilding ?? Promise.resolve();
    return this.rebuild(reason);
  }

  private requireIndex(): IndexClient {
    if (!this.ready || this.index === undefined)
      throw new UnavailableError('the query index is still loading');
    return this.index;
  }

  /**
   * Runs one query within the time limit. A query past the limit fails (504) and the index, whose worker had to be
   * stopped, is rebuilt in the background; queries that were waiting behind it are asked again once it is back.
   */
  private async runQuery(request: IndexRequest & { op: 'query' }): Promise<string> {
    const timeout =
      this.options.queryTimeoutMs === undefined ? {} : { timeoutMs: this.options.queryTimeoutMs };
    const index = this.requireIndex();
    try {
      return (await index.request(request, timeout)) as string;
    } catch (error) {
      if (!index.failed || this.closing) throw error;
      const recovered = this.recover(index, (error as Error).message);
      if (error instanceof QueryTimeoutError) {
        this.log.warn('a query ran past its time limit; the query index is rebuilt', {
          timeout_ms: this.options.queryTimeoutMs,
          query: request.query.slice(0, 500),
        });
        throw error;
      }
      await recovered;
      return (await this.requireIndex().request(request, timeout)) as string;
    }
  }

  /** Runs a query whose result is SPARQL JSON, over the named graphs only (no union default graph). */
  private async queryJson<T>(query: string): Promise<T> {
    const body = await this.runQuery({ op: 'query', query, format: 'json', union: false });
    return JSON.parse(body) as T;
  }

  async select(query: string): Promise<Binding[]> {
    return (await this.queryJson<{ results: { bindings: Binding[] } }>(query)).results.bindings;
  }

  async ask(query: string): Promise<boolean> {
    return (await this.queryJson<{ boolean: boolean }>(query)).boolean;
  }

  async query(query: string, form: QueryForm): Promise<SparqlResponse> {
    const graphForm = form === 'CONSTRUCT' || form === 'DESCRIBE';
    const body = await this.runQuery({
      op: 'query',
      query,
      format: graphForm ? 'turtle' : 'json',
      union: true,
    });
    return {
      contentType: graphForm
        ? 'text/turtle; charset=utf-8'
        : 'application/sparql-results+json; charset=utf-8',
      body,
    };
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
          ? `${recordMarker(row.graph, row.subject)}\n${row.nquads}`
          : toNTriples(row.nquads, graph);
      chunk.push(text);
      size += text.length;
      if (size >= LOAD_CHUNK_BYTES) {
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
    this.isReady = false;
    await this.searchRebuild;
    await this.index?.close();
    this.index = undefined;
  }
}
