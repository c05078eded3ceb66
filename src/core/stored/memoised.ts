import type { Core } from '../core.js';

/** Reads under way, per core: callers asking for the same key at the same generation share one. */
const inFlight = new WeakMap<Core, Map<string, Promise<unknown>>>();

/**
 * The JSON text of each memoised answer that has been asked for it, made once: every reader of a cached answer
 * shares the same object, which nobody mutates, so its text is the same for all of them.
 */
const texts = new WeakMap<object, string>();
/** Memoised answers (objects) whose text may be shared. */
const shared = new WeakSet<object>();

/**
 * The JSON text of `value` when it is a memoised answer, serialised on first request and shared afterwards;
 * undefined for any other value (the caller serialises it itself).
 */
export function sharedJson(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null || !shared.has(value)) return undefined;
  let text = texts.get(value);
  if (text === undefined) texts.set(value, (text = JSON.stringify(value)));
  return text;
}

/**
 * Returns the read cached under `key` if nothing was committed since it was made, else makes and caches it.
 * Reads are pure functions of the stored data, so this never serves anything older than the last write. A read
 * that depends on the query index is only cached once the index is loaded, so a start-up read is not kept.
 * Callers that ask while the same read is under way, with nothing committed since it began, share it, so a burst
 * of identical requests after a write costs one read.
 */
export async function memoised<T>(core: Core, key: string, read: () => Promise<T>): Promise<T> {
  const generation = core.graph.generation;
  const cached = core.memo.get<T>(key, generation);
  if (cached !== undefined) return cached;
  let running = inFlight.get(core);
  if (running === undefined) inFlight.set(core, (running = new Map<string, Promise<unknown>>()));
  const flightKey = `${generation} ${key}`;
  const joined = running.get(flightKey) as Promise<T> | undefined;
  if (joined !== undefined) return joined;
  const ready = core.graph.ready;
  const started = read();
  running.set(flightKey, started);
  try {
    const value = await started;
    if (ready && core.graph.generation === generation) {
      core.memo.set(key, generation, value);
      if (typeof value === 'object' && value !== null) shared.add(value);
    }
    return value;
  } finally {
    running.delete(flightKey);
  }
}

/**
 * `memoised` for a read made for many keys at once (the items of a list page): the answers cached under
 * `<prefix> <key>` since the last commit are taken, the others read together by `readMissing` (which answers for
 * the keys it is given) and cached.
 */
export async function memoisedEach<T>(
  core: Core,
  prefix: string,
  keys: readonly string[],
  readMissing: (missing: readonly string[]) => Promise<Map<string, T>>,
): Promise<Map<string, T>> {
  const generation = core.graph.generation;
  const out = new Map<string, T>();
  const missing: string[] = [];
  for (const key of new Set(keys)) {
    const cached = core.memo.get<T>(`${prefix} ${key}`, generation);
    if (cached === undefined) missing.push(key);
    else out.set(key, cached);
  }
  if (missing.length === 0) return out;
  for (const [key, value] of await readMissing(missing)) {
    core.memo.set(`${prefix} ${key}`, generation, value);
    out.set(key, value);
  }
  return out;
}
