import { createRequire } from 'node:module';
import type { Config } from './config/index.js';
import { InternalError } from './errors.js';
import type { Logger } from './log.js';
import { openDatabase, type Database } from './store/database.js';
import { EmbeddedGraphStore } from './store/graph/embedded.js';
import type { GraphStore } from './store/graph/types.js';
import { prepareReferenceData, syncBundleCatalogue, type ReferenceData } from './services/reference-data.js';

/** The context every core service takes: configuration, stores and reference data, opened once. */
export interface Core {
  readonly config: Config;
  readonly log: Logger;
  readonly db: Database;
  readonly graph: GraphStore;
  readonly reference: ReferenceData;
  readonly startedAt: Date;
  readonly version: string;
  /** Closes the stores and releases the data directory. */
  close(): Promise<void>;
}

/** The package version, read once from package.json. */
export const REG_VERSION: string = (
  createRequire(import.meta.url)('../../package.json') as { version: string }
).version;

/**
 * Opens the data directory (taking its single-writer lock), applies migrations, prepares the reference bundles
 * and records their catalogue. The query index is not loaded here: `serve` calls `core.graph.open()`.
 */
export async function openCore(config: Config, log: Logger): Promise<Core> {
  if (config.graph.kind !== 'embedded') {
    throw new InternalError(
      'the external SPARQL graph store is not available in this version; unset REG_SPARQL_ENDPOINT',
    );
  }
  const db = openDatabase(config.dataDir);
  try {
    const reference = prepareReferenceData(config.baseIri);
    const graph = new EmbeddedGraphStore(db, reference.bundles, log);
    const core: Core = {
      config,
      log,
      db,
      graph,
      reference,
      startedAt: new Date(),
      version: REG_VERSION,
      close: async () => {
        await graph.close();
        db.close();
      },
    };
    await syncBundleCatalogue(core);
    return core;
  } catch (error) {
    db.close();
    throw error;
  }
}
