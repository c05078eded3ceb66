/**
 * Where a restore puts the records it reads. The embedded store takes them as rows inside one SQLite transaction
 * (all or nothing). The external store takes them through the write path, a few hundred quads per commit (one
 * SPARQL Update each), which keeps the subject table and the search index current; the file is checked whole
 * before the first commit, so malformed input still writes nothing.
 */
import { BadRequestError } from '../errors.js';
import { RDF, REG, XSD } from '../ns.js';
import { kindOfTypes } from '../records/kinds.js';
import { mergeRecord } from '../store/graph/record-merge.js';
import { readRecord } from '../store/graph/embedded/record-table.js';
import type { RecordWrite } from '../store/graph/types.js';
import { canonicalText, linesOf, parseNQuads } from '../store/nquads.js';
import { markSearchStale } from '../store/search-index.js';
import type { Core } from '../core.js';

/** One record to merge: with `replace` it becomes exactly `lines`, otherwise the union of what it held and these. */
export interface MergeTarget {
  readonly graph: string;
  readonly subject: string;
  readonly lines: readonly string[];
  readonly replace: boolean;
}

/** The store side of a restore. */
export interface RestoreSink {
  /** Whether the store holds a record of this subject. */
  exists(graph: string, subject: string): Promise<boolean>;
  /** Merges lines into a record; returns how many of them were not already present. */
  merge(target: MergeTarget): Promise<number>;
  /** Makes everything merged durable, with the operational work of the restore (its audit entry). */
  finish(ops: () => void, changed: boolean): Promise<void>;
  /** Gives up: what was merged is not kept (as far as the store allows). */
  abort(): void;
}

/** Quads per commit of a restore into the external store. */
const COMMIT_QUADS = 500;
const RDF_TYPE = RDF('type');

/** The sink for the configured graph store. */
export function restoreSink(core: Core): RestoreSink {
  return core.graph.kind === 'sparql' ? new WritePathSink(core) : new RowSink(core);
}

/** Embedded store: rows merged in one transaction, opened here and committed by `finish`. */
class RowSink implements RestoreSink {
  private readonly now = new Date().toISOString();

  constructor(private readonly core: Core) {
    core.db.exec('BEGIN');
  }

  exists(graph: string, subject: string): Promise<boolean> {
    return Promise.resolve(readRecord(this.core.db, graph, subject) !== undefined);
  }

  merge(target: MergeTarget): Promise<number> {
    const kind = kindOfLines(target.subject, target.lines);
    return Promise.resolve(mergeRecord(this.core.db, { ...target, kind }, this.now));
  }

  finish(ops: () => void, changed: boolean): Promise<void> {
    // Rows merged here bypass the write path, so search is filled again from the records at the next start.
    if (changed) markSearchStale(this.core.db);
    ops();
    this.core.db.exec('COMMIT');
    return Promise.resolve();
  }

  abort(): void {
    this.core.db.exec('ROLLBACK');
  }
}

/** External store: records merged in memory a batch at a time and committed through the write path. */
class WritePathSink implements RestoreSink {
  private readonly pending = new Map<string, { graph: string; subject: string; lines: string[] }>();
  private pendingQuads = 0;

  constructor(private readonly core: Core) {}

  private async current(graph: string, subject: string): Promise<string[] | undefined> {
    const pending = this.pending.get(`${graph}\n${subject}`);
    if (pending !== undefined) return pending.lines;
    const text = await this.core.graph.readRecord(graph, subject);
    return text === undefined ? undefined : linesOf(text);
  }

  async exists(graph: string, subject: string): Promise<boolean> {
    return (await this.current(graph, subject)) !== undefined;
  }

  async merge(target: MergeTarget): Promise<number> {
    const before = (await this.current(target.graph, target.subject)) ?? [];
    const existing = new Set(before);
    const fresh = new Set(target.lines.filter((line) => !existing.has(line)));
    if (fresh.size === 0 && (!target.replace || existing.size === new Set(target.lines).size)) return 0;
    const lines = linesOf(canonicalText(target.replace ? target.lines : [...existing, ...fresh]));
    this.pending.set(`${target.graph}\n${target.subject}`, {
      graph: target.graph,
      subject: target.subject,
      lines,
    });
    this.pendingQuads += lines.length;
    if (this.pendingQuads >= COMMIT_QUADS) await this.flush(() => undefined);
    return fresh.size;
  }

  private async flush(ops: () => void): Promise<void> {
    const writes: RecordWrite[] = [...this.pending.values()].map(({ graph, subject, lines }) => {
      const kind = kindOfLines(subject, lines);
      return {
        graph,
        subject,
        quads: parseNQuads(canonicalText(lines)),
        ...(kind === null ? {} : { kind }),
      };
    });
    this.pending.clear();
    this.pendingQuads = 0;
    await this.core.graph.commit(writes, ops);
  }

  finish(ops: () => void): Promise<void> {
    return this.flush(ops);
  }

  abort(): void {
    this.pending.clear();
  }
}

/** Refuses input a store cannot hold: the external store keeps named graphs only. */
export function checkRestorable(core: Core, graph: string, quad: number): void {
  if (core.graph.kind === 'sparql' && graph === '') {
    throw new BadRequestError(
      `quad ${quad} of the file is in the default graph, which the external graph store does not keep; nothing was restored`,
      { hints: ['restore a full N-Quads dump (reg dump), not the N-Triples of one graph'] },
    );
  }
}

/** The kind of the record `owner` from its type lines; withdrawn records are counted apart. */
export function kindOfLines(owner: string, lines: readonly string[]): string | null {
  const prefix = `<${owner}> <${RDF_TYPE}> <`;
  const types = lines
    .filter((line) => line.startsWith(prefix))
    .map((line) => line.slice(prefix.length, line.indexOf('>', prefix.length)));
  const kind = kindOfTypes(types);
  // Withdrawn records are counted apart, as the write path stores them.
  const withdrawn = lines.includes(
    `<${owner}> <${REG('tombstoned')}> "true"^^<${XSD('boolean')}> <${graphOf(lines)}> .`,
  );
  return kind !== null && withdrawn ? `${kind}:withdrawn` : kind;
}

function graphOf(lines: readonly string[]): string {
  const first = lines[0] ?? '';
  return first.slice(first.lastIndexOf(' <') + 2, first.lastIndexOf('>'));
}
