import { QueryTimeoutError } from '../../../errors.js';
import type { Logger } from '../../../log.js';
import type { RegistryMetrics } from '../../../ops/metrics.js';
import type { Database } from '../../database.js';
import type { BundleGraph } from '../types.js';
import type { IndexClient } from './index-client.js';
import type { IndexRequest } from './index-protocol.js';
import { IndexReplica, type IndexChange } from './index-replica.js';

/** How the registry's own copy of the query index is kept. */
export interface OwnIndexOptions {
  /** Loaded at the first query that needs it, and dropped after `idleMs` without one, instead of at start. */
  readonly onDemand: boolean;
  /** Idle time after which a copy loaded on demand is dropped (0: kept). */
  readonly idleMs: number;
  /** Time limit of one query (`REG_SPARQL_TIMEOUT`); none when absent. */
  readonly queryTimeoutMs?: number;
  /** Whether the store is closing: a query that failed is then not asked again. */
  readonly closing: () => boolean;
  /** The store's metrics (load times). */
  readonly metrics: () => RegistryMetrics;
}

/**
 * The copy of the query index the registry's own queries run on: loaded at start, or on demand (at the first
 * query that needs it, and dropped again after the idle time without one; a counter keeps it while queries run).
 * A query past the time limit fails (504) and the copy, whose worker had to be stopped, is loaded again at once;
 * a query whose copy failed under it is asked again, once, of the new one.
 */
export class OwnIndex {
  private readonly replica: IndexReplica;
  private idleTimer: NodeJS.Timeout | undefined;
  /** Queries under way, which keep a copy loaded on demand from being dropped. */
  private querying = 0;

  /** @param index a copy already started (its worker boots while the caller does other start-up work). */
  constructor(
    db: Database,
    bundles: readonly BundleGraph[],
    private readonly log: Logger,
    index: IndexClient | undefined,
    private readonly options: OwnIndexOptions,
  ) {
    this.replica = new IndexReplica(
      db,
      bundles,
      log,
      { name: 'query index', eager: !options.onDemand },
      index,
    );
  }

  /** Whether the copy is loaded and answers. */
  get ready(): boolean {
    return this.replica.ready;
  }

  /** Whether the copy is loaded or loading, and so holds memory. */
  get held(): boolean {
    return this.replica.held;
  }

  /** Loads the copy when it is loaded at start; resolves once it is. */
  async start(): Promise<void> {
    if (this.options.onDemand) return;
    const loading = this.options.metrics().indexLoad.startTimer();
    await this.replica.ensure();
    loading();
  }

  /** Hands a commit's change to the copy (a copy not loaded reads it from the rows when it loads). */
  publish(change: IndexChange): Promise<void> {
    return this.replica.publish(change);
  }

  /** Runs one query within the time limit, loading the copy first when it is loaded on demand and is not. */
  async run(request: IndexRequest & { op: 'query' }): Promise<string> {
    const timeout =
      this.options.queryTimeoutMs === undefined ? {} : { timeoutMs: this.options.queryTimeoutMs };
    this.querying++;
    clearTimeout(this.idleTimer);
    try {
      for (let attempt = 0; ; attempt++) {
        const index = await this.loaded();
        try {
          return (await index.request(request, timeout)) as string;
        } catch (error) {
          if (error instanceof QueryTimeoutError) {
            this.log.warn('a query ran past its time limit; the query index is loaded again', {
              timeout_ms: this.options.queryTimeoutMs,
              query: request.query.slice(0, 500),
            });
          }
          const closing = this.options.closing();
          if (!index.failed || closing || attempt > 0 || error instanceof QueryTimeoutError) throw error;
        }
      }
    } finally {
      this.querying--;
      this.keep();
    }
  }

  /** Stops the idle clock and the copy. */
  async close(): Promise<void> {
    clearTimeout(this.idleTimer);
    await this.replica.close();
  }

  /** The copy, loaded first when it is loaded on demand and is not (timed as a start's load). */
  private async loaded(): Promise<IndexClient> {
    if (!this.options.onDemand || this.replica.ready) return this.replica.ensure();
    this.log.info('the query index is loaded for a query that needs it');
    const loading = this.options.metrics().indexLoad.startTimer();
    try {
      return await this.replica.ensure();
    } finally {
      loading();
    }
  }

  /** On demand, starts the idle clock once no query runs: after the idle time without one the copy is dropped. */
  private keep(): void {
    const { idleMs, onDemand } = this.options;
    if (!onDemand || idleMs <= 0 || this.options.closing() || this.querying > 0) return;
    clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => {
      if (this.querying === 0) void this.replica.release();
    }, idleMs);
    this.idleTimer.unref();
  }
}
