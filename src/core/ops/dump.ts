import { NotFoundError } from '../errors.js';
import type { Core } from '../core.js';

/** The names of every graph that holds data: reference bundles first, then record graphs. */
export function listGraphs(core: Core): string[] {
  const names = core.reference.bundles.map((bundle) => bundle.graph);
  for (const graph of core.graph.recordGraphs()) if (!names.includes(graph)) names.push(graph);
  return names;
}

/**
 * Streams the dataset: every graph as N-Quads, or with `graph` that one graph as N-Triples (not a backup
 * format: restoring it puts the triples in the default graph).
 */
export function dumpDataset(core: Core, options: { graph?: string } = {}): AsyncIterable<string> {
  if (options.graph !== undefined && !listGraphs(core).includes(options.graph)) {
    throw new NotFoundError(
      `graph ${options.graph} holds no data; known graphs: ${listGraphs(core).join(', ')}`,
    );
  }
  return core.graph.dump(options);
}

/**
 * The quads a dump writes, when known beforehand: the whole dataset's count, or a reference bundle's triples;
 * undefined for one record graph (its count is not kept apart).
 */
export async function dumpSize(core: Core, options: { graph?: string } = {}): Promise<number | undefined> {
  if (options.graph === undefined) return core.graph.countQuads();
  return core.reference.bundles.find((bundle) => bundle.graph === options.graph)?.tripleCount;
}
