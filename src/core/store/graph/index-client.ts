import type { Worker } from 'node:worker_threads';
import { startWorker } from '../../workers/start-worker.js';
import { BadRequestError, QueryTimeoutError, UnavailableError } from '../../errors.js';
import type { IndexEnvelope, IndexReply, IndexRequest } from './index-protocol.js';

interface Pending {
  resolve(value: unknown): void;
  reject(error: Error): void;
  /** The time the request may run once the worker starts it. */
  readonly timeoutMs?: number | undefined;
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
}

/** The main thread's handle on the oxigraph index running in a worker thread. */
export class IndexClient {
  private readonly worker: Worker;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private failure: Error | undefined;
  private readonly fail: (error: Error) => void;
  /** Resolves once the worker has started. */
  readonly started: Promise<void>;

  constructor() {
    this.worker = startWorker(import.meta.url, 'index-worker');
    let markStarted: () => void = () => undefined;
    let failStart: (error: Error) => void = () => undefined;
    this.started = new Promise<void>((resolve, reject) => {
      markStarted = resolve;
      failStart = reject;
    });
    this.worker.on('message', (reply: IndexReply) => {
      if (reply.id === 0) return markStarted();
      const waiter = this.pending.get(reply.id);
      if (waiter === undefined) return;
      clearTimeout(waiter.timer);
      this.pending.delete(reply.id);
      this.startClock();
      if (reply.ok) waiter.resolve(reply.result);
      else
        waiter.reject(
          reply.syntax
            ? new BadRequestError(`SPARQL syntax error: ${reply.message}`)
            : new Error(reply.message),
        );
    });
    this.fail = (error: Error): void => {
      this.failure ??= error;
      failStart(error);
      for (const waiter of this.pending.values()) {
        clearTimeout(waiter.timer);
        waiter.reject(error);
      }
      this.pending.clear();
    };
    // Nobody may be waiting on `started` (commands that never load the index); that is not an error.
    this.started.catch(() => undefined);
    this.worker.on('error', this.fail);
    this.worker.on('exit', (code) =>
      this.fail(new UnavailableError(`the query index stopped (exit code ${code})`)),
    );
  }

  /** Sends one request and waits for its result. */
  request(request: IndexRequest, options: RequestOptions = {}): Promise<unknown> {
    if (this.failure !== undefined) return Promise.reject(this.failure);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject, timeoutMs: options.timeoutMs });
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
    waiter.timer = setTimeout(() => this.expire(id, limit), limit);
  }

  /** Fails a request that ran past its limit, and stops the worker that is still running it. */
  private expire(id: number, limitMs: number): void {
    const waiter = this.pending.get(id);
    if (waiter === undefined) return;
    this.pending.delete(id);
    waiter.reject(new QueryTimeoutError(limitMs));
    this.fail(new UnavailableError('the query index restarted after a query ran past its time limit'));
    void this.worker.terminate();
  }

  /** Whether the worker has died. */
  get failed(): boolean {
    return this.failure !== undefined;
  }

  /** Stops the worker; requests still waiting are rejected rather than left pending. */
  async close(): Promise<void> {
    this.worker.removeAllListeners('exit');
    this.fail(new UnavailableError('the query index was closed'));
    await this.worker.terminate();
  }
}
