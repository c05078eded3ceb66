/**
 * Records read from the external store, kept for the next read of the same version: the records a registry reads
 * over and over (the deployment every advertisement authenticates as, the software its runs belong to) then cost
 * no request. The registry is the only writer of its graphs and every write of a record changes its version in
 * the subject table, so an entry answers only a read of the version it was read at. A read that overlaps a commit
 * writing the same record is not kept: the server may hold the new lines before the subject table does, or lines a
 * failed commit is about to undo.
 */
import type { ReadRecord } from './external-read.js';

/** Text the cache holds at most, in UTF-16 code units (about 8 MB of memory). */
const MAX_CHARS = 4 << 20;

interface Entry {
  readonly version: number;
  readonly read: ReadRecord;
}

/** A bounded, least-recently-used cache of record reads by graph and subject. */
export class RecordReadCache {
  private readonly entries = new Map<string, Entry>();
  private chars = 0;
  /** Records a commit is writing now. */
  private readonly writing = new Map<string, number>();
  /** The read under way of each record that may be kept when it ends. */
  private readonly fills = new Map<string, object>();

  constructor(private readonly maxChars = MAX_CHARS) {}

  /** The kept read of `key` at `version`, if there is one. */
  get(key: string, version: number): ReadRecord | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    if (entry.version !== version) {
      this.drop(key);
      return undefined;
    }
    // Most recently used last.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.read;
  }

  /** Starts a read of `key`; the token it returns lets `keep` store the answer, unless a write came in between. */
  startRead(key: string): object | undefined {
    if (this.writing.has(key)) return undefined;
    const token = {};
    this.fills.set(key, token);
    return token;
  }

  /**
   * Ends a read started with `token`, keeping what it read (`read`, absent when the read failed) when no write of
   * the record began or ended since it started.
   */
  endRead(key: string, token: object | undefined, version: number, read: ReadRecord | undefined): void {
    if (token === undefined || this.fills.get(key) !== token) return;
    this.fills.delete(key);
    if (read === undefined) return;
    const size = read.text.length;
    if (size > this.maxChars / 16) return;
    this.drop(key);
    this.entries.set(key, { version, read });
    this.chars += size;
    for (const [oldest, entry] of this.entries) {
      if (this.chars <= this.maxChars) break;
      this.entries.delete(oldest);
      this.chars -= entry.read.text.length;
    }
  }

  /** A commit writing `keys` begins: their kept reads and reads under way no longer hold. */
  writeStarts(keys: Iterable<string>): void {
    for (const key of keys) {
      this.writing.set(key, (this.writing.get(key) ?? 0) + 1);
      this.forget(key);
    }
  }

  /** The commit writing `keys` ended, committed or undone. */
  writeEnds(keys: Iterable<string>): void {
    for (const key of keys) {
      const left = (this.writing.get(key) ?? 1) - 1;
      if (left > 0) this.writing.set(key, left);
      else this.writing.delete(key);
      this.forget(key);
    }
  }

  /** Forgets everything kept and every read under way (the server's records changed outside a commit). */
  clear(): void {
    this.entries.clear();
    this.fills.clear();
    this.chars = 0;
  }

  private forget(key: string): void {
    this.drop(key);
    this.fills.delete(key);
  }

  private drop(key: string): void {
    const entry = this.entries.get(key);
    if (entry === undefined) return;
    this.entries.delete(key);
    this.chars -= entry.read.text.length;
  }
}
