import fs from 'node:fs';
import { startHttp } from './http-start.js';
import { lineageIndexSettled, searchSettled } from './lineage-bench.js';
import { note } from './progress.js';
import { BASE_IRI, BIN, regEnv } from './reg-cli.js';
import { runRestore } from './reg-data.js';
import { median } from './stats.js';
import type { Workspace } from './workspace.js';

/*
 * The lineage page on a wide neighbourhood: one dataset version read by 5,000 runs, each writing its own output
 * (10,001 nodes), paged through with max_nodes and a time budget, following each answer's cursor until the
 * walk is complete, as the web page does.
 */

/** Runs that read the root version; each writes one output, so the neighbourhood holds 1 + 2 × RUNS nodes. */
const RUNS = 5000;
const MAX_NODES = 500;
const TIME_BUDGET_MS = 200;
/** What a page may take beyond its budget: the walk checks its clock between steps, so one step may overrun. */
const STEP_ALLOWANCE_MS = 50;
const DEPTH = 2;
const PASSES = 3;
/** Lineage reads of other artifacts before the measured passes. */
const WARM_UP_READS = 20;
/** More pages than this is a walk that does not end. */
const MAX_PAGES = 1000;

const G = '<urn:reg:local>';
const T = {
  type: '<http://www.w3.org/1999/02/22-rdf-syntax-ns#type>',
  dataset: '<http://www.w3.org/ns/dcat#Dataset>',
  entity: '<http://www.w3.org/ns/prov#Entity>',
  activity: '<http://www.w3.org/ns/prov#Activity>',
  title: '<http://purl.org/dc/terms/title>',
  label: '<http://www.w3.org/2000/01/rdf-schema#label>',
  conformsTo: '<http://purl.org/dc/terms/conformsTo>',
  identifier: '<http://purl.org/dc/terms/identifier>',
  generated: '<http://www.w3.org/ns/prov#wasGeneratedBy>',
  used: '<http://www.w3.org/ns/prov#used>',
  started: '<http://www.w3.org/ns/prov#startedAtTime>',
  status: '<https://w3id.org/reg/ns#status>',
};

/** One pass through every page of the lineage. */
export interface PagePass {
  readonly pages: number;
  /** Nodes over all pages, and how many distinct ones (a node given twice is counted once there). */
  readonly nodes: number;
  readonly distinctNodes: number;
  readonly edges: number;
  /** Most nodes one page held. */
  readonly largestPage: number;
  readonly medianMs: number;
  readonly worstMs: number;
  /** Which page (from 1) took longest. */
  readonly worstPage: number;
  /** Partial pages that ended on the clock rather than on max_nodes (they hold fewer than max_nodes - 1 nodes). */
  readonly clockCut: number;
  /** Pages answered after their time budget, and after the budget plus one step's allowance. */
  readonly overBudget: number;
  readonly overAllowance: number;
}

/** Lineage paged through from the first page to the last, a few times. */
export interface LineagePagesResult {
  readonly runs: number;
  /** Nodes of the whole neighbourhood: the root, its readers and their outputs. */
  readonly expectedNodes: number;
  readonly maxNodes: number;
  readonly timeBudgetMs: number;
  readonly depth: number;
  readonly quads: number;
  readonly passes: readonly PagePass[];
}

/** Writes the root version, the runs that used it and their outputs as N-Quads; returns the quads written. */
function generate(file: string): number {
  const lines: string[] = [];
  const line = (s: string, p: string, o: string) => lines.push(`${s} ${p} ${o} ${G} .`);
  const artifact = (iri: string, title: string, key: string) => {
    line(iri, T.type, T.dataset);
    line(iri, T.type, T.entity);
    line(iri, T.title, JSON.stringify(title));
    line(iri, T.conformsTo, '<http://edamontology.org/data_0006>');
    line(iri, T.identifier, JSON.stringify(key));
  };
  const root = `<${BASE_IRI}/artifact/root>`;
  artifact(root, 'source table, version 1', 'root');
  for (let i = 0; i < RUNS; i++) {
    const run = `<${BASE_IRI}/run/reader${i}>`;
    const output = `<${BASE_IRI}/artifact/out${i}>`;
    line(run, T.type, T.activity);
    line(run, T.label, JSON.stringify(`reader ${i}`));
    line(run, T.started, '"2026-01-01T00:00:00Z"^^<http://www.w3.org/2001/XMLSchema#dateTime>');
    line(run, T.status, '"success"');
    line(run, T.used, root);
    artifact(output, `output ${i}`, `out${i}`);
    line(output, T.generated, run);
  }
  fs.writeFileSync(file, `${lines.join('\n')}\n`);
  return lines.length;
}

interface LineagePage {
  nodes: { iri: string }[];
  edges: unknown[];
  partial: boolean;
  cursor?: string;
}

/** Follows the cursor from the first page to the last, timing each page. */
async function pass(url: string): Promise<PagePass> {
  const base =
    `${url}/api/v1/artifacts/root/lineage?direction=down&depth=${DEPTH}` +
    `&max_nodes=${MAX_NODES}&time_budget_ms=${TIME_BUDGET_MS}`;
  const times: number[] = [];
  const seen = new Set<string>();
  let nodes = 0;
  let edges = 0;
  let largestPage = 0;
  let clockCut = 0;
  let cursor: string | undefined;
  do {
    if (times.length >= MAX_PAGES) throw new Error(`lineage pages: no end after ${MAX_PAGES} pages`);
    const started = performance.now();
    const response = await fetch(
      cursor === undefined ? base : `${base}&cursor=${encodeURIComponent(cursor)}`,
    );
    const page = (await response.json()) as LineagePage;
    times.push(performance.now() - started);
    if (response.status !== 200) throw new Error(`lineage page answered ${response.status}`);
    nodes += page.nodes.length;
    edges += page.edges.length;
    largestPage = Math.max(largestPage, page.nodes.length);
    for (const node of page.nodes) seen.add(node.iri);
    // A step row adds at most two nodes, so a page the node budget ended holds at least max_nodes - 1.
    if (page.partial && page.nodes.length < MAX_NODES - 1) clockCut++;
    cursor = page.partial ? page.cursor : undefined;
  } while (cursor !== undefined);
  return {
    pages: times.length,
    nodes,
    distinctNodes: seen.size,
    edges,
    largestPage,
    medianMs: median(times),
    worstMs: Math.max(...times),
    worstPage: times.indexOf(Math.max(...times)) + 1,
    clockCut,
    overBudget: times.filter((ms) => ms > TIME_BUDGET_MS).length,
    overAllowance: times.filter((ms) => ms > TIME_BUDGET_MS + STEP_ALLOWANCE_MS).length,
  };
}

/** Restores the neighbourhood, starts `reg serve` on it and pages through the lineage three times. */
export async function benchLineagePages(space: Workspace): Promise<LineagePagesResult> {
  const dir = space.freshDir('lineage-pages');
  const file = space.path('lineage-pages.nq');
  note(`lineage pages: one version read by ${RUNS.toLocaleString('en')} runs, restoring`);
  const quads = generate(file);
  await runRestore(dir, file);
  space.remove('lineage-pages.nq');
  const server = await startHttp(
    process.execPath,
    [BIN, 'serve'],
    regEnv(dir, { REG_LOG_LEVEL: 'info' }),
    '/readyz',
  );
  try {
    note('lineage pages: waiting for the search and lineage indexes to be refilled');
    await searchSettled(server.url);
    await lineageIndexSettled(server.url);
    // The first lineage reads of a process are slow whatever their size (code not yet compiled): lineage of a few
    // other artifacts is read first, as the depth-6 figure leaves out its first queries.
    note('lineage pages: warming up');
    for (let i = 0; i < WARM_UP_READS; i++) {
      const response = await fetch(`${server.url}/api/v1/artifacts/out${i}/lineage?direction=both&depth=2`);
      if (response.status !== 200) throw new Error(`lineage answered ${response.status}`);
      await response.arrayBuffer();
    }
    note(`lineage pages: ${PASSES} passes through every page`);
    const passes: PagePass[] = [];
    for (let n = 0; n < PASSES; n++) passes.push(await pass(server.url));
    return {
      runs: RUNS,
      expectedNodes: 1 + 2 * RUNS,
      maxNodes: MAX_NODES,
      timeBudgetMs: TIME_BUDGET_MS,
      depth: DEPTH,
      quads,
      passes,
    };
  } finally {
    await server.stop();
  }
}

/** Renders each pass and the targets over all of them. */
export function renderLineagePages(result: LineagePagesResult): string {
  const { passes, expectedNodes } = result;
  const allowed = result.timeBudgetMs + STEP_ALLOWANCE_MS;
  const worst = Math.max(...passes.map((p) => p.worstMs));
  const largest = Math.max(...passes.map((p) => p.largestPage));
  const whole = passes.every((p) => p.distinctNodes === expectedNodes && p.nodes === expectedNodes);
  const overAllowance = passes.reduce((sum, p) => sum + p.overAllowance, 0);
  const rows = passes.map(
    (p, n) =>
      `  pass ${n + 1}  ${p.pages} pages, ${p.nodes.toLocaleString('en')} nodes ` +
      `(${p.distinctNodes.toLocaleString('en')} distinct), ${p.edges.toLocaleString('en')} edges; page p50 ` +
      `${p.medianMs.toFixed(1)} ms, worst ${p.worstMs.toFixed(1)} ms (page ${p.worstPage}); ${p.clockCut} ended on the clock; ${p.overBudget} over ${result.timeBudgetMs} ms, ` +
      `${p.overAllowance} over ${allowed} ms`,
  );
  const counts = passes.map((p) => `${p.distinctNodes.toLocaleString('en')}/${p.nodes.toLocaleString('en')}`);
  return [
    `Lineage pages (one version read by ${result.runs.toLocaleString('en')} runs, each writing its own output: ` +
      `${expectedNodes.toLocaleString('en')} nodes, ${result.quads.toLocaleString('en')} quads; direction=down ` +
      `depth=${result.depth} max_nodes=${result.maxNodes} time_budget_ms=${result.timeBudgetMs}, following cursor)`,
    ...rows,
    '',
    'Lineage page targets',
    `  ${overAllowance === 0 ? 'PASS' : 'FAIL'}    every page within its time budget + ${STEP_ALLOWANCE_MS} ms (${allowed} ms): worst ${worst.toFixed(1)} ms, ${overAllowance} pages over`,
    `  ${largest <= result.maxNodes ? 'PASS' : 'FAIL'}    no page above max_nodes (${result.maxNodes}): largest ${largest}`,
    `  ${whole ? 'PASS' : 'FAIL'}    the pages together are the whole neighbourhood, each node once: distinct/given ${counts.join(', ')} of ${expectedNodes.toLocaleString('en')}`,
  ].join('\n');
}
