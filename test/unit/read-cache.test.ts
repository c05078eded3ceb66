import { describe, expect, it } from 'vitest';
import { RecordReadCache } from '../../src/core/store/graph/external/read-cache.js';
import type { ReadRecord } from '../../src/core/store/graph/external/external-read.js';

const readOf = (text: string): ReadRecord => ({ text, lines: text.split('\n'), serverForm: new Map() });

/** Reads `key` at `version` through the cache as the store does: start, then end with what was read. */
function fill(cache: RecordReadCache, key: string, version: number, text: string): void {
  cache.endRead(key, cache.startRead(key), version, readOf(text));
}

describe('the external store read cache', () => {
  it('answers a read of the version it kept, and nothing else', () => {
    const cache = new RecordReadCache();
    fill(cache, 'g\na', 3, 'A');
    expect(cache.get('g\na', 3)?.text).toBe('A');
    expect(cache.get('g\nb', 3)).toBeUndefined();
    // Another version drops the entry.
    expect(cache.get('g\na', 4)).toBeUndefined();
    expect(cache.get('g\na', 3)).toBeUndefined();
  });

  it('keeps no read that a write of the record began or ended during', () => {
    const cache = new RecordReadCache();
    const before = cache.startRead('g\na');
    cache.writeStarts(['g\na']);
    cache.endRead('g\na', before, 1, readOf('during'));
    expect(cache.get('g\na', 1)).toBeUndefined();
    // A read that starts while the record is written is not kept either, even after the write ended.
    const during = cache.startRead('g\na');
    cache.writeEnds(['g\na']);
    cache.endRead('g\na', during, 1, readOf('during'));
    expect(cache.get('g\na', 1)).toBeUndefined();
    // A write of another record leaves a read alone.
    const other = cache.startRead('g\na');
    cache.writeStarts(['g\nb']);
    cache.writeEnds(['g\nb']);
    cache.endRead('g\na', other, 1, readOf('after'));
    expect(cache.get('g\na', 1)?.text).toBe('after');
  });

  it('drops what it kept when the record is written, and everything on clear', () => {
    const cache = new RecordReadCache();
    fill(cache, 'g\na', 1, 'A');
    fill(cache, 'g\nb', 1, 'B');
    cache.writeStarts(['g\na']);
    expect(cache.get('g\na', 1)).toBeUndefined();
    expect(cache.get('g\nb', 1)?.text).toBe('B');
    const pending = cache.startRead('g\nb');
    cache.clear();
    expect(cache.get('g\nb', 1)).toBeUndefined();
    cache.endRead('g\nb', pending, 1, readOf('B'));
    expect(cache.get('g\nb', 1)).toBeUndefined();
  });

  it('keeps a failed read out, and stays within its size by dropping the least recently used', () => {
    const cache = new RecordReadCache(160);
    cache.endRead('g\nx', cache.startRead('g\nx'), 1, undefined);
    expect(cache.get('g\nx', 1)).toBeUndefined();
    fill(cache, 'g\na', 1, 'a'.repeat(10));
    fill(cache, 'g\nb', 1, 'b'.repeat(10));
    expect(cache.get('g\na', 1)).toBeDefined();
    // More than a sixteenth of the size is never kept.
    fill(cache, 'g\nhuge', 1, 'h'.repeat(11));
    expect(cache.get('g\nhuge', 1)).toBeUndefined();
    for (let i = 0; i < 15; i++) fill(cache, `g\n${i}`, 1, 'c'.repeat(10));
    // 160 characters hold 16 entries of 10, and 17 were kept: a, used since, stays; b, the oldest, went.
    expect(cache.get('g\na', 1)?.text).toBe('a'.repeat(10));
    expect(cache.get('g\nb', 1)).toBeUndefined();
  });
});
