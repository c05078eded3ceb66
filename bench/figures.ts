import type { StartBaselines } from './baseline-start.js';
import type { ServeRun } from './reg-serve.js';
import type { SizeResult } from './size-bench.js';
import { median, perSecond } from './stats.js';

/** The headline rates of one size and each one's ratio to its baseline (reg figure ÷ baseline figure). */
export interface SizeFigures {
  readonly label: string;
  readonly quads: number;
  readonly restoreQps: number;
  readonly rawSqliteQps: number;
  readonly restoreRatio: number;
  readonly indexQps: number;
  readonly rawOxigraphQps: number;
  readonly indexRatio: number;
  readonly readyMs: number;
  readonly readyRatio: number;
  readonly rssMb: number;
  /** Graph writes the restarts sent to an external store (a warm start sends none); null on the embedded store. */
  readonly warmStartWrites: number | null;
  readonly rawOxigraphRssMb: number;
  readonly rssRatio: number;
  readonly dumpQps: number;
  readonly fsCopyQps: number;
  readonly fsReadQps: number;
  readonly dumpRatio: number;
}

/** Rates and ratios of one size; start-up ratios are against the bare node:http floor. */
export function sizeFigures(size: SizeResult, start: StartBaselines): SizeFigures {
  const { oxigraph, sqlite, fs } = size.baselines;
  const restoreQps = perSecond(size.restore.read, size.restore.ms);
  const rawSqliteQps = perSecond(sqlite.rows, sqlite.ms);
  const indexQps = perSecond(size.serve.indexedQuads, size.serve.indexMs);
  const rawOxigraphQps = perSecond(oxigraph.quads, oxigraph.ms);
  const dumpQps = perSecond(size.dump.lines, size.dump.ms);
  const fsCopyQps = perSecond(size.dump.lines, fs.copyMs);
  return {
    label: size.label,
    quads: size.quads,
    restoreQps,
    rawSqliteQps,
    restoreRatio: restoreQps / rawSqliteQps,
    indexQps,
    rawOxigraphQps,
    indexRatio: indexQps / rawOxigraphQps,
    readyMs: size.serve.readyMs,
    readyRatio: size.serve.readyMs / start.httpReadyMs,
    rssMb: size.serve.rssMb,
    warmStartWrites: size.serve.warmStartWrites,
    rawOxigraphRssMb: oxigraph.rssMb,
    rssRatio: size.serve.rssMb / oxigraph.rssMb,
    dumpQps,
    fsCopyQps,
    fsReadQps: perSecond(size.dump.lines, fs.readMs),
    dumpRatio: dumpQps / fsCopyQps,
  };
}

/** One start-up target and whether it was met. */
export interface Target {
  readonly name: string;
  readonly limitMs: number;
  readonly actualMs: number | null;
  readonly status: 'PASS' | 'FAIL' | 'NOT RUN';
  /** What the figures count: milliseconds unless said. */
  readonly unit?: 'MB';
}

/** The start-up targets: ready < 1 s at 100k quads, < 5 s at 1M, first start on an empty directory < 1 s. */
export function targets(sizes: readonly SizeResult[], emptyStart: readonly ServeRun[]): Target[] {
  const readyAt = (quads: number): number | null =>
    sizes.find((size) => size.quads === quads)?.serve.readyMs ?? null;
  const emptyMs = emptyStart.length === 0 ? null : median(emptyStart.map((run) => run.readyMs));
  const target = (name: string, limitMs: number, actualMs: number | null): Target => ({
    name,
    limitMs,
    actualMs,
    status: actualMs === null ? 'NOT RUN' : actualMs < limitMs ? 'PASS' : 'FAIL',
  });
  const onDemand = sizes.find((size) => size.quads === 10_000_000)?.onDemand ?? null;
  return [
    target('ready at 100k quads (median)', 1000, readyAt(100_000)),
    target('ready at 1M quads (median)', 5000, readyAt(1_000_000)),
    target('first start on an empty directory (median)', 1000, emptyMs),
    target('ready at 10M quads, query index on demand (median)', 15_000, onDemand?.readyMs ?? null),
    {
      ...target(
        'peak resident memory at 10M quads, query index on demand',
        3 * 1024,
        onDemand?.peakMb ?? null,
      ),
      unit: 'MB',
    },
  ];
}
