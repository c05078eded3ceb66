import type { Core } from '../core.js';

/**
 * Returns the read cached under `key` if nothing was committed since it was made, else makes and caches it.
 * Reads are pure functions of the stored data, so this never serves anything older than the last write. A read
 * that depends on the query index is only cached once the index is loaded, so a start-up read is not kept.
 */
export async function memoised<T>(core: Core, key: string, read: () => Promise<T>): Promise<T> {
  const generation = core.graph.generation;
  const cached = core.memo.get<T>(key, generation);
  if (cached !== undefined) return cached;
  const ready = core.graph.ready;
  const value = await read();
  if (ready && core.graph.generation === generation) core.memo.set(key, generation, value);
  return value;
}
