import type { ServeRun } from './reg-serve.js';
import type { SizeResult } from './size-bench.js';

/** Things the product did that look wrong, found while measuring; they are reported, never fatal. */
export function findAnomalies(sizes: readonly SizeResult[], emptyStart: readonly ServeRun[]): string[] {
  const found: string[] = [];
  const stops = (label: string, runs: readonly ServeRun[]): void => {
    for (const run of runs) {
      if (run.stopCode !== 0)
        found.push(`${label}: reg serve exited with ${run.stopCode} after SIGTERM (expected 0)`);
    }
  };
  stops('empty directory', emptyStart);
  for (const size of sizes) {
    stops(size.label, size.serve.runs);
    if (size.restore.read !== size.quads)
      found.push(`${size.label}: restore read ${size.restore.read} of ${size.quads} quads`);
    if (size.restore.new !== size.quads)
      found.push(`${size.label}: restore reported ${size.restore.new} new of ${size.quads} quads`);
    if (size.dump.localLines !== size.quads) {
      found.push(
        `${size.label}: dump holds ${size.dump.localLines} urn:reg:local quads, ${size.quads} were restored`,
      );
    }
    if (size.baselines.oxigraph.quads !== size.quads) {
      found.push(
        `${size.label}: the raw oxigraph baseline loaded ${size.baselines.oxigraph.quads} of ${size.quads} quads`,
      );
    }
    const expected = size.quads + (emptyStart[0]?.indexedQuads ?? NaN);
    if (size.serve.indexedQuads !== expected) {
      found.push(
        `${size.label}: the server reports ${size.serve.indexedQuads} quads when ready, expected ${expected} (records + empty start)`,
      );
    }
  }
  return found;
}
