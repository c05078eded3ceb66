import { UnavailableError } from '../../errors.js';
import type { Logger } from '../../log.js';
import type { Database } from '../database.js';
import { canonicalText, quadToLine, toNQuads, toNTriples } from '../nquads.js';
import { IndexClient } from './index-client.js';
import {
  countRecordQuads,
  countRecordsByKind,
  deleteRecord,
  iterateRecords,
  readRecord,
  writeRecord,
} from './record-table.js';
import type { Binding, BundleGraph, GraphStore, QueryForm, RecordWrite, SparqlResponse } from './types.js';

/** Bytes of N-Quads text sent to the index per load call; about 1 MiB loads fastest. */
const LOAD_CHUNK_BYTES = 1 << 20;

/**
 * The embedded graph store: SQLite (`registry.db`, one row per record) is the truth; an in-memory oxigraph index in
 * a worker thread answers SPARQL and is rebuilt from the rows at every start.
 */
export class EmbeddedGraphStore implements GraphStore {
  readonly kind = 'embedded' as const;
  private isReady = false;
  private rebuilding: Promise<void> | undefined;
  private bundleQuads: number | undefined;
  private commits = 0;

  /**
   * @param index a query index already started (its worker boots while the caller does other start-up work);
   *   when absent, `open()` starts one.
   */
  constructor(
    private readonly db: Database,
    private readonly bundles: readonly BundleGraph[],
    private readonly log: Logger,
    private index: IndexClient | undefined = undefined,
  ) {}

  get generation(): number {
    return this.commits;
  }

  get ready(): boolean {
    return this.isReady && this.index !== undefined && !this.index.failed;
  }

  async open(): Promise<void> {
    this.index ??= new IndexClient();
    await this.index.started;
    await this.loadIndex(this.index);
    this.isReady = true;
  }

  private async loadIndex(index: IndexClient): Promise<void> {
    const started = Date.now();
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
    for (const row of iterateRecords(this.db, { batch: 2000 })) {
      chunk.push(row.nquads);
      size += row.nquads.length;
      if (size >= LOAD_CHUNK_BYTES) {
        await send(chunk.join(''));
        chunk = [];
        size = 0;
      }
    }
    if (chunk.length > 0) await send(chunk.join(''));
    for (const bundle of this.bundles) {
      track(index.request({ op: 'loadGraph', ntriples: bundle.ntriples, graph: bundle.graph }));
    }
    await Promise.all(inFlight);
    this.log.debug('query index loaded', { ms: Date.now() - started });
  }

  /** Drops the index and loads it again from the durable rows; used when the index failed. */
  private async rebuild(reason: string): Promise<void> {
    this.rebuilding ??= (async () => {
      this.log.warn('rebuilding the query index', { reason });
      this.isReady = false;
      await this.index?.close();
      this.index = new IndexClient();
      await this.index.started;
      await this.loadIndex(this.index);
      this.isReady = true;
    })().finally(() => {
      this.rebuilding = undefined;
    });
    return this.rebuilding;
  }

  readRecord(graph: string, subject: string): Promise<string | undefined> {
    return Promise.resolve(readRecord(this.db, graph, subject)?.nquads);
  }

  async commit<T>(writes: readonly RecordWrite[], ops: () => T): Promise<T> {
    const now = new Date().toISOString();
    const removed: string[] = [];
    const added: string[] = [];
    const result = this.db.transaction(() => {
      for (const write of writes) {
        const before = readRecord(this.db, write.graph, write.subject);
        if (write.quads === null) {
          if (before !== undefined) {
            deleteRecord(this.db, write.graph, write.subject);
            removed.push(before.nquads);
          }
          continue;
        }
        const nquads = canonicalText(write.quads.map(quadToLine));
        if (before?.nquads === nquads && (write.kind === undefined || write.kind === before.kind)) continue;
        const quadCount = nquads.length === 0 ? 0 : nquads.split('\n').length - 1;
        writeRecord(
          this.db,
          { graph: write.graph, subject: write.subject, nquads, quadCount, kind: write.kind ?? null },
          now,
        );
        if (before !== undefined) removed.push(before.nquads);
        added.push(nquads);
      }
      return ops();
    });
    this.commits++;
    await this.publish(removed.join(''), added.join(''));
    return result;
  }

  private async publish(remove: string, add: string): Promise<void> {
    if (this.index === undefined || (remove.length === 0 && add.length === 0)) return;
    if (this.rebuilding !== undefined) return; // the rebuild reads the committed rows
    try {
      await this.index.request({ op: 'replace', remove, add });
    } catch (error) {
      await this.rebuild((error as Error).message);
    }
  }

  private requireIndex(): IndexClient {
    if (!this.ready || this.index === undefined)
      throw new UnavailableError('the query index is still loading');
    return this.index;
  }

  /** Runs a query whose result is SPARQL JSON, over the named graphs only (no union default graph). */
  private async queryJson<T>(query: string): Promise<T> {
    const body = (await this.requireIndex().request({
      op: 'query',
      query,
      format: 'json',
      union: false,
    })) as string;
    return JSON.parse(body) as T;
  }

  async select(query: string): Promise<Binding[]> {
    return (await this.queryJson<{ results: { bindings: Binding[] } }>(query)).results.bindings;
  }

  async ask(query: string): Promise<boolean> {
    return (await this.queryJson<{ boolean: boolean }>(query)).boolean;
  }

  async query(query: string, form: QueryForm): Promise<SparqlResponse> {
    const graphForm = form === 'CONSTRUCT' || form === 'DESCRIBE';
    const body = (await this.requireIndex().request({
      op: 'query',
      query,
      format: graphForm ? 'turtle' : 'json',
      union: true,
    })) as string;
    return {
      contentType: graphForm
        ? 'text/turtle; charset=utf-8'
        : 'application/sparql-results+json; charset=utf-8',
      body,
    };
  }

  countQuads(): Promise<number> {
    this.bundleQuads ??= this.bundles.reduce((sum, bundle) => sum + countLines(bundle.ntriples), 0);
    return Promise.resolve(this.bundleQuads + countRecordQuads(this.db));
  }

  countByKind(graph: string): Promise<Map<string, number>> {
    return Promise.resolve(countRecordsByKind(this.db, graph));
  }

  async *dump(options: { graph?: string } = {}): AsyncIterable<string> {
    const graph = options.graph;
    for (const bundle of this.bundles) {
      if (graph === undefined) yield toNQuads(bundle.ntriples, bundle.graph);
      else if (graph === bundle.graph) yield bundle.ntriples;
    }
    let chunk: string[] = [];
    let size = 0;
    const rows = graph === undefined ? iterateRecords(this.db) : iterateRecords(this.db, { graph });
    for (const row of rows) {
      const text = graph === undefined ? row.nquads : toNTriples(row.nquads, graph);
      chunk.push(text);
      size += text.length;
      if (size >= LOAD_CHUNK_BYTES) {
        yield chunk.join('');
        chunk = [];
        size = 0;
        // Let other work (HTTP requests, writes) run between chunks of a large dump.
        await new Promise((resolve) => setImmediate(resolve));
      }
    }
    if (chunk.length > 0) yield chunk.join('');
  }

  async close(): Promise<void> {
    this.isReady = false;
    await this.index?.close();
    this.index = undefined;
  }
}

function countLines(text: string): number {
  let count = 0;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) count++;
  return count;
}
