/**
 * Progress without a terminal (a log, a CI job): a plain line every five seconds while the work runs, then the
 * summary. The clock is mocked, so the cadence is checked without waiting for real work to take that long.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startProgress } from '../../src/cli/progress.js';

const isTTY = Object.getOwnPropertyDescriptor(process.stderr, 'isTTY');

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  if (isTTY === undefined) delete (process.stderr as { isTTY?: boolean }).isTTY;
  else Object.defineProperty(process.stderr, 'isTTY', isTTY);
});

describe('progress without a terminal', () => {
  it('prints a plain line every five seconds with the count, share, rate and time left, then the summary', async () => {
    vi.useFakeTimers({ now: new Date('2026-11-28T00:00:00Z') });
    const written: string[] = [];
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    });
    Object.defineProperty(process.stderr, 'isTTY', { value: false, configurable: true });
    const line = await startProgress('restore', 'quads read', { json: false, plain: true, total: 500_000 });
    line.update(10_000, 500_000);
    vi.advanceTimersByTime(4_000);
    line.update(50_000, 500_000);
    expect(written).toEqual([]);
    vi.advanceTimersByTime(1_000);
    expect(written).toHaveLength(1);
    expect(written[0]).toMatch(/^restore: 50,000 of 500,000 quads read \(10%\), [\d,]+\/s, about .+ left\n$/);
    // An update sooner than five seconds after a line prints nothing; the next line comes five seconds on.
    line.update(60_000, 500_000);
    vi.advanceTimersByTime(4_000);
    expect(written).toHaveLength(1);
    vi.advanceTimersByTime(1_000);
    expect(written).toHaveLength(2);
    expect(written[1]).toMatch(/^restore: 60,000 of 500,000 quads read \(12%\)/);
    line.update(500_000, 500_000);
    line.finish();
    expect(written.at(-1)).toMatch(/^restore: 500,000 quads read in [\d.]+ s/);
    const count = written.length;
    vi.advanceTimersByTime(10_000);
    expect(written).toHaveLength(count);
  });
});
