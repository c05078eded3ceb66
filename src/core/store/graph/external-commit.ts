/**
 * The pure parts of an external-store commit: which records change, the one update request that carries the
 * change to the server and the undo journalled before it, and the new state of each record in the subject table.
 */
import { BadRequestError, InternalError } from '../../errors.js';
import type { Database } from '../database.js';
import { canonicalTextOf, linesOf } from '../nquads.js';
import { indexRecordForSearch } from '../search-index.js';
import type { ReadRecord } from './external-read.js';
import {
  deleteExternalRecord,
  isOwnSubject,
  sharedLineHolders,
  writeExternalRecord,
  type ExternalRecord,
  type UndoPlan,
} from './external-table.js';
import { dataOperations, mayBeRewritten, subjectOfLine } from './sparql-terms.js';
import type { RecordWrite } from './types.js';

/** One record's change within a commit. */
export interface Change {
  readonly write: RecordWrite;
  readonly before: ExternalRecord | undefined;
  readonly old: ReadRecord | undefined;
  /** The new lines (written forms), or null when the record is deleted. */
  readonly lines: readonly string[] | null;
  readonly kind: string | null;
}

/** The key of a record in maps: graph and subject. */
export function keyOf(write: { readonly graph: string; readonly subject: string }): string {
  return `${write.graph}\n${write.subject}`;
}

/** The last write of each record in a commit (an earlier write's kind is kept when a later one gives none). */
export function lastWrites(writes: readonly RecordWrite[]): Map<string, RecordWrite> {
  const last = new Map<string, RecordWrite>();
  for (const write of writes) {
    if (write.graph === '') {
      throw new BadRequestError(
        'the external graph store holds named graphs only; quads in the default graph cannot be written to it',
      );
    }
    const key = keyOf(write);
    const earlier = last.get(key);
    last.set(
      key,
      write.kind === undefined && earlier?.kind !== undefined ? { ...write, kind: earlier.kind } : write,
    );
  }
  return last;
}

/** What changes, given each record's state before (unchanged records are left out). */
export function changesOf(
  last: ReadonlyMap<string, RecordWrite>,
  before: ReadonlyMap<string, ExternalRecord>,
  old: ReadonlyMap<string, ReadRecord>,
): Change[] {
  const changes: Change[] = [];
  for (const [key, write] of last) {
    const prior = before.get(key);
    const kind = write.kind !== undefined ? write.kind : (prior?.kind ?? null);
    if (write.quads === null) {
      if (prior !== undefined) changes.push({ write, before: prior, old: old.get(key), lines: null, kind });
      continue;
    }
    const text = canonicalTextOf(write.quads);
    const lines = linesOf(text);
    const suffix = ` <${write.graph}> .`;
    if (lines.some((line) => !line.endsWith(suffix)))
      throw new InternalError(`a write of ${write.subject} holds quads outside its graph ${write.graph}`);
    if (prior !== undefined && old.get(key)?.text === text && kind === prior.kind) continue;
    changes.push({ write, before: prior, old: old.get(key), lines, kind });
  }
  return changes;
}

/**
 * The one update request of a commit and its undo. A line about an outside subject is deleted only when no
 * other record still asserts it, and the undo deletes only lines that were not on the server before.
 */
export function updateOf(
  db: Database,
  changes: readonly Change[],
): { update: string | undefined; undo: UndoPlan } {
  const committed = new Set(changes.map((change) => keyOf(change.write)));
  const assertedAfter = new Set<string>();
  for (const change of changes) {
    for (const line of change.lines ?? []) {
      if (!isOwnSubject(change.write.subject, subjectOfLine(line)))
        assertedAfter.add(`${change.write.graph}\n${line}`);
    }
  }
  const heldElsewhere = (graph: string, record: string, line: string): boolean =>
    sharedLineHolders(db, graph, line).some(
      (holder) => holder !== record && !committed.has(`${graph}\n${holder}`),
    );
  const deletes = new Map<string, string[]>();
  const inserts = new Map<string, string[]>();
  const undo: UndoPlan = { delete: {}, insert: {} };
  const push = (map: Map<string, string[]>, graph: string, line: string): void => {
    const list = map.get(graph);
    if (list === undefined) map.set(graph, [line]);
    else list.push(line);
  };
  for (const { write, old, lines } of changes) {
    const { graph, subject } = write;
    const before = new Set(old?.lines ?? []);
    const after = new Set(lines ?? []);
    for (const line of before) {
      if (after.has(line)) continue;
      const shared = !isOwnSubject(subject, subjectOfLine(line));
      if (shared && (heldElsewhere(graph, subject, line) || assertedAfter.has(`${graph}\n${line}`))) continue;
      const server = old?.serverForm.get(line) ?? line;
      push(deletes, graph, server);
      (undo.insert[graph] ??= []).push(server);
    }
    for (const line of after) {
      if (before.has(line)) continue;
      push(inserts, graph, line);
      const shared = !isOwnSubject(subject, subjectOfLine(line));
      if (!shared || !heldElsewhere(graph, subject, line)) (undo.delete[graph] ??= []).push(line);
    }
  }
  const operations = [...dataOperations('DELETE DATA', deletes), ...dataOperations('INSERT DATA', inserts)];
  return { update: operations.length === 0 ? undefined : operations.join(' ;\n'), undo };
}

/** Records a change in the subject table and the search index; runs inside the commit's transaction. */
export function recordChange(db: Database, change: Change): void {
  const { write, lines, kind, before, old } = change;
  if (lines === null) {
    deleteExternalRecord(db, write.graph, write.subject);
    indexRecordForSearch(db, { ...write, kind: before?.kind });
    return;
  }
  const kept = new Set(lines);
  const previous = new Set(old?.lines ?? []);
  // Lines kept from before keep what is known of their server form; typed lines new here are checked by the
  // next read, which is a query the registry makes anyway.
  const rewrites = [...(old?.serverForm ?? [])]
    .filter(([written]) => kept.has(written))
    .map(([written, server]): [string, string] => [server, written]);
  const unverified = lines.filter((line) => !previous.has(line) && mayBeRewritten(line));
  writeExternalRecord(db, {
    graph: write.graph,
    subject: write.subject,
    kind,
    quadCount: lines.length,
    subjects: [...new Set(lines.map(subjectOfLine))].sort(),
    sharedLines: lines.filter((line) => !isOwnSubject(write.subject, subjectOfLine(line))),
    rewrites,
    unverified,
  });
  // Withdrawn records (kind `<kind>:withdrawn`, or carrying the tombstone) leave the search index here.
  indexRecordForSearch(db, { ...write, kind });
}

/** The update request that applies a journalled undo, or undefined when it has nothing to do. */
export function undoRequest(undo: UndoPlan): string | undefined {
  const operations = [
    ...dataOperations('DELETE DATA', new Map(Object.entries(undo.delete))),
    ...dataOperations('INSERT DATA', new Map(Object.entries(undo.insert))),
  ];
  return operations.length === 0 ? undefined : operations.join(' ;\n');
}

/** Items grouped by a key, in first-seen order. */
export function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const list = groups.get(k);
    if (list === undefined) groups.set(k, [item]);
    else list.push(item);
  }
  return groups;
}
