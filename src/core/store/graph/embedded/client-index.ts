import { QueryTimeoutError, RegError, TooManyRowsError } from '../../../errors.js';
import type { Logger } from '../../../log.js';
import type { Database } from '../../database.js';
import { IndexRequestError } from './index-client.js';
import { IndexReplica, type IndexChange } from './index-replica.js';
import { QueryGate } from '../query-gate.js';
import type { BundleGraph, QueryBudget, QueryDataset, QueryForm, SparqlResponse } from '../types.js';

/** The nice value of the thread that runs clients' queries: the lowest priority there is. */
const CLIENT_NICENESS = 19;

/**
 * Clients' queries (from /sparql) on the embedded store, on a copy of the index of their own: oxigraph cannot
 * interrupt a query, so one past its time limit is stopped by stopping its worker, and on its own copy that never
 * holds up, or takes down, the index the API reads from. The copy is loaded at the first client query, runs one
 * query at a time at the lowest CPU priority, and is dropped after `idleMs` without a query (0: kept).
 */
export class ClientIndex {
  private readonly replica: IndexReplica;
  private readonly gate = new QueryGate(1);
  private idleTimer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(
    db: Database,
    bundles: readonly BundleGraph[],
    private readonly log: Logger,
    private readonly idleMs: number,
  ) {
    this.replica = new IndexReplica(db, bundles, log, {
      name: 'client query index',
      eager: false,
      niceness: CLIENT_NICENESS,
    });
  }

  /** Applies a committed change to the copy, if one is loaded or loading; nobody waits for it. */
  publish(change: IndexChange): void {
    void this.replica.publish(change);
  }

  /**
   * Runs a query, one at a time: a query waits for the one before it for at most its own time limit (then 503).
   * Past its time limit the copy's worker is stopped (504) and the next query loads a fresh copy.
   */
  async query(
    query: string,
    form: QueryForm,
    budget: QueryBudget,
    dataset?: QueryDataset,
  ): Promise<SparqlResponse> {
    const graphForm = form === 'CONSTRUCT' || form === 'DESCRIBE';
    const leave = await this.gate.enter(budget.timeoutMs);
    this.keep();
    try {
      const index = await this.replica.ensure();
      const body = (await index.request(
        {
          op: 'query',
          query,
          format: graphForm ? 'turtle' : 'json',
          union: true,
          ...(form === 'SELECT' ? { maxRows: budget.maxRows } : {}),
          ...(dataset === undefined ? {} : { dataset }),
        },
        { timeoutMs: budget.timeoutMs, timeoutSetting: budget.timeoutSetting },
      )) as string;
      return {
        contentType: graphForm
          ? 'text/turtle; charset=utf-8'
          : 'application/sparql-results+json; charset=utf-8',
        body,
      };
    } catch (error) {
      throw this.failure(error, budget, query);
    } finally {
      leave();
      this.keep();
    }
  }

  /** What a client is told when its query failed on the copy. */
  private failure(error: unknown, budget: QueryBudget, query: string): unknown {
    if (error instanceof QueryTimeoutError) {
      this.log.info('a client query ran past its time limit and was stopped', {
        timeout_ms: budget.timeoutMs,
        query: query.slice(0, 500),
      });
    }
    if (!(error instanceof IndexRequestError)) return error;
    if (error.failure === 'rows') return new TooManyRowsError(budget.maxRows, budget.rowsSetting);
    if (error.failure === 'fatal') {
      this.log.warn('a client query broke the query engine; its copy of the index is loaded again', {
        detail: error.message,
        query: query.slice(0, 500),
      });
      return new RegError(
        'query-too-complex',
        'the query engine ran out of stack or memory evaluating this query and was restarted; simplify the query',
      );
    }
    return error;
  }

  /** (Re)starts the idle clock: after `idleMs` without a query the copy is dropped to free its memory. */
  private keep(): void {
    clearTimeout(this.idleTimer);
    if (this.idleMs <= 0 || this.closed) return;
    this.idleTimer = setTimeout(() => void this.replica.release(), this.idleMs);
    this.idleTimer.unref();
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.idleTimer);
    await this.replica.close();
  }
}
