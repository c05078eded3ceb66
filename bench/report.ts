import type { StartBaselines } from './baseline-start.js';
import type { SizeFigures, Target } from './figures.js';
import type { ServeRun } from './reg-serve.js';
import type { SizeResult } from './size-bench.js';
import { median } from './stats.js';

/** 1234567 → "1.23M", 52100 → "52.1k". */
export function compact(n: number): string {
  if (!Number.isFinite(n)) return 'n/a';
  if (n >= 1e6) return `${(n / 1e6).toPrecision(3)}M`;
  if (n >= 1e3) return `${(n / 1e3).toPrecision(3)}k`;
  return n.toPrecision(3);
}

const ms = (n: number): string => (Number.isFinite(n) ? n.toFixed(0) : 'n/a');
const mb = (n: number): string => (Number.isFinite(n) ? n.toFixed(0) : 'n/a');
const ratio = (n: number): string =>
  Number.isFinite(n) ? `${n < 10 ? n.toFixed(2) : n.toFixed(0)}×` : 'n/a';

/** Lays out rows as columns, left-aligning the first and right-aligning the rest. */
function table(rows: readonly (readonly string[])[]): string {
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]?.length ?? 0)));
  return rows
    .map((row) =>
      row
        .map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!)))
        .join('  '),
    )
    .join('\n');
}

/** The whole printed report. */
export function renderReport(input: {
  readonly start: StartBaselines;
  readonly emptyStart: readonly ServeRun[];
  readonly sizes: readonly SizeResult[];
  readonly figures: readonly SizeFigures[];
  readonly targets: readonly Target[];
}): string {
  const { start, emptyStart, sizes, figures } = input;
  const emptyReady = median(emptyStart.map((run) => run.readyMs));
  const out: string[] = [];
  out.push('', 'reg start-up and bulk I/O benchmark', '');
  out.push('Start-up (medians)');
  out.push(
    table([
      ['what', 'ms', '× http floor', 'RSS MB'],
      ['node -e "" (spawn to exit)', ms(start.nodeExitMs), ratio(start.nodeExitMs / start.httpReadyMs), ''],
      ['bare node:http server to first 200', ms(start.httpReadyMs), ratio(1), mb(start.httpRssMb)],
      [
        'reg --version (spawn to exit)',
        ms(start.regVersionMs),
        ratio(start.regVersionMs / start.httpReadyMs),
        '',
      ],
      [
        'reg serve, empty data dir, to /readyz 200',
        ms(emptyReady),
        ratio(emptyReady / start.httpReadyMs),
        mb(median(emptyStart.map((run) => run.rssMb))),
      ],
    ]),
  );
  out.push(`  empty-directory runs: ${emptyStart.map((run) => `${ms(run.readyMs)} ms`).join(', ')}`);
  out.push(
    `  of which listening after ${ms(median(emptyStart.map((run) => run.listeningMs)))} ms; ` +
      `bundles indexed (${compact(emptyStart[0]?.indexedQuads ?? NaN)} quads) in ${ms(median(emptyStart.map((run) => run.indexMs)))} ms`,
  );

  if (figures.length > 0) {
    out.push('', 'Per size: reg figure, then its ratio to the baseline measured in this run');
    out.push(
      table([
        [
          'size',
          'restore q/s',
          '÷ sqlite',
          'index q/s',
          '÷ oxigraph',
          'ready ms',
          '× http',
          'RSS MB',
          '× oxigraph',
          'dump q/s',
          '÷ fs copy',
        ],
        ...figures.map((f) => [
          f.label,
          compact(f.restoreQps),
          ratio(f.restoreRatio),
          compact(f.indexQps),
          ratio(f.indexRatio),
          ms(f.readyMs),
          ratio(f.readyRatio),
          mb(f.rssMb),
          ratio(f.rssRatio),
          compact(f.dumpQps),
          ratio(f.dumpRatio),
        ]),
      ]),
    );
    out.push(
      '  rates: reg ÷ baseline, below 1× is slower than the raw floor; ready and RSS: reg × baseline, above 1× costs more.',
    );
    out.push('', 'Baselines per size (same data, same run)');
    out.push(
      table([
        [
          'size',
          'sqlite insert q/s',
          'oxigraph q/s',
          'load() only q/s',
          'oxigraph RSS MB',
          'fs copy q/s',
          'fs read q/s',
        ],
        ...sizes.map((size, i) => {
          const f = figures[i]!;
          const ox = size.baselines.oxigraph;
          return [
            size.label,
            compact(f.rawSqliteQps),
            compact(f.rawOxigraphQps),
            compact((ox.quads * 1000) / ox.loadMs),
            mb(ox.rssMb),
            compact(f.fsCopyQps),
            compact(f.fsReadQps),
          ];
        }),
      ]),
    );
    out.push('', 'Details');
    out.push(
      table([
        [
          'size',
          'file MB',
          'restore s',
          'restore peak MB',
          'records',
          'listening ms',
          'index ms',
          'ready runs ms',
          'peak MB',
          '/readyz ms',
          'stop ms',
          'dump s',
          'dump lines',
          'on demand: ready ms',
          'peak MB',
        ],
        ...sizes.map((size) => [
          size.label,
          (size.fileBytes / 2 ** 20).toFixed(1),
          (size.restore.ms / 1000).toFixed(2),
          mb(size.restore.peakMb),
          compact(size.restore.records),
          ms(median(size.serve.runs.map((run) => run.listeningMs))),
          ms(size.serve.indexMs),
          size.serve.runs.map((run) => ms(run.readyMs)).join('/'),
          mb(size.serve.peakMb),
          size.serve.readyzMs.toFixed(1),
          ms(median(size.serve.runs.map((run) => run.stopMs))),
          (size.dump.ms / 1000).toFixed(2),
          compact(size.dump.lines),
          size.onDemand === null ? '—' : ms(size.onDemand.readyMs),
          size.onDemand === null ? '—' : mb(size.onDemand.peakMb),
        ]),
      ]),
    );
    out.push(
      '  index ms: the server\'s own "ready" log line (bundles + records); /readyz ms: median of 5 probes once ready;\n  on demand: the same starts with REG_QUERY_INDEX=on-demand (no query index loaded).',
    );
  }

  out.push('', 'Targets');
  for (const target of input.targets) {
    const unit = target.unit ?? 'ms';
    const actual = target.actualMs === null ? 'not measured' : `${ms(target.actualMs)} ${unit}`;
    out.push(`  ${target.status.padEnd(7)} ${target.name}: ${actual} (target < ${target.limitMs} ${unit})`);
  }
  return out.join('\n');
}
