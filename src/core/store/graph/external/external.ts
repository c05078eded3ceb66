/**
 * The external graph store: the graph lives in a SPARQL 1.1 server (`REG_SPARQL_ENDPOINT`), every read and write
 * of it goes there over the SPARQL 1.1 Protocol, and the operational rows of each act stay in `registry.db`.
 *
 * A commit is, in this order: (1) the undo of the coming graph update is journalled in SQLite; (2) the graph part
 * goes to the server as one SPARQL Update request (DELETE DATA of the lines that go, INSERT DATA of the lines that
 * come), or for a commit of more than 500 lines as several in order (see `updateRequests`), a large insert posted
 * to the Graph Store Protocol endpoint when there is one (`requestsOf`); (3) one SQLite
 * transaction records the new state of the records in the subject table, keeps the search index current, runs
 * the act's operational work (`ops`) and drops the journalled undo. If (2) fails, or (3) throws, the undo is sent
 * at once; if it cannot be sent (the server is away, the process died), it is sent before the next commit and at
 * the next start. So both parts are present or neither, once the server answers again; whether one update request
 * is applied whole is the server's business (Virtuoso applies its operations one by one; the undo covers that
 * too, as it covers requests of one commit that stopped half way). Between (2) and (3), other readers of the
 * server may see the new quads for a moment.
 */
import { TooManyRowsError, UnavailableError } from '../../../errors.js';
import type { Logger } from '../../../log.js';
import type { Database } from '../../database.js';
import type { SearchReader } from '../../search-entry.js';
import { ensureSearchSchema, searchRebuilding } from '../../search-index.js';
import { syncExternalBundles, type DigestedBundle } from './external-bundles.js';
import {
  changesOf,
  forgetWritten,
  groupBy,
  keyOf,
  lastWrites,
  recordChanges,
  requestsOf,
  undoRequests,
  updateOf,
  type Change,
  type GraphPost,
} from './external-commit.js';
import { dumpExternal } from './external-dump.js';
import { readExternalRecords, type ReadRecord } from './external-read.js';
import { rebuildExternalSearch } from './external-search.js';
import { refillExternalLineage } from './external-lineage.js';
import { claimLineageIndex, lineageRefillPosition } from '../../lineage/lineage-index.js';
import {
  addIntent,
  countExternalByKind,
  countExternalQuads,
  externalRecordGraphs,
  externalRecordsOutside,
  pendingIntents,
  readExternalRecord,
  recordVerified,
  removeIntent,
  type ExternalRecord,
  type UndoPlan,
} from './external-table.js';
import { QueryGate } from '../query-gate.js';
import { RecordReadCache } from './read-cache.js';
import { normaliseResults, type SparqlClient } from './sparql-client.js';
import { normaliseBinding } from '../sparql-terms.js';
import { BatchedLoad } from '../batched-load.js';
import { storeMetrics } from '../../../ops/metrics.js';
import type {
  Binding,
  BulkLoad,
  GraphStore,
  KindOfLines,
  QueryBudget,
  QueryDataset,
  QueryForm,
  RecordWrite,
  SparqlResponse,
} from '../types.js';
import type { RecordTables } from '../kind-pages.js';

/** Quads per commit of a bulk load whose inserts are posted to the Graph Store Protocol endpoint. */
const BULK_POST_QUADS = 50_000;

/** Commits that share one graph update at most (group commit). */
const MAX_GROUP = 64;

/** A commit waiting its turn. */
interface PendingCommit {
  readonly writes: readonly RecordWrite[];
  readonly ops: () => unknown;
  /** A bulk load's commit: the rows of new records may be written while the server takes their lines. */
  readonly loaded?: boolean;
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: unknown) => void;
}

/** Options of the external store. */
export interface ExternalOptions {
  /** Client queries sent to the server at once (`REG_SPARQL_MAX_RUNNING`); the others wait. */
  readonly maxRunning?: number;
  /** What records contribute to free-text search, kept current by each commit. */
  readonly search: SearchReader;
}

/** The graph store of a registry whose graph lives in an external SPARQL 1.1 server. */
export class ExternalGraphStore implements GraphStore {
  readonly kind = 'sparql' as const;
  readonly recordTables: RecordTables = { records: 'external_record', stats: 'external_stats' };
  readonly keepsDefaultGraph = false;
  readonly answersSideBySide = true;
  readonly notReadyReason = 'the external SPARQL store is not open yet';
  private opened = false;
  private closed = false;
  private commits = 0;
  private queue: Promise<unknown> = Promise.resolve();
  private readonly pending: PendingCommit[] = [];
  private preparing: Promise<string[]> | undefined;
  private searchRebuild: Promise<void> | undefined;
  private lineageRefill: Promise<void> | undefined;
  /**
   * Reads kept for the next read of the same version of a record, and for the commit that follows a read (an
   * edit), which takes the record's old state from here instead of asking again.
   */
  private readonly cache = new RecordReadCache();
  /**
   * Client queries share the server's request threads with the registry's own reads and writes (a stock
   * Virtuoso has 10): at most this many at once, so that clients can never take them all.
   */
  private readonly clientGate: QueryGate;

  constructor(
    private readonly db: Database,
    private readonly bundles: readonly DigestedBundle[],
    private readonly log: Logger,
    /** The SPARQL client; its request counts are read by tests and benchmarks. */
    readonly client: SparqlClient,
    private readonly options: ExternalOptions,
  ) {
    this.clientGate = new QueryGate(options.maxRunning ?? 4);
    if (ensureSearchSchema(db)) this.log.warn('the search index was missing: it is rebuilt at the next open');
    claimLineageIndex(
      db,
      'sparql',
      db.prepare("SELECT 1 FROM external_record WHERE kind IS NOT 'bundle' LIMIT 1").get() !== undefined,
    );
  }

  get ready(): boolean {
    return this.opened && !this.closed;
  }

  get generation(): number {
    return this.commits;
  }

  /**
   * Makes the server ready for this registry: undoes graph updates of commits that did not finish, and writes
   * every reference bundle whose digest differs from the catalogue's. Returns the names of the bundles written.
   * Runs once; `openCore` calls it before the bundle catalogue is brought up to date.
   */
  prepare(): Promise<string[]> {
    this.preparing ??= (async () => {
      await this.recoverIntents();
      const written = await syncExternalBundles(this.client, this.db, this.bundles, this.log);
      return written;
    })();
    return this.preparing;
  }

  async open(): Promise<void> {
    await this.prepare();
    // The server is the query view: a query that reaches it proves it usable.
    await this.client.queryJson('ASK { }');
    this.opened = true;
    if (searchRebuilding(this.db)) {
      this.searchRebuild ??= rebuildExternalSearch(
        this.db,
        this.client,
        this.options.search,
        this.log,
        () => this.closed,
      ).finally(() => {
        this.searchRebuild = undefined;
      });
    }
    if (lineageRefillPosition(this.db) !== undefined)
      this.lineageRefill ??= refillExternalLineage(
        this.db,
        (graph, subjects) => this.readRecords(graph, subjects),
        {
          stopped: () => this.closed,
          log: this.log,
        },
      ).finally(() => {
        this.lineageRefill = undefined;
      });
  }

  async lineageFilled(): Promise<void> {
    await this.lineageRefill;
  }

  async readRecord(graph: string, subject: string): Promise<string | undefined> {
    return (await this.readRecords(graph, [subject])).get(subject);
  }

  /**
   * Records are read from the server together, in as few requests as the quad budget allows; a record read before
   * and not written since is answered from the read cache.
   */
  async readRecords(graph: string, subjects: readonly string[]): Promise<Map<string, string>> {
    const records = [...new Set(subjects)]
      .map((subject) => readExternalRecord(this.db, graph, subject))
      .filter((record) => record !== undefined);
    const texts = new Map<string, string>();
    const unread: ExternalRecord[] = [];
    for (const record of records) {
      const cached = this.cache.get(keyOf(record), record.version);
      if (cached === undefined) unread.push(record);
      else texts.set(record.subject, cached.text);
    }
    if (unread.length > 0) {
      const tokens = unread.map((record) => this.cache.startRead(keyOf(record)));
      let reads: Map<string, ReadRecord> | undefined;
      try {
        reads = await this.read(graph, unread);
      } finally {
        unread.forEach((record, at) =>
          this.cache.endRead(keyOf(record), tokens[at], record.version, reads?.get(record.subject)),
        );
      }
      for (const [subject, read] of reads) texts.set(subject, read.text);
    }
    const out = new Map<string, string>();
    for (const record of records) {
      const text = texts.get(record.subject);
      if (text !== undefined) out.set(record.subject, text);
    }
    return out;
  }

  /** Drops every read kept in the read cache, so that the next read of each record asks the server. */
  forgetReads(): void {
    this.cache.clear();
  }

  /** Reads records of one graph from the server, recording the server forms of lines it learns. */
  private read(graph: string, records: readonly ExternalRecord[]): Promise<Map<string, ReadRecord>> {
    return readExternalRecords(this.client, graph, records, (found) => {
      this.db.transaction(() => {
        for (const { record, rewrites } of found) recordVerified(this.db, record, rewrites);
      });
    });
  }

  /**
   * Queues the commit. Commits wait their turn; those that arrived while an earlier one ran go together, as a group:
   * one planned graph update (one request for most groups) under one undo journal entry, then one transaction of
   * the operational rows in which each act's work runs in order. Should any act of a group fail, the group's graph
   * update is undone and its acts are committed again one by one, so that one failed act never fails another.
   */
  commit<T>(writes: readonly RecordWrite[], ops: () => T): Promise<T> {
    return this.enqueue(writes, ops, false);
  }

  /**
   * Commits a batch of a bulk load, which has no operational work of its own: when every record of it is new,
   * their rows are written while the server takes their lines instead of after (the undo journal names them, so
   * that an undo forgets them again).
   */
  commitLoaded(writes: readonly RecordWrite[]): Promise<void> {
    return this.enqueue(writes, () => undefined, true);
  }

  private enqueue<T>(writes: readonly RecordWrite[], ops: () => T, loaded: boolean): Promise<T> {
    return storeMetrics(this).timeCommit(
      'sparql',
      () =>
        new Promise<T>((resolve, reject) => {
          this.pending.push({ writes, ops, loaded, resolve: resolve as (value: unknown) => void, reject });
          if (this.pending.length === 1) this.queue = this.queue.then(() => this.flush());
        }),
    );
  }

  /** Commits what is queued: alone, or as a group. Never rejects; each act hears its own outcome. */
  private async flush(): Promise<void> {
    const group = this.pending.splice(0, MAX_GROUP);
    if (this.pending.length > 0) this.queue = this.queue.then(() => this.flush());
    storeMetrics(this).commitBatch.observe(group.length);
    const alone = async (act: PendingCommit): Promise<void> => {
      try {
        act.resolve(await this.apply(act.writes, act.ops, act.loaded === true));
      } catch (error) {
        act.reject(error);
      }
    };
    if (group.length === 1) return alone(group[0] as PendingCommit);
    let results: unknown[];
    try {
      results = await this.apply(
        group.flatMap((act) => act.writes),
        () => group.map((act) => act.ops()),
      );
    } catch {
      // Undone (or journalled to be undone before the next commit): each act is tried again on its own.
      for (const act of group) await alone(act);
      return;
    }
    group.forEach((act, at) => act.resolve(results[at]));
  }

  private async apply<T>(writes: readonly RecordWrite[], ops: () => T, loaded = false): Promise<T> {
    if (this.closed) throw new UnavailableError('the graph store is closed');
    try {
      return await this.applyNow(writes, ops, loaded);
    } finally {
      // Whatever happened, reads of the records written, made before or meanwhile, may no longer hold.
      this.commits++;
      this.cache.writeEnds(writes.map(keyOf));
    }
  }

  private async applyNow<T>(writes: readonly RecordWrite[], ops: () => T, loaded: boolean): Promise<T> {
    await this.recoverIntents();
    const changes = await this.plan(writes);
    this.cache.writeStarts(writes.map(keyOf));
    const update = updateOf(this.db, changes);
    const { updates, posts } = requestsOf(update, this.client.postsGraphs);
    const sends = updates.length > 0 || posts.length > 0;
    // A bulk load's batch of new records has their rows written while the server takes their lines.
    const ahead =
      loaded && sends && changes.every((change) => change.before === undefined && change.lines !== null);
    const undo: UndoPlan = ahead
      ? { ...update.undo, written: changes.map(({ write }) => [write.graph, write.subject] as const) }
      : update.undo;
    let intent: number | undefined;
    if (sends) {
      // The undo must be on disk before the server changes; the log is flushed off the serving thread.
      const journalled = this.db.transactionDurableLater(() =>
        addIntent(this.db, undo, new Date().toISOString()),
      );
      await journalled.durable;
      intent = journalled.result;
      if (ahead) return this.writtenAhead(changes, updates, posts, intent, undo, ops);
      try {
        await this.send(updates, posts);
      } catch (error) {
        await this.undo(intent, undo);
        throw error;
      }
    }
    let committed: { readonly result: T; readonly durable: Promise<void> };
    try {
      committed = this.db.transactionDurableLater(() => {
        recordChanges(this.db, this.options.search, changes);
        if (intent !== undefined) removeIntent(this.db, intent);
        return ops();
      });
    } catch (error) {
      if (intent !== undefined) await this.undo(intent, undo);
      throw error;
    }
    // No act hears of its commit before it is on disk.
    await committed.durable;
    return committed.result;
  }

  /**
   * Sends a commit's graph update: its update requests, then its posts; `onPosted` is told when the last post has
   * been handed to the network.
   */
  private async send(
    updates: readonly string[],
    posts: readonly GraphPost[],
    onPosted?: () => void,
  ): Promise<void> {
    for (const request of updates) await this.client.update(request);
    for (const [at, post] of posts.entries())
      await this.client.postGraph(post.graph, post.ntriples, at === posts.length - 1 ? onPosted : undefined);
  }

  /**
   * Writes the rows of a batch of new records while the server takes their lines, then drops the journalled undo
   * once both are durable. Should either fail, the undo takes the lines back and forgets the rows. The rows are
   * written once the last post has left (a transaction holds the thread, and with it a post still being sent).
   */
  private async writtenAhead<T>(
    changes: readonly Change[],
    updates: readonly string[],
    posts: readonly GraphPost[],
    intent: number,
    undo: UndoPlan,
    ops: () => T,
  ): Promise<T> {
    let posted: () => void = () => undefined;
    const left = new Promise<void>((resolve) => (posted = resolve));
    const sent = this.send(updates, posts, posted);
    sent.catch(() => undefined);
    let committed: { readonly result: T; readonly durable: Promise<void> };
    try {
      await Promise.race([left, sent]);
      committed = this.db.transactionDurableLater(() => {
        recordChanges(this.db, this.options.search, changes);
        return ops();
      });
      await sent;
      await committed.durable;
    } catch (error) {
      await sent.catch(() => undefined);
      await this.undo(intent, undo);
      throw error;
    }
    await this.db.transactionDurableLater(() => removeIntent(this.db, intent)).durable;
    return committed.result;
  }

  /** Reads the records a commit writes and works out what changes; unchanged records are left out. */
  private async plan(writes: readonly RecordWrite[]): Promise<Change[]> {
    const last = lastWrites(writes);
    const before = new Map<string, ExternalRecord>();
    for (const [key, write] of last) {
      const record = readExternalRecord(this.db, write.graph, write.subject);
      if (record !== undefined) before.set(key, record);
    }
    const old = new Map<string, ReadRecord>();
    const unread: ExternalRecord[] = [];
    for (const [key, record] of before) {
      const cached = this.cache.get(key, record.version);
      if (cached !== undefined) old.set(key, cached);
      else unread.push(record);
    }
    for (const [graph, records] of groupBy(unread, (record) => record.graph)) {
      const read = await this.read(graph, records);
      for (const [subject, record] of read) old.set(`${graph}\n${subject}`, record);
    }
    return changesOf(last, before, old);
  }

  /** Sends the undo of a graph update whose commit failed; if that fails too, it stays journalled. */
  private async undo(intent: number, undo: UndoPlan): Promise<void> {
    try {
      await this.sendUndo(undo);
      this.db.transaction(() => {
        forgetWritten(this.db, this.options.search, undo);
        removeIntent(this.db, intent);
      });
    } catch (error) {
      this.log.error(
        'a failed commit could not be undone on the SPARQL endpoint yet; it is retried before the next commit',
        {
          endpoint: this.client.endpoint,
          detail: (error as Error).message,
        },
      );
    }
  }

  private async sendUndo(undo: UndoPlan): Promise<void> {
    for (const request of undoRequests(undo)) await this.client.update(request);
  }

  /** Sends the journalled undo of every commit that did not finish (a crash, or a server away at the time). */
  private async recoverIntents(): Promise<void> {
    for (const intent of pendingIntents(this.db)) {
      // Reads kept since that commit, or made while its undo is on the way, may hold the lines it takes back.
      this.cache.clear();
      await this.sendUndo(intent.undo);
      this.cache.clear();
      this.db.transaction(() => {
        forgetWritten(this.db, this.options.search, intent.undo);
        removeIntent(this.db, intent.id);
      });
      this.log.warn('the graph update of an unfinished commit was undone on the SPARQL endpoint', {
        endpoint: this.client.endpoint,
      });
    }
  }

  async select(query: string): Promise<Binding[]> {
    return (await this.client.selectRaw(query)).map(normaliseBinding);
  }

  async ping(): Promise<void> {
    await this.ask('ASK { GRAPH ?g { ?s ?p ?o } }');
  }

  async ask(query: string): Promise<boolean> {
    const json = await this.client.queryJson(query);
    if (typeof json.boolean !== 'boolean')
      throw new UnavailableError(
        `the SPARQL endpoint ${this.client.endpoint} answered an ASK without a boolean`,
      );
    return json.boolean;
  }

  /**
   * Sends a client query to the server within its budget (its own time limit), at most `maxRunning` at once: a
   * query waits for a turn for at most its time limit (then 503).
   */
  async query(
    query: string,
    form: QueryForm,
    budget: QueryBudget,
    dataset?: QueryDataset,
  ): Promise<SparqlResponse> {
    if (this.closed) throw new UnavailableError('the graph store is closed');
    const timing = { timeoutMs: budget.timeoutMs, timeoutSetting: budget.timeoutSetting };
    const leave = await this.clientGate.enter(budget.timeoutMs);
    try {
      // Without a dataset from the client none is sent: the server's default graph is the union of its graphs,
      // like the embedded index's for clients. (Virtuoso answers GRAPH patterns holding a BIND wrongly under a
      // dataset given as protocol parameters, so one is only sent when the client named it.)
      const graphs = dataset === undefined ? undefined : datasetParams(dataset);
      if (form === 'CONSTRUCT' || form === 'DESCRIBE') {
        const { body } = await this.client.query(query, 'text/turtle', timing, graphs);
        return { contentType: 'text/turtle; charset=utf-8', body };
      }
      const json = await this.client.queryJson(query, timing, graphs);
      if (form === 'SELECT' && (json.results?.bindings.length ?? 0) > budget.maxRows)
        throw new TooManyRowsError(budget.maxRows, budget.rowsSetting);
      return { contentType: 'application/sparql-results+json; charset=utf-8', body: normaliseResults(json) };
    } finally {
      leave();
    }
  }

  recordGraphs(): string[] {
    return externalRecordGraphs(this.db);
  }

  recordsOutside(graph: string, prefix: string): { count: number; example: string | null } {
    return externalRecordsOutside(this.db, graph, prefix);
  }

  /**
   * A restore or migration: through the commit path, 500 quads per commit (one INSERT DATA each), or 50,000 when
   * inserts can be posted to a Graph Store Protocol endpoint (a few POSTs each).
   */
  bulkLoad(kindOf: KindOfLines): BulkLoad {
    return new BatchedLoad(this, kindOf, this.client.postsGraphs ? BULK_POST_QUADS : undefined);
  }

  countQuads(): Promise<number> {
    const bundleQuads = this.bundles.reduce((sum, bundle) => sum + bundle.tripleCount, 0);
    return Promise.resolve(bundleQuads + countExternalQuads(this.db));
  }

  countByKind(graph: string): Promise<Map<string, number>> {
    return Promise.resolve(countExternalByKind(this.db, graph));
  }

  dump(options: { graph?: string } = {}): AsyncIterable<string> {
    return dumpExternal(this.db, this.bundles, (graph, records) => this.read(graph, records), options);
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.queue;
    await this.searchRebuild;
    await this.lineageRefill;
    this.client.close();
  }
}

/** A graph no record is kept in: it stands for an empty list, which the protocol cannot send. */
const EMPTY_GRAPH = 'urn:reg:graph:empty';

/**
 * The protocol parameters of a client's dataset. A server given named graphs only would take its own default
 * graph (Virtuoso's is every graph), so an empty list is sent as a graph that holds nothing.
 */
function datasetParams(dataset: QueryDataset): [string, string][] {
  const list = (name: string, graphs: readonly string[]): [string, string][] =>
    (graphs.length === 0 ? [EMPTY_GRAPH] : graphs).map((graph) => [name, graph]);
  return [
    ...list('default-graph-uri', dataset.defaultGraphs),
    ...list('named-graph-uri', dataset.namedGraphs),
  ];
}
