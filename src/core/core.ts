import { createRequire } from 'node:module';
import { OidcKeyCache } from './access/oidc-keys.js';
import type { Config } from './config/index.js';
import { InternalError } from './errors.js';
import type { Logger } from './log.js';
import { KeyedLock } from './keyed-lock.js';
import { Memo } from './stored/memo.js';
import { WarningCollector } from './warnings.js';
import { openDatabase, type Database } from './store/database.js';
import { SEARCH_READER } from './records/kind-registry.js';
import { EmbeddedGraphStore } from './store/graph/embedded/embedded.js';
import { ExternalGraphStore } from './store/graph/external/external.js';
import { IndexClient } from './store/graph/embedded/index-client.js';
import { SparqlClient } from './store/graph/external/sparql-client.js';
import type { GraphStore } from './store/graph/types.js';
import { prepareReferenceData, syncBundleCatalogue, type ReferenceData } from './discovery/reference-data.js';

/** The context every core service takes: configuration, stores and reference data, opened once. */
export interface Core {
  readonly config: Config;
  readonly log: Logger;
  readonly db: Database;
  readonly graph: GraphStore;
  readonly reference: ReferenceData;
  readonly startedAt: Date;
  readonly version: string;
  /** Cached read results, stale after any commit. */
  readonly memo: Memo;
  /** Records parsed from their stored text, served while the text is unchanged (see `readStored`). */
  readonly parsed: Memo<string>;
  /** Serialises work per key (advertising per deployment). */
  readonly locks: KeyedLock;
  /** Identity providers' discovery documents and signing keys, cached per issuer. */
  readonly oidcKeys: OidcKeyCache;
  /** Members of a request that were ignored, collected per act for its answer. */
  readonly warnings: WarningCollector;
  /** Closes the stores and releases the data directory. */
  close(): Promise<void>;
}

/** The package version, read once from package.json. */
export const REG_VERSION: string = (
  createRequire(import.meta.url)('../../package.json') as { version: string }
).version;

/** Options of `openCore`. */
export interface OpenOptions {
  /**
   * Start the query index's worker at once, so that it boots while the rest of start-up runs; `serve` sets
   * this and later calls `core.graph.open()` to load it. Commands that only read rows leave it off.
   */
  readonly index?: boolean;
  /** Validate writes in this many worker threads (serve uses one), instead of on the calling thread. */
  readonly validationWorkers?: number;
}

/**
 * Opens the data directory (taking its single-writer lock), applies migrations, prepares the reference bundles
 * and records their catalogue. The query index is loaded by `core.graph.open()`.
 */
export async function openCore(config: Config, log: Logger, options: OpenOptions = {}): Promise<Core> {
  const db = openDatabase(config.dataDir);
  const external = config.graph.kind === 'sparql' ? externalClient(config) : undefined;
  // Loaded on demand, the query index needs no worker at start.
  const index =
    options.index === true && external === undefined && config.queryIndex === 'at-start'
      ? new IndexClient()
      : undefined;
  try {
    const reference = prepareReferenceData(config.baseIri, options.validationWorkers ?? 0);
    const graph =
      external === undefined
        ? new EmbeddedGraphStore(db, reference.bundles, log, index, {
            queryTimeoutMs: config.sparqlTimeoutMs,
            clientIndexIdleMs: config.sparql.indexIdleMs,
            search: SEARCH_READER,
            queryIndex: config.queryIndex,
          })
        : new ExternalGraphStore(db, reference.bundles, log, external, {
            maxRunning: config.sparql.maxRunning,
            search: SEARCH_READER,
          });
    const core: Core = {
      config,
      log,
      db,
      graph,
      reference,
      startedAt: new Date(),
      version: REG_VERSION,
      memo: new Memo(),
      parsed: new Memo<string>(2000),
      locks: new KeyedLock(),
      oidcKeys: new OidcKeyCache(log),
      warnings: new WarningCollector(),
      close: async () => {
        await reference.close();
        await graph.close();
        db.close();
      },
    };
    // The external store first writes the bundles whose digest changed; their catalogue entries follow.
    if (graph instanceof ExternalGraphStore) await graph.prepare();
    await syncBundleCatalogue(core);
    return core;
  } catch (error) {
    await index?.close();
    db.close();
    throw error;
  }
}

/** The client of the external graph store the configuration names. */
function externalClient(config: Config): SparqlClient {
  if (config.graph.kind !== 'sparql') throw new InternalError('no external graph store is configured');
  const { sparqlBearerToken, sparqlUsername, sparqlPassword } = config.secrets;
  return new SparqlClient({
    queryEndpoint: config.graph.queryEndpoint,
    updateEndpoint: config.graph.updateEndpoint,
    graphStoreEndpoint: config.graph.graphStoreEndpoint,
    timeoutMs: config.graph.timeoutMs,
    maxConnections: config.graph.maxConnections,
    log: config.graph.log,
    credential:
      sparqlBearerToken !== undefined
        ? { kind: 'bearer', token: sparqlBearerToken }
        : sparqlUsername !== undefined && sparqlPassword !== undefined
          ? { kind: 'basic', username: sparqlUsername, password: sparqlPassword }
          : { kind: 'none' },
  });
}
