import type { AdvertiseResult } from './advertise-bench.js';
import type { SizeFigures } from './figures.js';
import type { GraphKind } from './graph-store.js';
import type { LineageResult } from './lineage-bench.js';
import type { LineagePagesResult } from './lineage-pages-bench.js';
import type { OpenLineageIngestResult } from './openlineage-bench.js';
import type { RecordsResult } from './records-bench.js';
import { compact } from './report.js';
import type { ServeRun } from './reg-serve.js';
import type { SearchResult } from './search-bench.js';
import { median } from './stats.js';

/** What one graph store's run measured (the parts that ran). */
export interface GraphRun {
  readonly emptyStart?: readonly ServeRun[];
  readonly figures?: readonly SizeFigures[];
  readonly records?: RecordsResult;
  readonly advertise?: AdvertiseResult;
  readonly lineage?: LineageResult;
  readonly openlineage?: OpenLineageIngestResult;
  readonly lineagePages?: LineagePagesResult;
  readonly search?: SearchResult;
}

const num = (n: number | undefined, digits = 1): string =>
  n === undefined || !Number.isFinite(n) ? '-' : n.toFixed(digits);
const rate = (n: number | undefined): string => (n === undefined ? '-' : compact(n));

/** The headline figures of each graph store side by side, with the external store's ratio to the embedded one. */
export function renderComparison(runs: ReadonlyMap<GraphKind, GraphRun>): string {
  const kinds = [...runs.keys()];
  const rows: [string, (run: GraphRun) => number | undefined, (n: number | undefined) => string][] = [
    [
      'reg serve, empty data dir, to /readyz (ms)',
      (r) => (r.emptyStart ? median(r.emptyStart.map((s) => s.readyMs)) : undefined),
      (n) => num(n, 0),
    ],
  ];
  const sizes = [...runs.values()].find((run) => run.figures !== undefined)?.figures ?? [];
  for (const [index, size] of sizes.entries()) {
    rows.push(
      [`${size.label}: restore (quads/s)`, (r) => r.figures?.[index]?.restoreQps, rate],
      [`${size.label}: ready after restart (ms)`, (r) => r.figures?.[index]?.readyMs, (n) => num(n, 0)],
      [`${size.label}: RSS of reg serve (MB)`, (r) => r.figures?.[index]?.rssMb, (n) => num(n, 0)],
      [`${size.label}: dump (quads/s)`, (r) => r.figures?.[index]?.dumpQps, rate],
    );
  }
  rows.push(
    ['GET /api/v1/software/{id} (req/s)', (r) => r.records?.getOne.rps, (n) => num(n, 0)],
    ['GET /api/v1/software?limit=25 (req/s)', (r) => r.records?.list.rps, (n) => num(n, 0)],
    ['validated write, in-process, median (ms)', (r) => r.records?.writeMs.median, (n) => num(n, 2)],
    ['POST /api/v1/software over HTTP, median (ms)', (r) => r.records?.httpCreateMs, (n) => num(n, 2)],
    ['POST advertise/produced (req/s)', (r) => r.advertise?.rps, (n) => num(n, 0)],
    ['lineage, depth 6, p50 (ms)', (r) => r.lineage?.p50Ms, (n) => num(n, 1)],
    [
      'POST advertise/produced on the lineage store (req/s)',
      (r) => r.lineage?.advertise?.rps,
      (n) => num(n, 0),
    ],
    ['OpenLineage single events (events/s)', (r) => r.openlineage?.single.eventsPerSecond, (n) => num(n, 0)],
    ['OpenLineage batches of 50 (events/s)', (r) => r.openlineage?.batched.eventsPerSecond, (n) => num(n, 0)],
    [
      'lineage pages of 500 nodes, worst page (ms)',
      (r) => (r.lineagePages ? Math.max(...r.lineagePages.passes.map((p) => p.worstMs)) : undefined),
      (n) => num(n, 1),
    ],
    ['GET /api/v1/search, p50 (ms)', (r) => r.search?.httpSearch.p50, (n) => num(n, 2)],
    ['GET /api/v1/capabilities, p50 (ms)', (r) => r.search?.httpMatch.p50, (n) => num(n, 2)],
  );
  const header = ['figure', ...kinds, ...(kinds.length === 2 ? ['sparql ÷ embedded'] : [])];
  const body = rows
    .map(([label, pick, show]) => {
      const values = kinds.map((kind) => pick(runs.get(kind)!));
      if (values.every((value) => value === undefined)) return undefined;
      const [a, b] = values;
      const ratio =
        kinds.length === 2 && a !== undefined && b !== undefined && a !== 0 ? `${(b / a).toFixed(2)}×` : '';
      return [label, ...values.map(show), ...(kinds.length === 2 ? [ratio] : [])];
    })
    .filter((row): row is string[] => row !== undefined);
  const table = [header, ...body];
  const widths = header.map((_, column) => Math.max(...table.map((row) => row[column]?.length ?? 0)));
  return [
    'Graph stores side by side (embedded: SQLite rows + in-memory oxigraph; sparql: a local Virtuoso over HTTP)',
    ...table.map((row) =>
      row
        .map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!)))
        .join('  '),
    ),
  ].join('\n');
}

/** One target of the external store, judged from both stores' figures; null when a part it needs did not run. */
interface ExternalTarget {
  readonly name: string;
  readonly judge: (
    embedded: GraphRun | undefined,
    sparql: GraphRun,
  ) => { pass: boolean; shown: string } | null;
}

const EXTERNAL_TARGETS: readonly ExternalTarget[] = [
  {
    name: 'validated write at most 5x the embedded store',
    judge: (embedded, sparql) => {
      const a = embedded?.records?.writeMs.median;
      const b = sparql.records?.writeMs.median;
      if (a === undefined || b === undefined) return null;
      return { pass: b / a <= 5, shown: `${b.toFixed(2)} ms, ${(b / a).toFixed(2)}x` };
    },
  },
  {
    name: 'advertise at least 300 calls/s with 50 clients',
    judge: (_embedded, sparql) => {
      const rps = sparql.advertise?.rps;
      return rps === undefined ? null : { pass: rps >= 300, shown: `${Math.round(rps)} calls/s` };
    },
  },
  {
    name: 'a page of 25 software at least 0.3x the embedded throughput',
    judge: (embedded, sparql) => {
      const a = embedded?.records?.list.rps;
      const b = sparql.records?.list.rps;
      if (a === undefined || b === undefined) return null;
      return { pass: b / a >= 0.3, shown: `${Math.round(b)} req/s, ${(b / a).toFixed(2)}x` };
    },
  },
  {
    name: 'lineage depth 6 under 100 ms at p95 (at 1M quads)',
    judge: (_embedded, sparql) => {
      const lineage = sparql.lineage;
      if (lineage === undefined) return null;
      const size = lineage.quads >= 1_000_000 ? '' : ` (measured at ${compact(lineage.quads)} quads)`;
      return { pass: lineage.p95Ms < 100, shown: `${lineage.p95Ms.toFixed(1)} ms${size}` };
    },
  },
  {
    name: 'restore at least 50k quads/s',
    judge: (_embedded, sparql) => {
      const largest = sparql.figures?.at(-1);
      if (largest === undefined) return null;
      return {
        pass: largest.restoreQps >= 50_000,
        shown: `${compact(largest.restoreQps)} quads/s at ${largest.label}`,
      };
    },
  },
  {
    name: 'a warm start writes nothing to the store',
    judge: (_embedded, sparql) => {
      const writes = (sparql.figures ?? []).map((size) => size.warmStartWrites ?? 0);
      if (writes.length === 0) return null;
      const total = writes.reduce((sum, n) => sum + n, 0);
      return { pass: total === 0, shown: `${total} graph writes over ${writes.length} sizes' restarts` };
    },
  },
];

/** The external store's targets as PASS/FAIL lines (NOT RUN when the part a target needs was not measured). */
export function renderExternalTargets(runs: ReadonlyMap<GraphKind, GraphRun>): string {
  const sparql = runs.get('sparql');
  if (sparql === undefined) return '';
  const embedded = runs.get('embedded');
  return [
    'Targets of the external store (Virtuoso), against the embedded store in the same run',
    ...EXTERNAL_TARGETS.map(({ name, judge }) => {
      const verdict = judge(embedded, sparql);
      if (verdict === null) return `  NOT RUN ${name}`;
      return `  ${verdict.pass ? 'PASS' : 'FAIL'}    ${name}: ${verdict.shown}`;
    }),
  ].join('\n');
}
