import type { Worker } from 'node:worker_threads';
import type * as RDF from '@rdfjs/types';
import N3 from 'n3';
import { startWorker } from '../workers/start-worker.js';
import type { RecordToValidate, RecordValidator, ValidateOptions, ValidationReport } from './validator.js';

interface Waiter {
  resolve(reports: ValidationReport[]): void;
  reject(error: Error): void;
}

const writer = new N3.Writer({ format: 'N-Quads' });

/**
 * A validator that runs in worker threads (round robin), so SHACL work leaves the thread serving HTTP. Results
 * are the same as the in-thread validator's: the worker runs that very validator.
 */
export class ValidatorPool implements RecordValidator {
  private readonly workers: Worker[] = [];
  private readonly waiting = new Map<number, Waiter>();
  private readonly ready: Promise<unknown>;
  private nextId = 1;
  private turn = 0;

  constructor(shapes: string, size: number) {
    const started: Promise<unknown>[] = [];
    for (let i = 0; i < size; i++) {
      const worker = startWorker(import.meta.url, 'validator-worker');
      worker.unref();
      started.push(
        new Promise((resolve, reject) => {
          worker.once('error', reject);
          worker.on(
            'message',
            (reply: { id: number; ok: boolean; reports?: ValidationReport[]; message?: string }) => {
              if (reply.id === 0) return resolve(undefined);
              const waiter = this.waiting.get(reply.id);
              this.waiting.delete(reply.id);
              if (reply.ok && reply.reports !== undefined) waiter?.resolve(reply.reports);
              else waiter?.reject(new Error(reply.message ?? 'validation failed'));
            },
          );
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
    const message = records.map(({ quads, options }) => {
      const lines: string[] = [];
      for (const quad of quads)
        lines.push(writer.quadToString(quad.subject, quad.predicate, quad.object, quad.graph));
      return {
        nquads: lines.join(''),
        locate: [...(options?.locate ?? new Map<string, string>()).entries()],
      };
    });
    const worker = this.workers[this.turn++ % this.workers.length];
    if (worker === undefined) throw new Error('the validator pool has no worker');
    const id = this.nextId++;
    return new Promise<ValidationReport[]>((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      worker.postMessage({ id, records: message });
    });
  }

  /** Stops the workers. */
  async close(): Promise<void> {
    for (const waiter of this.waiting.values()) waiter.reject(new Error('the validator pool was closed'));
    this.waiting.clear();
    await Promise.all(this.workers.map((worker) => worker.terminate()));
  }
}
