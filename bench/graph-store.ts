import {
  externalStoreEnv,
  sparqlLogOf,
  startVirtuosoSync,
  type VirtuosoServer,
} from '../test/support/virtuoso.js';
import { note } from './progress.js';
import { useGraphStore } from './reg-cli.js';

/** The graph stores the benchmark compares. */
export type GraphKind = 'embedded' | 'sparql';

const servers = new Map<string, VirtuosoServer>();

/**
 * Points every `reg` the benchmark runs at `kind`: for `sparql`, each data directory gets a Virtuoso of its own on
 * a fresh database with Debian's stock settings, buffer pool included (started on first use, over Digest on
 * /sparql-auth), so the figures include writing the reference bundles to an empty server, as a registry's first
 * start against it does. The request log
 * (REG_SPARQL_LOG, a debugging aid that appends every request's text to a file on the serving thread) stays off
 * unless a measurement asks for it with `sparqlLogSettings`.
 */
export function selectGraphStore(kind: GraphKind): void {
  useGraphStore(
    kind === 'embedded'
      ? () => ({})
      : (dataDir) => {
          let server = servers.get(dataDir);
          if (server === undefined) {
            note(`sparql: starting Virtuoso for ${dataDir}`);
            server = startVirtuosoSync(undefined, { stockBuffers: true });
            servers.set(dataDir, server);
          }
          const { REG_SPARQL_LOG: _log, ...settings } = externalStoreEnv(server);
          return settings;
        },
  );
}

/** Stops every Virtuoso started so far (between parts, to keep memory down). */
export async function stopGraphStores(): Promise<void> {
  const all = [...servers.values()];
  servers.clear();
  await Promise.all(all.map((server) => server.dispose()));
}

/** The setting that turns the request log on for `dataDir`'s Virtuoso (none on the embedded store). */
export function sparqlLogSettings(dataDir: string): Record<string, string> {
  const server = servers.get(dataDir);
  return server === undefined ? {} : { REG_SPARQL_LOG: sparqlLogOf(server) };
}
