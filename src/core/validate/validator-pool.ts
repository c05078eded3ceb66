import type { Worker } from 'node:worker_threads';
import type * as RDF from '@rdfjs/types';
import N3 from 'n3';
import { canonicalTextOf } from '../store/nquads.js';
import { startWorker } from '../workers/start-worker.js';
import type { RecordToValidate, RecordValidator, ValidateOptions, ValidationReport } from './validator.js';
import type { Group, GroupsReply, GroupsRequest } from './validator-messages.js';

interface Waiter {
  resolve(reports: ValidationReport[]): void;
  reject(error: Error): void;
}

const writer = new N3.Writer({ format: 'N-Quads' });

/** Quads as N-Quads text, in the order given. */
function nquadsOf(quads: Iterable<RDF.Quad>): string {
  const lines: string[] = [];
  for (const quad of quads)
    lines.push(writer.quadToString(quad.subject, quad.predicate, quad.object, quad.graph));
  return lines.join('');
}

/**
 * A validator that runs in worker threads (round robin), so SHACL work leaves the thread serving HTTP. Results
 * are the same as the in-thread validator's: the worker runs that very validator. Calls made in the same turn of
 * the event loop (concurrent requests) travel to a worker in one message and come back in one, each keeping its
 * own outcome: posting a message costs the serving thread more than copying its text.
 */
export class ValidatorPool implements RecordValidator {
  private readonly workers: Worker[] = [];
  private readonly waiting = new Map<number, Waiter[]>();
  private readonly ready: Promise<unknown>;
  private nextId = 1;
  private turn = 0;
  private queued: { group: Group; waiter: Waiter }[] = [];
  private closed = false;

  constructor(shapes: string, size: number) {
    const started: Promise<unknown>[] = [];
    for (let i = 0; i < size; i++) {
      const worker = startWorker(import.meta.url, 'validator-worker');
      worker.unref();
      started.push(
        new Promise((resolve, reject) => {
          worker.once('error', reject);
          worker.on('message', (reply: GroupsReply) => {
            if (reply.id === 0) return resolve(undefined);
            const waiters = this.waiting.get(reply.id) ?? [];
            this.waiting.delete(reply.id);
            for (const [at, waiter] of waiters.entries()) {
              const group = reply.groups?.[at];
              if (reply.ok && group?.ok === true) waiter.resolve(group.reports);
              else
                waiter.reject(
                  new Error((group?.ok === false ? group.message : reply.message) ?? 'validation failed'),
                );
            }
          });
        }),
      );
      worker.postMessage({ shapes });
      this.workers.push(worker);
    }
    this.ready = Promise.all(started);
    this.ready.catch(() => undefined);
  }

  async validate(quads: Iterable<RDF.Quad>, options: ValidateOptions = {}): Promise<ValidationReport> {
    const [report] = await this.validateMany([{ quads, options }]);
    if (report === undefined) throw new Error('the validator answered no report');
    return report;
  }

  async validateMany(records: readonly RecordToValidate[]): Promise<ValidationReport[]> {
    await this.ready;
    const group: Group = {
      records: records.map(({ quads, options }) => ({
        // The write path's quads are a frozen array whose text is made once; canonicalTextOf knows which.
        nquads: Array.isArray(quads) ? canonicalTextOf(quads) : nquadsOf(quads),
        locate: [...(options?.locate ?? new Map<string, string>()).entries()],
      })),
    };
    return new Promise<ValidationReport[]>((resolve, reject) => {
      this.queued.push({ group, waiter: { resolve, reject } });
      if (this.queued.length === 1) setImmediate(() => this.send());
    });
  }

  /** Posts every group queued in this turn to the next worker as one message. */
  private send(): void {
    const queued = this.queued;
    this.queued = [];
    if (this.closed) {
      for (const { waiter } of queued) waiter.reject(new Error('the validator pool was closed'));
      return;
    }
    const worker = this.workers[this.turn++ % this.workers.length];
    if (worker === undefined) {
      for (const { waiter } of queued) waiter.reject(new Error('the validator pool has no worker'));
      return;
    }
    const id = this.nextId++;
    this.waiting.set(
      id,
      queued.map(({ waiter }) => waiter),
    );
    const request: GroupsRequest = { id, groups: queued.map(({ group }) => group) };
    worker.postMessage(request);
  }

  /** Stops the workers. */
  async close(): Promise<void> {
    this.closed = true;
    const closed = new Error('the validator pool was closed');
    for (const waiters of this.waiting.values()) for (const waiter of waiters) waiter.reject(closed);
    for (const { waiter } of this.queued) waiter.reject(closed);
    this.waiting.clear();
    this.queued = [];
    await Promise.all(this.workers.map((worker) => worker.terminate()));
  }
}
