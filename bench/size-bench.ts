import fs from 'node:fs';
import { measureFsCopy, type FsBaseline } from './baseline-fs.js';
import { measureOxigraphLoad, type OxigraphBaseline } from './baseline-oxigraph.js';
import { measureSqliteInserts, type SqliteBaseline } from './baseline-sqlite.js';
import { generateNQuads } from './generate-nquads.js';
import { sizeLabel } from './options.js';
import { note, withTicker } from './progress.js';
import { runDump, runRestore, type DumpRun, type RestoreRun } from './reg-data.js';
import { readSparqlLog } from '../test/support/strict-sparql.js';
import { sparqlLogSettings } from './graph-store.js';
import { runServe, type ServeRun } from './reg-serve.js';
import { median, repeat, timed } from './stats.js';
import type { Workspace } from './workspace.js';

/** Every figure measured at one dataset size. */
export interface SizeResult {
  readonly label: string;
  readonly quads: number;
  readonly fileBytes: number;
  readonly generateMs: number;
  readonly restore: RestoreRun;
  readonly serve: {
    readonly runs: readonly ServeRun[];
    readonly readyMs: number;
    readonly indexMs: number;
    readonly indexedQuads: number;
    readonly rssMb: number;
    readonly peakMb: number;
    readonly readyzMs: number;
    /** Graph writes (updates and Graph Store Protocol POSTs) the restarts sent to an external store; null: embedded. */
    readonly warmStartWrites: number | null;
  };
  /** Embedded store: the same starts with `REG_QUERY_INDEX=on-demand` (no query index loaded); null: external. */
  readonly onDemand: { readonly readyMs: number; readonly rssMb: number; readonly peakMb: number } | null;
  readonly dump: DumpRun;
  readonly baselines: {
    readonly oxigraph: OxigraphBaseline;
    readonly sqlite: SqliteBaseline;
    readonly fs: FsBaseline;
  };
}

/**
 * Generates `quads` quads, then measures restore, start-up to ready (`runs` times) and dump against their raw
 * baselines on the same file. Files of this size are removed afterwards.
 */
export async function benchSize(space: Workspace, quads: number, runs: number): Promise<SizeResult> {
  const label = sizeLabel(quads);
  const input = space.path(`${label}.nq`);
  const dataDir = space.freshDir(`${label}-data`);
  const dumpFile = space.path(`${label}-dump.nq`);
  try {
    note(`${label}: generating ${quads.toLocaleString('en')} quads`);
    let shown = 0;
    const generated = await timed(() =>
      generateNQuads(input, quads, (written) => {
        if (quads >= 100_000 && written - shown >= quads / 4 && written < quads) {
          note(`${label}: generated ${written.toLocaleString('en')} of ${quads.toLocaleString('en')} quads`);
          shown = written;
        }
      }),
    );
    const fileBytes = fs.statSync(input).size;
    note(`${label}: baselines: raw oxigraph load and raw SQLite inserts`);
    const oxigraph = await withTicker(`${label}: oxigraph load`, () => measureOxigraphLoad(input));
    const sqlite = await withTicker(`${label}: sqlite inserts`, () =>
      measureSqliteInserts(input, space.path(`${label}-raw.db`)),
    );
    space.remove(`${label}-raw.db`);

    note(`${label}: reg restore`);
    const restore = await withTicker(`${label}: restoring`, () => runRestore(dataDir, input));
    space.remove(`${label}.nq`);

    // The warm starts are counted from the store's request log, on for them only.
    const logSettings = sparqlLogSettings(dataDir);
    const sparqlLog = logSettings.REG_SPARQL_LOG;
    const writesBefore = sparqlLog === undefined ? 0 : graphWrites(sparqlLog);
    const serveRuns = await repeat(runs, (run) => {
      note(`${label}: reg serve to /readyz, run ${run + 1} of ${runs}`);
      return withTicker(`${label}: starting`, () => runServe(dataDir, logSettings));
    });

    const onDemandRuns =
      sparqlLog === undefined
        ? await repeat(runs, (run) => {
            note(`${label}: reg serve to /readyz with the query index on demand, run ${run + 1} of ${runs}`);
            return withTicker(`${label}: starting`, () =>
              runServe(dataDir, { REG_QUERY_INDEX: 'on-demand' }),
            );
          })
        : [];

    note(`${label}: reg dump`);
    const dump = await withTicker(`${label}: dumping`, () => runDump(dataDir, dumpFile));
    const fsBaseline = await measureFsCopy(dumpFile, space.path(`${label}-copy.nq`));
    return {
      label,
      quads: generated.value,
      fileBytes,
      generateMs: generated.ms,
      restore,
      serve: {
        runs: serveRuns,
        readyMs: median(serveRuns.map((r) => r.readyMs)),
        indexMs: median(serveRuns.map((r) => r.indexMs)),
        indexedQuads: serveRuns[0]?.indexedQuads ?? NaN,
        rssMb: median(serveRuns.map((r) => r.rssMb)),
        peakMb: median(serveRuns.map((r) => r.peakMb)),
        readyzMs: median(serveRuns.map((r) => r.readyzMs)),
        warmStartWrites: sparqlLog === undefined ? null : graphWrites(sparqlLog) - writesBefore,
      },
      onDemand:
        onDemandRuns.length === 0
          ? null
          : {
              readyMs: median(onDemandRuns.map((r) => r.readyMs)),
              rssMb: median(onDemandRuns.map((r) => r.rssMb)),
              peakMb: median(onDemandRuns.map((r) => r.peakMb)),
            },
      dump,
      baselines: { oxigraph, sqlite, fs: fsBaseline },
    };
  } finally {
    space.remove(`${label}.nq`, `${label}-data`, `${label}-dump.nq`, `${label}-copy.nq`, `${label}-raw.db`);
  }
}

/** Graph writes (updates and Graph Store Protocol POSTs) an external store's request log (REG_SPARQL_LOG) holds. */
function graphWrites(log: string): number {
  return readSparqlLog(log).filter((request) => request.kind !== 'query').length;
}
