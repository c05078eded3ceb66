import type { Worker } from 'node:worker_threads';
import { startWorker } from '../../../workers/start-worker.js';
import { BadRequestError, QueryTimeoutError, UnavailableError } from '../../../errors.js';
import type { IndexEnvelope, IndexFailure, IndexReply, IndexRequest } from './index-protocol.js';

interface Pending {
  resolve(value: unknown): void;
  reject(error: Error): void;
  /** The time the request may run once the worker starts it, and the setting that gives it. */
  readonly timeoutMs?: number | undefined;
  readonly timeoutSetting?: string | undefined;
  timer?: NodeJS.Timeout;
}

/** Options of one request. */
export interface RequestOptions {
  /**
   * Time limit once the worker starts the request (the worker takes requests one at a time, in order, so that is
   * when every earlier one has been answered). Past it the request fails with a `QueryTimeoutError` and the
   * worker is stopped, since oxigraph cannot interrupt a running query: the client is then `failed`.
   */
  readonly timeoutMs?: number;
  /** The setting a timeout names (default `REG_SPARQL_TIMEOUT`). */
  readonly timeoutSetting?: string;
}

/** A request the index refused or could not carry out; `failure` says which way (see `IndexFailure`). */
export class IndexRequestError extends Error {
  constructor(
    readonly failure: IndexFailure,
    message: string,
  ) {
    super(message);
  }
}

/** The main thread's handle on the oxigraph index running in a worker thread. */
export class IndexClient {
  private readonly worker: Worker;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private failure: Error | undefined;
  private closing = false;
  private readonly listeners: ((error: Error) => void)[] = [];
  /** Resolves once the worker has started. */
  readonly started: Promise<void>;
  private failStart: (error: Error) => void = () => undefined;

  constructor() {
    this.worker = startWorker(import.meta.url, 'index-worker');
    let markStarted: () => void = () => undefined;
    this.started = new Promise<void>((resolve, reject) => {
      markStarted = resolve;
      this.failStart = reject;
    });
    this.worker.on('message', (reply: IndexReply) => {
      if (reply.id === 0) return markStarted();
      this.settle(reply);
    });
    // Nobody may be waiting on `started` (commands that never load the index); that is not an error.
    this.started.catch(() => undefined);
    this.worker.on('error', (error) => this.fail(error));
    this.worker.on('exit', (code) =>
      this.fail(new UnavailableError(`the query index stopped (exit code ${code})`)),
    );
  }

  private settle(reply: IndexReply): void {
    const waiter = this.pending.get(reply.id);
    if (waiter === undefined) return;
    clearTimeout(waiter.timer);
    this.pending.delete(reply.id);
    this.startClock();
    if (reply.ok) return waiter.resolve(reply.result);
    if (reply.failure === 'syntax')
      return waiter.reject(new BadRequestError(`SPARQL syntax error: ${reply.message}`));
    waiter.reject(new IndexRequestError(reply.failure, reply.message));
    // The engine's memory is not to be trusted after a trap: nothing more is asked of this worker.
    if (reply.failure === 'fatal') this.abandon(`the query engine failed (${reply.message})`);
  }

  /**
   * Calls `listener` once if the worker fails (it stopped, crashed, ran a request past its time limit or was
   * abandoned), never for a `close()`: the owner replaces the index then.
   */
  onFailure(listener: (error: Error) => void): void {
    this.listeners.push(listener);
  }

  private fail(error: Error): void {
    if (this.failure !== undefined) return;
    this.failure = error;
    this.failStart(error);
    for (const waiter of this.pending.values()) {
      clearTimeout(waiter.timer);
      waiter.reject(error);
    }
    this.pending.clear();
    if (this.closing) return;
    for (const listener of this.listeners) listener(error);
  }

  /** Sends one request and waits for its result. */
  request(request: IndexRequest, options: RequestOptions = {}): Promise<unknown> {
    if (this.failure !== undefined) return Promise.reject(this.failure);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, {
        resolve,
        reject,
        timeoutMs: options.timeoutMs,
        timeoutSetting: options.timeoutSetting,
      });
      this.worker.postMessage({ id, request } satisfies IndexEnvelope);
      if (this.pending.size === 1) this.startClock();
    });
  }

  /** Starts the time limit of the request the worker is running now: the oldest one still waiting. */
  private startClock(): void {
    const head = this.pending.entries().next();
    if (head.done === true) return;
    const [id, waiter] = head.value;
    if (waiter.timeoutMs === undefined || waiter.timer !== undefined) return;
    const limit = waiter.timeoutMs;
    waiter.timer = setTimeout(() => this.expire(id, limit, waiter.timeoutSetting), limit);
  }

  /** Fails a request that ran past its limit, and stops the worker that is still running it. */
  private expire(id: number, limitMs: number, setting: string | undefined): void {
    const waiter = this.pending.get(id);
    if (waiter === undefined) return;
    this.pending.delete(id);
    waiter.reject(new QueryTimeoutError(limitMs, setting));
    this.abandon('a query ran past its time limit');
  }

  /** Gives the worker up: every request still waiting fails, the failure listeners run, the thread is stopped. */
  abandon(reason: string): void {
    this.fail(new UnavailableError(`the query index is being replaced: ${reason}`));
    void this.worker.terminate();
  }

  /** Whether the worker has died or was given up. */
  get failed(): boolean {
    return this.failure !== undefined;
  }

  /** Stops the worker; requests still waiting are rejected rather than left pending. */
  async close(): Promise<void> {
    this.closing = true;
    this.fail(new UnavailableError('the query index was closed'));
    await this.worker.terminate();
  }
}
