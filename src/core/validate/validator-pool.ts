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
 * Characters of N-Quads from which a call counts as large: a few dozen ordinary records. Large calls have a
 * worker of their own, so one that takes seconds never holds up the ordinary writes queued behind it.
 */
export const LARGE_GROUP_CHARS = 256 * 1024;

/**
 * A validator that runs in worker threads, so SHACL work leaves the thread serving HTTP. Results are the same as
 * the in-thread validator's: the worker runs that very validator. Calls made in the same turn of the event loop
 * (concurrent requests) travel to a worker in one message and come back in one, each keeping its own outcome:
 * posting a message costs the serving thread more than copying its text. Large calls (an advertisement of many
 * artifacts, records with long lists) go to a separate lane, started when the first one comes, so the ordinary
 * lane's answers (and the commits waiting on them) never wait for a large validation.
 */
export class ValidatorPool implements RecordValidator {
  private readonly ordinary: Lane;
  private large: Lane | undefined;
  private closed = false;

  constructor(
    private readonly shapes: string,
    size: number,
  ) {
    this.ordinary = new Lane(shapes, size);
  }

  async validate(quads: Iterable<RDF.Quad>, options: ValidateOptions = {}): Promise<ValidationReport> {
    const [report] = await this.validateMany([{ quads, options }]);
    if (report === undefined) throw new Error('the validator answered no report');
    return report;
  }

  async validateMany(records: readonly RecordToValidate[]): Promise<ValidationReport[]> {
    const group: Group = {
      records: records.map(({ quads, nquads, options }) => ({
        // The write path's quads are a frozen array whose text is made once; canonicalTextOf knows which.
        nquads: nquads ?? (Array.isArray(quads) ? canonicalTextOf(quads) : nquadsOf(quads)),
        locate: [...(options?.locate ?? new Map<string, string>()).entries()],
      })),
    };
    const size = group.records.reduce((sum, record) => sum + record.nquads.length, 0);
    if (this.closed) throw new Error('the validator pool was closed');
    const lane = size >= LARGE_GROUP_CHARS ? (this.large ??= new Lane(this.shapes, 1)) : this.ordinary;
    return lane.submit(group);
  }

  /** Stops the workers. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([this.ordinary.close(), this.large?.close()]);
  }
}

/** Worker threads fed round robin, each message carrying every group queued in one turn. */
class Lane {
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
            if (reply.id === 0) resolve(undefined);
            else this.answer(reply);
          });
        }),
      );
      worker.postMessage({ shapes });
      this.workers.push(worker);
    }
    this.ready = Promise.all(started);
    this.ready.catch(() => undefined);
  }

  async submit(group: Group): Promise<ValidationReport[]> {
    await this.ready;
    return new Promise<ValidationReport[]>((resolve, reject) => {
      this.queued.push({ group, waiter: { resolve, reject } });
      if (this.queued.length === 1) setImmediate(() => this.send());
    });
  }

  private answer(reply: GroupsReply): void {
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
