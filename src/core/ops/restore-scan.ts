/**
 * The check of a whole restore file, run in worker threads alongside the restore's own read: a store that
 * commits as it goes (the external store) must not write before every line is known good, and reading the file
 * twice in turn cost a third of such a restore. The restore reads and merges while the scan runs ahead; the
 * store's first commit waits for the scan's verdict (`BulkLoad.holdCommits`). Each worker parses every other
 * batch of lines (on a machine of two cores or more), so the verdict comes in about half the time. The scan also
 * tells which batches of lines are plain (canonical, as `reg dump` writes them), which the restore then takes as
 * they are instead of parsing them again.
 */
import os from 'node:os';
import type { Worker } from 'node:worker_threads';
import { UnavailableError } from '../errors.js';
import { startWorker } from '../workers/start-worker.js';
import { refuseProblems, type LineProblem } from './restore-reader.js';

/** Worker threads a scan runs on, at most. */
const SCAN_PARTS = 2;

/** What a worker is given. */
export interface ScanInput {
  readonly file: string;
  /** Whether the store keeps the default graph; if not, a quad in it refuses the file. */
  readonly defaultGraph: boolean;
  /** The batches this worker checks: every `of`-th, from the `index`-th. */
  readonly part: { readonly index: number; readonly of: number };
}

/** What a worker sends: a batch's plainness, then its findings (or why it could not read the file). */
export type ScanMessage =
  | { readonly batch: number; readonly plain: boolean }
  | { readonly done: { readonly problems: LineProblem[]; readonly inDefaultGraph: number | undefined } }
  | { readonly failed: string };

/** A scan under way. */
export class RestoreScan {
  /** Settles once the whole file is read: rejects with the refusal of a file that cannot be restored. */
  readonly verdict: Promise<void>;
  private readonly reports = new Map<number, boolean>();
  private readonly waiting = new Map<number, (plain: boolean) => void>();
  private failure: Error | undefined;
  private settled = false;
  private readonly workers: Worker[] = [];

  /**
   * Starts scanning `file`. `refuseDefaultGraph` gives the error for a quad in the default graph (the number of
   * its line) when the store does not keep that graph.
   */
  constructor(
    private readonly file: string,
    refuseDefaultGraph: ((line: number) => Error) | undefined,
  ) {
    const of = Math.max(1, Math.min(SCAN_PARTS, os.availableParallelism()));
    const problems: LineProblem[] = [];
    const inDefaultGraph: number[] = [];
    this.verdict = new Promise<void>((resolve, reject) => {
      let running = of;
      const fail = (error: Error): void => {
        if (this.settled) return;
        this.settled = true;
        this.failure = error;
        for (const wake of this.waiting.values()) wake(false);
        this.waiting.clear();
        this.stop();
        reject(this.failure);
      };
      const judge = (): void => {
        try {
          const first = Math.min(...inDefaultGraph);
          if (Number.isFinite(first) && refuseDefaultGraph !== undefined) throw refuseDefaultGraph(first);
          refuseProblems(this.file, problems);
          this.settled = true;
          resolve();
        } catch (error) {
          fail(error as Error);
        }
      };
      for (let index = 0; index < of; index++) {
        const input: ScanInput = {
          file,
          defaultGraph: refuseDefaultGraph === undefined,
          part: { index, of },
        };
        const worker = startWorker(import.meta.url, 'restore-scan-worker', input);
        this.workers.push(worker);
        let done = false;
        worker.on('message', (message: ScanMessage) => {
          if ('batch' in message) {
            const wake = this.waiting.get(message.batch);
            this.waiting.delete(message.batch);
            if (wake === undefined) this.reports.set(message.batch, message.plain);
            else wake(message.plain);
          } else if ('failed' in message) {
            fail(new UnavailableError(`cannot read ${this.file}: ${message.failed}`));
          } else {
            done = true;
            problems.push(...message.done.problems);
            if (message.done.inDefaultGraph !== undefined) inDefaultGraph.push(message.done.inDefaultGraph);
            if (--running === 0) judge();
          }
        });
        worker.on('error', (error) => fail(error));
        worker.on('exit', () => {
          if (!done) fail(new UnavailableError(`the check of ${this.file} stopped`));
        });
      }
    });
    // Heard by whoever waits on it; a restore that stopped before it settled has its own error.
    this.verdict.catch(() => undefined);
  }

  /**
   * Whether batch `index` of the file is plain, once the scan has read it; a scan that failed refuses (the
   * restore stops with the scan's error).
   */
  plain = async (index: number): Promise<boolean> => {
    const known = this.reports.get(index);
    if (known !== undefined) {
      this.reports.delete(index);
      return known;
    }
    if (this.failure === undefined) {
      const plain = await new Promise<boolean>((resolve) => this.waiting.set(index, resolve));
      if (this.failure === undefined) return plain;
    }
    throw this.failure;
  };

  /** Stops the scan (the restore ended before it did). */
  stop(): void {
    for (const worker of this.workers) void worker.terminate();
  }
}
