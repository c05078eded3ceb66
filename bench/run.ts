import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { measureStartBaselines } from './baseline-start.js';
import { findAnomalies } from './checks.js';
import { sizeFigures, targets } from './figures.js';
import { parseOptions, sizeLabel, USAGE, UsageError, type Options } from './options.js';
import { benchAdvertise, renderAdvertise } from './advertise-bench.js';
import { benchHostile, renderHostile } from './hostile-bench.js';
import { benchLineage, renderLineage } from './lineage-bench.js';
import { benchLineagePages, renderLineagePages } from './lineage-pages-bench.js';
import { benchOpenLineageIngest, renderOpenLineageIngest } from './openlineage-bench.js';
import { benchRateLimit, renderRateLimit } from './ratelimit-bench.js';
import { benchRecords, renderRecords } from './records-bench.js';
import { benchSearch, renderSearch } from './search-bench.js';
import { benchUi, renderUi } from './ui-bench.js';
import { benchValidation, renderValidation } from './validation-bench.js';
import { note } from './progress.js';
import { ROOT } from './reg-cli.js';
import { runServe } from './reg-serve.js';
import { renderReport } from './report.js';
import { benchSize, type SizeResult } from './size-bench.js';
import { renderComparison, renderExternalTargets, type GraphRun } from './compare.js';
import { selectGraphStore, stopGraphStores, type GraphKind } from './graph-store.js';
import { repeat } from './stats.js';
import { Workspace } from './workspace.js';

/*
 * `npm run bench [-- --sizes 10k,100k,1M] [--runs 3]`: start-up, restore and dump figures of the built CLI, each
 * against a raw baseline measured in the same run. Prints a table and the targets, writes .bench/results.json.
 * Exits non-zero only when something fails to run, never for a missed target.
 */

/** Start-up, restore and dump figures by dataset size, printed as they are measured. */
async function runStartup(options: Options, space: Workspace): Promise<Record<string, unknown>> {
  note(
    `workspace ${space.dir}; sizes ${options.sizes.map(sizeLabel).join(', ')}; ${options.runs} runs per start-up figure`,
  );
  note('start-up floors: node -e, bare node:http, reg --version');
  const start = await measureStartBaselines(Math.max(options.runs, 5), space.freshDir('scratch'));
  note('reg serve on empty data directories');
  const emptyStart = await repeat(options.runs, (run) => runServe(space.freshDir(`empty-${run}`)));
  const sizes: SizeResult[] = [];
  for (const quads of options.sizes) sizes.push(await benchSize(space, quads, options.runs));
  const figures = sizes.map((size) => sizeFigures(size, start));
  const goals = targets(sizes, emptyStart);
  const anomalies = findAnomalies(sizes, emptyStart);
  process.stdout.write(`${renderReport({ start, emptyStart, sizes, figures, targets: goals })}\n`);
  if (anomalies.length > 0)
    process.stdout.write(`\nAnomalies\n${anomalies.map((text) => `  ${text}`).join('\n')}\n`);
  return { start, emptyStart, sizes, figures, targets: goals, anomalies };
}

/**
 * Runs the chosen parts against the graph store selected now; returns what they measured. The web page is
 * measured with the first store only, as is validation: neither depends on where the graph lives.
 */
async function runParts(
  options: Options,
  space: Workspace,
  first: boolean,
): Promise<Record<string, unknown>> {
  const results: Record<string, unknown> = {};
  if (options.parts.includes('startup')) Object.assign(results, await runStartup(options, space));
  if (options.parts.includes('records')) {
    const records = await benchRecords(space, options.seconds);
    process.stdout.write(`\n${renderRecords(records)}\n`);
    results.records = records;
    const advertising = await benchAdvertise(space, options.seconds, records.baseline);
    process.stdout.write(`\n${renderAdvertise(advertising)}\n`);
    results.advertise = advertising;
    const lineage = await benchLineage(space, options.lineageQuads, options.seconds);
    process.stdout.write(`\n${renderLineage(lineage, advertising.rps)}\n`);
    results.lineage = lineage;
  }
  if (options.parts.includes('openlineage')) {
    const ingest = await benchOpenLineageIngest(space, options.seconds);
    process.stdout.write(`\n${renderOpenLineageIngest(ingest)}\n`);
    results.openlineage = ingest;
    const pages = await benchLineagePages(space);
    process.stdout.write(`\n${renderLineagePages(pages)}\n`);
    results.lineagePages = pages;
  }
  if (options.parts.includes('search')) {
    const found = await benchSearch(space, options.searchRecords);
    process.stdout.write(`\n${renderSearch(found)}\n`);
    results.search = found;
  }
  if (options.parts.includes('hostile')) {
    const hostile = await benchHostile(space, options.seconds, options.hostileQuads);
    process.stdout.write(`\n${renderHostile(hostile)}\n`);
    results.hostile = hostile;
  }
  if (options.parts.includes('ratelimit')) {
    const limiter = await benchRateLimit(space, options.seconds);
    process.stdout.write(`\n${renderRateLimit(limiter)}\n`);
    results.ratelimit = limiter;
  }
  if (options.parts.includes('ui') && first) {
    const page = await benchUi(space);
    process.stdout.write(`\n${renderUi(page)}\n`);
    results.ui = page;
  }
  if (options.parts.includes('validation') && first) {
    const validation = await benchValidation();
    process.stdout.write(`\n${renderValidation(validation)}\n`);
    results.validation = validation;
  }
  return results;
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  if (options === null) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const loadBefore = os.loadavg()[0]!;
  const space = new Workspace();
  try {
    const machine = () => ({
      node: process.version,
      platform: `${os.type()} ${os.release()}`,
      cpus: os.cpus().length,
      memoryGb: os.totalmem() / 2 ** 30,
      loadAverage: { before: loadBefore, after: os.loadavg()[0]! },
    });
    const results: Record<string, unknown> = { measuredAt: new Date().toISOString(), options };
    const runs = new Map<GraphKind, GraphRun>();
    for (const graph of options.graphs) {
      process.stdout.write(`\n==== graph store: ${graph} ====\n`);
      selectGraphStore(graph);
      try {
        const measured = await runParts(options, space.scope(graph), graph === options.graphs[0]);
        runs.set(graph, measured);
        results[graph] = measured;
      } finally {
        await stopGraphStores();
      }
    }
    process.stdout.write(`\n${renderComparison(runs)}\n`);
    const external = renderExternalTargets(runs);
    if (external !== '') process.stdout.write(`\n${external}\n`);
    const host = machine();
    results.machine = host;
    process.stdout.write(
      `\nmachine: ${host.cpus} CPUs, node ${host.node}, 1-min load average ${host.loadAverage.before.toFixed(2)} before, ` +
        `${host.loadAverage.after.toFixed(2)} after (other work on the machine skews the figures)\n`,
    );
    const file = path.join(ROOT, '.bench', 'results.json');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
    process.stdout.write(`\nfigures written to ${path.relative(process.cwd(), file)}\n`);
  } finally {
    space.cleanUp();
  }
}

main().catch((error: unknown) => {
  const text =
    error instanceof UsageError
      ? error.message
      : error instanceof Error
        ? (error.stack ?? error.message)
        : String(error);
  process.stderr.write(`bench: ${text}\n`);
  process.exitCode = 1;
});
