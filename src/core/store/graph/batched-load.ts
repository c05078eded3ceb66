import { linesOf, parseNQuads, textOfLines, type Quad } from '../nquads.js';
import type {
  BulkLoad,
  CommittedRecord,
  GraphStore,
  KindOfLines,
  MergeTarget,
  RecordWrite,
} from './types.js';

/** Quads per commit of a batched load, unless the store asks for another size. */
const COMMIT_QUADS = 500;

/** Records of a batch by graph and subject, with their merged lines. */
type Batch = Map<string, { graph: string; subject: string; lines: string[] }>;

/**
 * A bulk load through the store's own commit, a few hundred quads at a time: records merged in memory a batch
 * at a time, each batch one commit (for the external store, one SPARQL Update), which keeps the store's subject
 * table and search index current. One batch is committed while the next is merged (the server takes a batch
 * while the registry reads and merges the next); a record of the batch being committed is read from it, not
 * from the store. The caller checks the whole input before the first commit, so malformed input still writes
 * nothing: before the first merge, or alongside the merges with every commit held until it passes (`holdCommits`).
 */
export class BatchedLoad implements BulkLoad {
  readonly atomic = false;
  onCommit: ((records: readonly CommittedRecord[]) => Promise<void>) | undefined;
  private pending: Batch = new Map();
  private pendingQuads = 0;
  /** The batch being committed, and its commit. */
  private committing: Batch = new Map();
  private inFlight: Promise<void> | undefined;
  /** What every commit waits for (`holdCommits`). */
  private held: Promise<void> = Promise.resolve();

  constructor(
    private readonly store: Pick<GraphStore, 'readRecord' | 'readRecords' | 'commit'> & {
      /** Commits a batch that has no operational work, as a bulk load may (`ExternalGraphStore.commitLoaded`). */
      commitLoaded?(writes: readonly RecordWrite[]): Promise<void>;
    },
    private readonly kindOf: KindOfLines,
    /** Quads gathered before a commit. */
    private readonly commitQuads = COMMIT_QUADS,
  ) {}

  /** Records read ahead for the next merges (`prefetch`), by graph and subject; null: not in the store. */
  private readonly known = new Map<string, string[] | null>();

  private async current(graph: string, subject: string): Promise<string[] | undefined> {
    const key = `${graph}\n${subject}`;
    const pending = this.pending.get(key) ?? this.committing.get(key);
    if (pending !== undefined) return pending.lines;
    const known = this.known.get(key);
    if (known !== undefined) return known ?? undefined;
    const text = await this.store.readRecord(graph, subject);
    return text === undefined ? undefined : linesOf(text);
  }

  async prefetch(records: readonly { readonly graph: string; readonly subject: string }[]): Promise<void> {
    this.known.clear();
    const byGraph = new Map<string, Set<string>>();
    for (const { graph, subject } of records) {
      const key = `${graph}\n${subject}`;
      if (this.pending.has(key) || this.committing.has(key)) continue;
      const subjects = byGraph.get(graph) ?? new Set<string>();
      byGraph.set(graph, subjects.add(subject));
    }
    for (const [graph, subjects] of byGraph) {
      const texts = await this.store.readRecords(graph, [...subjects]);
      for (const subject of subjects) {
        const text = texts.get(subject);
        this.known.set(`${graph}\n${subject}`, text === undefined ? null : linesOf(text));
      }
    }
  }

  holdCommits(until: Promise<void>): void {
    this.held = until;
  }

  async exists(graph: string, subject: string): Promise<boolean> {
    return (await this.current(graph, subject)) !== undefined;
  }

  async merge(target: MergeTarget): Promise<number> {
    const before = (await this.current(target.graph, target.subject)) ?? [];
    const existing = new Set(before);
    const fresh = new Set(target.lines.filter((line) => !existing.has(line)));
    if (fresh.size === 0 && (!target.replace || existing.size === new Set(target.lines).size)) return 0;
    // Kept canonical (unique, in code point order), so that the commit joins them as they are.
    const lines = [...new Set(target.replace ? target.lines : [...existing, ...fresh])].sort();
    this.pending.set(`${target.graph}\n${target.subject}`, {
      graph: target.graph,
      subject: target.subject,
      lines,
    });
    this.pendingQuads += lines.length;
    if (this.pendingQuads >= this.commitQuads) await this.commitAside();
    return fresh.size;
  }

  /** Commits the pending batch while merging goes on, once the batch before it is committed. */
  private async commitAside(): Promise<void> {
    await this.inFlight;
    const taken = this.take();
    this.committing = taken.batch;
    const commit = this.commitTaken(taken, undefined).finally(() => {
      this.committing = new Map();
    });
    // Its failure is heard by the next merge that waits for it, or by `finish`.
    commit.catch(() => undefined);
    this.inFlight = commit;
  }

  /** Takes the pending batch, as writes and as the records heard by `onCommit`. */
  private take(): { batch: Batch; writes: RecordWrite[]; committed: CommittedRecord[] } {
    const batch = this.pending;
    const committed: CommittedRecord[] = [];
    const writes: RecordWrite[] = [...batch.values()].map(({ graph, subject, lines }) => {
      const kind = this.kindOf(subject, lines);
      const text = textOfLines(lines);
      committed.push({ graph, subject, text });
      // The quads are parsed only if the store asks for them: a store that keeps lines reads `nquads`.
      let quads: Quad[] | undefined;
      return {
        graph,
        subject,
        nquads: text,
        get quads() {
          return (quads ??= parseNQuads(text));
        },
        ...(kind === null ? {} : { kind }),
      };
    });
    // A record merged again after this commit is read again: the read-ahead no longer holds for it.
    for (const key of batch.keys()) this.known.delete(key);
    this.pending = new Map();
    this.pendingQuads = 0;
    return { batch, writes, committed };
  }

  /** Commits a batch taken from the merges (with `ops`: the load's own work), then tells `onCommit` of it. */
  private async commitTaken(
    { writes, committed }: { writes: RecordWrite[]; committed: CommittedRecord[] },
    ops: (() => void) | undefined,
  ): Promise<void> {
    await this.held;
    if (ops === undefined && this.store.commitLoaded !== undefined) await this.store.commitLoaded(writes);
    else await this.store.commit(writes, ops ?? (() => undefined));
    await this.onCommit?.(committed);
  }

  async finish(ops: () => void): Promise<void> {
    await this.inFlight;
    await this.commitTaken(this.take(), ops);
  }

  abort(): void {
    this.pending.clear();
    this.known.clear();
  }
}
