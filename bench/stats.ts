/** The median of some samples (NaN for none). */
export function median(samples: readonly number[]): number {
  if (samples.length === 0) return NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** Items per second for `count` items done in `ms`. */
export function perSecond(count: number, ms: number): number {
  return ms > 0 ? (count * 1000) / ms : NaN;
}

/** Runs `work` `times` times in sequence and returns every result. */
export async function repeat<T>(times: number, work: (run: number) => Promise<T>): Promise<T[]> {
  const results: T[] = [];
  for (let run = 0; run < times; run++) results.push(await work(run));
  return results;
}

/** Times one async call in milliseconds. */
export async function timed<T>(work: () => Promise<T> | T): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await work();
  return { value, ms: performance.now() - started };
}

/** The `p` quantile (0–1) of some samples, nearest rank (NaN for none). */
export function percentile(samples: readonly number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? NaN;
}
