/**
 * Moving a registry's graph from the embedded store to an external SPARQL 1.1 store, in place: the records in
 * `registry.db` are written out with their record markers and restored into the external store through the
 * same write path as `reg restore` (large inserts posted over the Graph Store Protocol when it has an endpoint),
 * then counted on both sides. The operational data (tokens, subscriptions and their deliveries, the audit log,
 * advertising keys, deployment history) is in the same file and is left as it is.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Core } from '../core.js';
import { BadRequestError, InternalError } from '../errors.js';
import { GRAPHS } from '../ns.js';
import { embeddedRecordCounts, writeEmbeddedRecords } from '../store/graph/embedded-records.js';
import { restoreNQuads, type RestoreProgress } from './restore.js';

/** One graph's records of one kind, on each side after the move. */
export interface MigratedKind {
  readonly graph: string;
  readonly kind: string;
  readonly embedded: number;
  readonly external: number;
}

/** What a migration did. */
export interface MigrateResult {
  /** Records and quads taken from the embedded store (the bundles' catalogue, which each store keeps, aside). */
  readonly records: number;
  readonly quads: number;
  /** Quads that were new to the external store (a second run finds none). */
  readonly new: number;
  /** Records the external store held before (0 for a first move). */
  readonly externalBefore: number;
  readonly kinds: readonly MigratedKind[];
  readonly ms: number;
}

/** What a migration reports while it runs. */
export type MigrateProgress = { readonly phase: 'export'; readonly records: number } | RestoreProgress;

/**
 * Copies every embedded record of the data directory into the external store `core` is open on (the command opens
 * it with the endpoint it is given; on the embedded store itself every record would merge into itself). A store that
 * already held records is merged into (records the embedded store holds too become its version). Throws when
 * a count differs afterwards.
 */
export async function migrateGraph(
  core: Core,
  progress: (report: MigrateProgress) => void | Promise<void> = () => undefined,
): Promise<MigrateResult> {
  const started = Date.now();
  // The bundles' catalogue is each store's own (written when it opens), so it is neither moved nor counted.
  const embedded = [...embeddedRecordCounts(core.db)].filter(([graph]) => graph !== GRAPHS.catalogue);
  const records = embedded.reduce((sum, [, counts]) => sum + counts.records, 0);
  const quads = embedded.reduce((sum, [, counts]) => sum + counts.quads, 0);
  if (records === 0)
    throw new BadRequestError(
      `the data directory ${core.config.dataDir} holds no records of the embedded store`,
    );
  if (embedded.some(([graph]) => graph === '')) {
    throw new BadRequestError(
      'the embedded store holds records in the default graph, which an external store does not keep: dump them with reg dump and move them into a named graph first',
    );
  }
  const externalBefore = await externalRecords(core);
  const file = path.join(core.config.dataDir, `migrate-graph-${process.pid}.nq`);
  try {
    await progress({ phase: 'export', records: 0 });
    const written = await writeEmbeddedRecords(core.db, file, new Set([GRAPHS.catalogue]));
    await progress({ phase: 'export', records: written });
    // The records are the embedded store's, as they were: today's shapes were checked when they were written
    // (or restored), and reading them all back to check again would double the move's time.
    const restored = await restoreNQuads(core, file, progress, { check: false });
    const kinds: MigratedKind[] = [];
    for (const [graph, counts] of embedded) {
      const external = await core.graph.countByKind(graph);
      for (const [kind, count] of counts.kinds)
        kinds.push({ graph, kind, embedded: count, external: external.get(kind) ?? 0 });
    }
    const short = kinds.filter((entry) =>
      externalBefore === 0 ? entry.external !== entry.embedded : entry.external < entry.embedded,
    );
    if (short.length > 0) {
      const named = short.map(
        (entry) => `${entry.kind} in ${entry.graph}: ${entry.external} of ${entry.embedded}`,
      );
      throw new InternalError(
        `the external store does not hold every record after the move (${named.join('; ')})`,
      );
    }
    return { records, quads, new: restored.new, externalBefore, kinds, ms: Date.now() - started };
  } finally {
    fs.rmSync(file, { force: true });
  }
}

/** Records the external store holds now, of every graph but the bundles' catalogue. */
async function externalRecords(core: Core): Promise<number> {
  let total = 0;
  for (const graph of core.graph.recordGraphs()) {
    if (graph === GRAPHS.catalogue) continue;
    for (const count of (await core.graph.countByKind(graph)).values()) total += count;
  }
  return total;
}
