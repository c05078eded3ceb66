import { setImmediate as nextTurn } from 'node:timers/promises';

/**
 * A pause for long loops on the serving thread: call it once per item, and once `sliceMs` of work have passed
 * since the last pause it yields to the event loop, so other requests are answered between slices of a large
 * payload instead of after all of it. Between slices it costs one clock read.
 */
export function pacer(sliceMs = 8): () => Promise<void> | undefined {
  let sliceStart = performance.now();
  return () => {
    if (performance.now() - sliceStart < sliceMs) return undefined;
    return nextTurn().then(() => {
      sliceStart = performance.now();
    });
  };
}
