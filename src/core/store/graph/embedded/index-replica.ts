import { pacer } from '../../../pacer.js';
import { UnavailableError } from '../../../errors.js';
import type { Logger } from '../../../log.js';
import type { Database } from '../../database.js';
import { IndexClient } from './index-client.js';
import { iterateRecords } from './record-table.js';
import type { BundleGraph } from '../types.js';

/** Bytes of N-Quads text sent to the index per load call; about 1 MiB loads fastest. */
const LOAD_CHUNK_BYTES = 1 << 20;
/** Wait before loading again after a load itself failed, so that a persistent fault does not spin. */
const RELOAD_PAUSE_MS = 1000;

/** The quads one commit removed and added, as N-Quads text. */
export interface IndexChange {
  readonly remove: string;
  readonly add: string;
}

/** How a copy of the index behaves. */
export interface ReplicaOptions {
  /** How the log names it. */
  readonly name: string;
  /** Load it again at once when it fails (the registry's own index); otherwise at its next use. */
  readonly eager: boolean;
  /**
   * A nice value for its worker thread (Linux): a copy that runs clients' queries yields the CPU to the threads
   * that answer the API when both want it.
   */
  readonly niceness?: number;
}

/**
 * One in-memory copy of the query index, in a worker of its own, loaded from the record rows of the durable store
 * (SQLite) and kept current by the changes of each commit. When its worker fails it is replaced by a fresh one
 * loaded from the rows again; changes committed while a copy loads are applied to it once it is loaded.
 */
export class IndexReplica {
  private client: IndexClient | undefined;
  /** The worker loaded or being loaded now; failures of earlier ones concern nobody. */
  private current: IndexClient | undefined;
  private loading: Promise<IndexClient> | undefined;
  /** Changes committed while a copy loads (the loader may have read older rows). */
  private missed: IndexChange[] | undefined;
  private closed = false;

  /**
   * @param spare a worker already started, used for the first load (its thread boots while start-up goes on).
   */
  constructor(
    private readonly db: Database,
    private readonly bundles: readonly BundleGraph[],
    private readonly log: Logger,
    private readonly options: ReplicaOptions,
    private spare: IndexClient | undefined = undefined,
  ) {}

  /** Whether a loaded copy answers now. */
  get ready(): boolean {
    return this.client !== undefined && !this.client.failed;
  }

  /** Whether a copy is loaded or loading (and so holds memory). */
  get held(): boolean {
    return this.client !== undefined || this.loading !== undefined;
  }

  /** The loaded copy; loads one first when there is none (first use, or after a failure). */
  ensure(): Promise<IndexClient> {
    if (this.closed) return Promise.reject(new UnavailableError('the query index was closed'));
    if (this.client !== undefined && !this.client.failed) return Promise.resolve(this.client);
    this.loading ??= this.load().finally(() => {
      this.loading = undefined;
    });
    return this.loading;
  }

  private async load(): Promise<IndexClient> {
    this.client = undefined;
    const index = this.spare ?? new IndexClient();
    this.spare = undefined;
    this.current = index;
    index.onFailure((error) => this.lost(index, error));
    if (this.options.niceness !== undefined)
      index.request({ op: 'nice', value: this.options.niceness }).catch(() => undefined);
    this.missed = [];
    const started = Date.now();
    try {
      await index.started;
      await loadRows(this.db, this.bundles, index);
      for (let change = this.missed.shift(); change !== undefined; change = this.missed.shift())
        await index.request({ op: 'replace', ...change });
    } catch (error) {
      this.missed = undefined;
      await index.close();
      if (this.options.eager) this.reloadSoon(RELOAD_PAUSE_MS);
      throw error;
    }
    // Both at once, with no await between: from here on commits go straight to the loaded copy.
    this.missed = undefined;
    this.client = index;
    this.log.debug(`${this.options.name} loaded`, { ms: Date.now() - started });
    return index;
  }

  /** A worker of this copy failed: an eager copy loads again now, a lazy one at its next use. */
  private lost(index: IndexClient, error: Error): void {
    if (this.closed || this.current !== index) return;
    if (this.client === index) this.client = undefined;
    this.log.warn(`${this.options.name} failed; it is loaded again from the stored records`, {
      reason: error.message,
      at_once: this.options.eager,
    });
    if (this.options.eager && this.loading === undefined) this.reloadSoon(0);
  }

  private reloadSoon(pauseMs: number): void {
    const reload = (): void => {
      if (this.closed) return;
      // A load that fails schedules the next try itself.
      this.ensure().catch((error: unknown) => {
        this.log.error(`${this.options.name} could not be loaded; trying again`, {
          detail: (error as Error).message,
        });
      });
    };
    if (pauseMs === 0) reload();
    else setTimeout(reload, pauseMs).unref();
  }

  /**
   * Applies a committed change. A copy still loading gets it once loaded; with no copy, or a failed one, there is
   * nothing to do: the next load reads the rows, which hold it. Never rejects: a copy that cannot apply a change
   * is given up (and loaded again).
   */
  async publish(change: IndexChange): Promise<void> {
    if (this.missed !== undefined) {
      this.missed.push(change);
      return;
    }
    const index = this.client;
    if (index === undefined || index.failed) return;
    try {
      await index.request({ op: 'replace', ...change });
    } catch (error) {
      if (!index.failed) index.abandon(`a change could not be applied (${(error as Error).message})`);
    }
  }

  /** Drops the loaded copy to free its memory; the next use loads it again. */
  async release(): Promise<void> {
    const index = this.client;
    if (index === undefined || this.loading !== undefined) return;
    this.client = undefined;
    this.current = undefined;
    await index.close();
  }

  /** Stops the copy; a load under way fails (its requests are rejected) rather than run to its end. */
  async close(): Promise<void> {
    this.closed = true;
    await this.current?.close();
    await this.loading?.catch(() => undefined);
    await this.spare?.close();
    this.client = undefined;
    this.current = undefined;
    this.spare = undefined;
  }
}

/** Loads every record row and reference bundle into a fresh index, streaming the rows in ~1 MiB chunks. */
async function loadRows(db: Database, bundles: readonly BundleGraph[], index: IndexClient): Promise<void> {
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
  // A load in the background (a fresh copy after a failure or for client queries) shares the serving thread
  // with requests, so rows are read in short slices between them.
  const pause = pacer();
  for (const row of iterateRecords(db, { batch: 200 })) {
    await pause();
    chunk.push(row.nquads);
    size += row.nquads.length;
    if (size >= LOAD_CHUNK_BYTES) {
      await send(chunk.join(''));
      chunk = [];
      size = 0;
    }
  }
  if (chunk.length > 0) await send(chunk.join(''));
  for (const bundle of bundles) {
    track(index.request({ op: 'loadGraph', ntriples: bundle.ntriples, graph: bundle.graph }));
  }
  await Promise.all(inFlight);
}
