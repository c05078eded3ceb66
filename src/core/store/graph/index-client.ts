import type { Worker } from 'node:worker_threads';
import { startWorker } from '../../workers/start-worker.js';
import { BadRequestError, UnavailableError } from '../../errors.js';
import type { IndexEnvelope, IndexReply, IndexRequest } from './index-protocol.js';

interface Pending {
  resolve(value: unknown): void;
  reject(error: Error): void;
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
      this.pending.delete(reply.id);
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
      for (const waiter of this.pending.values()) waiter.reject(error);
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
  request(request: IndexRequest): Promise<unknown> {
    if (this.failure !== undefined) return Promise.reject(this.failure);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ id, request } satisfies IndexEnvelope);
    });
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
