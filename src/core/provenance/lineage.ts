/**
 * Lineage of an artifact: what it came from (up) and what came from it (down), as nodes and edges, found by
 * bounded breadth-first steps of SPARQL over the query index (oxigraph has no `{n,m}` property paths). One step
 * crosses one generation of artifacts, together with the run between them: up from an artifact are its
 * generating run and that run's inputs, and what it was derived from or is a revision of; down are the runs that
 * used it and their outputs, and what was derived from or revises it.
 */
import { randomUUID } from 'node:crypto';
import { BadRequestError } from '../errors.js';
import { DCT, GRAPHS, PROV, RDFS, XSD } from '../ns.js';
import { ARTIFACT, ARTIFACT_SERIES, RUN } from '../records/activity-specs.js';
import type { JsonObject } from '../records/mapper.js';
import type { Core } from '../core.js';

import { memoised } from '../stored/memoised.js';
import { lineageIndexReady } from '../store/lineage/lineage-index.js';
import { lineageNodeRows, lineageSeriesRows, lineageStepLines } from '../store/lineage/lineage-walk.js';
import { iriOf, originOf, requireReadable } from '../stored/records.js';
import { unresolvedOrigin, valuesBlock } from './runs.js';

/** Which way lineage is followed from the artifact. */
export type LineageDirection = 'up' | 'down' | 'both';
/**
 * What an edge says, read from its `from` to its `to`: the run used or generated the artifact; the artifact was
 * derived from, or is a revision of, the other.
 */
export type LineagePredicate = 'used' | 'generated' | 'derivedFrom' | 'revisionOf';

/** How far, and which way, to follow lineage, within which budgets. */
export interface LineageOptions {
  readonly direction: LineageDirection;
  readonly depth: number;
  /** Most nodes one answer holds (a page). */
  readonly maxNodes: number;
  /** Most edges one answer holds. */
  readonly maxEdges: number;
  /** Time after which the walk stops at the end of its current step and answers what it has. */
  readonly timeBudgetMs: number;
  /** Lineage as the registry had recorded it at this instant (records created later are left out). */
  readonly asOf: string | undefined;
  /** Versions shown as the dataset (artifact series) they belong to. */
  readonly collapse: boolean;
  /** Continues a partial answer. */
  readonly cursor: string | undefined;
}

/** One node: an artifact, a run, a dataset (collapsed versions), or an IRI the registry holds nothing about. */
export interface LineageNode {
  readonly iri: string;
  readonly entity_type: 'artifact' | 'run' | 'dataset' | 'unknown';
  readonly title?: string;
  readonly origin: JsonObject;
  readonly depth: number;
  readonly unresolved?: true;
  /** For a dataset: its versions among the nodes of this answer. */
  readonly versions?: string[];
}

/** One edge, oriented as PROV states it (run → artifact for used and generated; newer → older otherwise). */
export interface LineageEdge {
  readonly from: string;
  readonly to: string;
  readonly predicate: LineagePredicate;
}

/**
 * The lineage of one artifact, or one page of it: `partial` (and `truncated`, its older name) when a budget cut it
 * short, with a `cursor` that continues it (the next page holds the nodes and edges not given yet).
 */
export interface Lineage {
  readonly root: string;
  readonly direction: LineageDirection;
  readonly depth: number;
  readonly nodes: LineageNode[];
  readonly edges: LineageEdge[];
  readonly truncated: boolean;
  readonly partial: boolean;
  readonly cursor?: string;
  readonly as_of?: string;
  readonly collapsed?: true;
}

/**
 * Depth bounds, and the default budgets that keep an answer small and fast whatever the graph holds: about 40 µs
 * per node on a 1M-quad store, so a full answer stays near 10 ms. A caller may ask for up to `maxNodesLimit` nodes
 * per page and a time budget up to `maxTimeBudgetMs`.
 */
export const LINEAGE_LIMITS = {
  defaultDepth: 1,
  maxDepth: 6,
  maxNodes: 250,
  maxNodesLimit: 2000,
  edgesPerNode: 4,
  timeBudgetMs: 2000,
  maxTimeBudgetMs: 10_000,
} as const;

const DIRECTIONS: readonly LineageDirection[] = ['up', 'down', 'both'];

/** The query parameters of a lineage request. */
export type LineageParams = Partial<
  Record<
    'direction' | 'depth' | 'max_nodes' | 'max_edges' | 'time_budget_ms' | 'as_of' | 'collapse' | 'cursor',
    string
  >
>;

/** A whole number parameter clamped into its range; not a whole number is a 400 naming it. */
function wholeNumber(
  name: string,
  value: string | undefined,
  fallback: number,
  min: number,
  max: number,
): number {
  if (value === undefined || value === '') return fallback;
  if (!/^-?\d+$/.test(value)) {
    const message = `${name} must be a whole number ${min}–${max}, got "${value}"`;
    throw new BadRequestError(message, { errors: [{ field: name, message }] });
  }
  return Math.min(max, Math.max(min, Number(value)));
}

/**
 * Reads `direction` (default both; anything else is a 400), `depth` (default 1), `max_nodes` (default 250, up to
 * 2000), `max_edges` (default four per node), `time_budget_ms` (default 2000, up to 10000) — whole numbers outside
 * their range are clamped into it, as list sizes are — `as_of` (a timestamp), `collapse` (`datasets` or true) and
 * `cursor`.
 */
export function lineageOptions(params: LineageParams): LineageOptions {
  const way = params.direction === undefined || params.direction === '' ? 'both' : params.direction;
  if (!(DIRECTIONS as readonly string[]).includes(way))
    throw new BadRequestError(`direction must be one of ${DIRECTIONS.join(', ')}, got "${way}"`);
  const depth = wholeNumber('depth', params.depth, LINEAGE_LIMITS.defaultDepth, 1, LINEAGE_LIMITS.maxDepth);
  const maxNodes = wholeNumber(
    'max_nodes',
    params.max_nodes,
    LINEAGE_LIMITS.maxNodes,
    2,
    LINEAGE_LIMITS.maxNodesLimit,
  );
  const maxEdges = wholeNumber(
    'max_edges',
    params.max_edges,
    maxNodes * LINEAGE_LIMITS.edgesPerNode,
    2,
    LINEAGE_LIMITS.maxNodesLimit * LINEAGE_LIMITS.edgesPerNode,
  );
  const timeBudgetMs = wholeNumber(
    'time_budget_ms',
    params.time_budget_ms,
    LINEAGE_LIMITS.timeBudgetMs,
    1,
    LINEAGE_LIMITS.maxTimeBudgetMs,
  );
  let asOf: string | undefined;
  if (params.as_of !== undefined && params.as_of !== '') {
    const time = /^\d{4}-\d{2}-\d{2}(T|$)/.test(params.as_of) ? Date.parse(params.as_of) : NaN;
    if (Number.isNaN(time)) {
      const message = `as_of must be a timestamp such as 2026-01-31T12:00:00Z, got "${params.as_of}"`;
      throw new BadRequestError(message, { errors: [{ field: 'as_of', message }] });
    }
    asOf = new Date(time).toISOString();
  }
  const collapse = params.collapse === 'datasets' || params.collapse === 'true' || params.collapse === '1';
  if (params.collapse !== undefined && params.collapse !== '' && !collapse && params.collapse !== 'false') {
    const message = `collapse must be datasets (or true, false), got "${params.collapse}"`;
    throw new BadRequestError(message, { errors: [{ field: 'collapse', message }] });
  }
  const cursor = params.cursor === undefined || params.cursor === '' ? undefined : params.cursor;
  return {
    direction: way as LineageDirection,
    depth,
    maxNodes,
    maxEdges,
    timeBudgetMs,
    asOf,
    collapse,
    cursor,
  };
}

const P = {
  generatedBy: PROV('wasGeneratedBy'),
  used: PROV('used'),
  derivedFrom: PROV('wasDerivedFrom'),
  revisionOf: PROV('wasRevisionOf'),
};

type Way = 'up' | 'down';

/**
 * Runs a SELECT whose solutions come back packed in one string, a line per solution with its fields split by
 * spaces: for hundreds of solutions this is far cheaper than SPARQL JSON. Only IRIs (which hold no spaces or line
 * breaks), fixed words and URI-encoded text may be packed. `line` is the expression of one line. With `offset`,
 * the lines are taken in order from that position (a stable page of a larger answer).
 */
export async function packedRows(
  core: Core,
  line: string,
  where: string,
  limit: number,
  offset?: number,
): Promise<string[][]> {
  const page = offset === undefined ? `LIMIT ${limit}` : `ORDER BY ?line LIMIT ${limit} OFFSET ${offset}`;
  const rows = await core.graph.select(
    `SELECT (GROUP_CONCAT(?line; SEPARATOR="\\n") AS ?lines) WHERE {
       SELECT DISTINCT ?line WHERE { ${where} BIND(${line} AS ?line) } ${page} }`,
  );
  const text = rows[0]?.lines?.value ?? '';
  return text === '' ? [] : text.split('\n').map((packed) => packed.split(' '));
}

/** A pattern leaving out `variable` when the registry recorded it after `asOf`. */
function recordedBy(variable: string, asOf: string | undefined): string {
  if (asOf === undefined) return '';
  return `FILTER NOT EXISTS { GRAPH ?t_${variable} { ?${variable} <${DCT('created')}> ?c_${variable} }
    FILTER(?c_${variable} > "${asOf}"^^<${XSD('dateTime')}>) }`;
}

/**
 * One breadth-first step from the frontiers of artifacts: from the lineage index when it is complete (SQLite
 * lookups, no query), else both ways in one query (every query to the index costs a round trip). Each row is one
 * link: the way, the frontier artifact, what links it, the run in between (for used and generated, else empty)
 * and the artifact reached (empty when the run used or generated nothing else). With
 * `asOf`, runs and artifacts recorded after it are left out. `offset` takes a stable page of the step's rows.
 * A store that answers queries side by side is asked each way at once instead, unless a page of the ordered rows
 * is wanted: `limit` then bounds each way, and the caller reads more rows than it can take as not whole.
 */
async function step(
  core: Core,
  frontiers: readonly (readonly [Way, readonly string[]])[],
  limit: number,
  asOf: string | undefined,
  offset?: number,
): Promise<string[][]> {
  if (lineageIndexReady(core.db))
    return lineageStepLines(core.db, frontiers, limit, asOf, offset).map((line) => line.split(' '));
  if (frontiers.length > 1 && offset === undefined && core.graph.answersSideBySide) {
    const ways = await Promise.all(frontiers.map((frontier) => step(core, [frontier], limit, asOf)));
    return ways.flat();
  }
  const branches: string[] = [];
  const run = recordedBy('run', asOf);
  const x = recordedBy('x', asOf);
  for (const [way, frontier] of frontiers) {
    // VALUES sits inside the first GRAPH block of each branch, so oxigraph looks the frontier up by index.
    const values = `${valuesBlock('a', frontier)} BIND("${way}" AS ?w)`;
    if (way === 'up')
      branches.push(
        `GRAPH ?g { ${values} ?a <${P.generatedBy}> ?run } ${run} OPTIONAL { GRAPH ?g2 { ?run <${P.used}> ?x } ${x} } BIND("generated" AS ?p)`,
        `GRAPH ?g { ${values} ?a <${P.derivedFrom}> ?x } ${x} BIND("derivedFrom" AS ?p)`,
        `GRAPH ?g { ${values} ?a <${P.revisionOf}> ?x } ${x} BIND("revisionOf" AS ?p)`,
      );
    else
      branches.push(
        `GRAPH ?g { ${values} ?run <${P.used}> ?a } ${run} OPTIONAL { GRAPH ?g2 { ?x <${P.generatedBy}> ?run } ${x} } BIND("used" AS ?p)`,
        `GRAPH ?g { ${values} ?x <${P.derivedFrom}> ?a } ${x} BIND("derivedFrom" AS ?p)`,
        `GRAPH ?g { ${values} ?x <${P.revisionOf}> ?a } ${x} BIND("revisionOf" AS ?p)`,
      );
  }
  return packedRows(
    core,
    'CONCAT(?w, " ", STR(?a), " ", ?p, " ", COALESCE(STR(?run), ""), " ", COALESCE(STR(?x), ""))',
    branches.map((branch) => `{ ${branch} }`).join(' UNION '),
    limit,
    offset,
  );
}

/** The edges a step row stands for, oriented as PROV states them. */
function edgesOf(row: readonly string[]): LineageEdge[] {
  const [way, a = '', p, run = '', x = ''] = row;
  if (p === 'derivedFrom' || p === 'revisionOf')
    return x === ''
      ? []
      : [way === 'up' ? { from: a, to: x, predicate: p } : { from: x, to: a, predicate: p }];
  if (run === '') return [];
  // Up: the run generated `a` and used `x`. Down: the run used `a` and generated `x`.
  const [first, second]: LineagePredicate[] = way === 'up' ? ['generated', 'used'] : ['used', 'generated'];
  const edges: LineageEdge[] = [{ from: run, to: a, predicate: first! }];
  if (x !== '') edges.push({ from: run, to: x, predicate: second! });
  return edges;
}

/**
 * Working state of one traversal, kept between the pages of a partial answer: where each node was first met, the
 * runs among them, which way each artifact was followed, and where the walk stands (the level, the frontier of
 * each way at that level, and how many of the level's rows were taken).
 */
interface Walk {
  readonly depths: Map<string, number>;
  /** Nodes met as the run between two generations. */
  readonly runs: Set<string>;
  readonly expanded: Record<Way, Set<string>>;
  level: number;
  frontiers: Record<Way, string[]>;
  /** The slice of the current level's frontiers being read (`FRONTIER_SLICE` artifacts each way per slice). */
  slice: number;
  /** Rows of the current slice already taken (its rows are ordered when it spans pages). */
  rowOffset: number;
  /** Artifacts reached so far at the current level, each way: the next level's frontier. */
  next: Record<Way, string[]>;
}

/** What one page adds: nodes new to the walk and the edges met. */
interface Page {
  readonly nodes: Set<string>;
  readonly edges: Map<string, LineageEdge>;
}

/**
 * Takes the nodes and edges of one step row into the walk; artifacts reached join that way's next frontier.
 * Returns false, taking nothing, when the row would pass the page's budgets.
 */
function takeRow(walk: Walk, page: Page, row: readonly string[], options: LineageOptions): boolean {
  const run = row[3];
  const way: Way = row[0] === 'down' ? 'down' : 'up';
  const edges = edgesOf(row);
  const fresh = new Set(
    edges.flatMap((edge) => [edge.from, edge.to]).filter((node) => !walk.depths.has(node)),
  );
  if (page.nodes.size + fresh.size > options.maxNodes || page.edges.size + edges.length > options.maxEdges)
    return false;
  for (const edge of edges) {
    for (const node of [edge.from, edge.to]) {
      if (!walk.depths.has(node)) {
        walk.depths.set(node, walk.level);
        page.nodes.add(node);
      }
      // Runs sit between generations; only artifacts (and unknown IRIs) are followed further.
      if (node === run) walk.runs.add(node);
      else if (!walk.expanded[way].has(node)) {
        walk.expanded[way].add(node);
        walk.next[way].push(node);
      }
    }
    page.edges.set(`${edge.from} ${edge.predicate} ${edge.to}`, edge);
  }
  return true;
}

/** Compares as SPARQL orders simple literals: by code point. */
const byCodePoint = (a: string, b: string): number => Buffer.compare(Buffer.from(a), Buffer.from(b));

/** Step rows in the order `ORDER BY ?line` gives them. */
function inLineOrder(rows: readonly string[][]): string[][] {
  return rows
    .map((row) => ({ row, line: row.join(' ') }))
    .sort((a, b) => byCodePoint(a.line, b.line))
    .map(({ row }) => row);
}

/** Rows fetched per step at most, whatever the budgets. */
const MAX_STEP_ROWS = 2 * LINEAGE_LIMITS.maxNodesLimit + 2;

/**
 * Frontier artifacts one step looks up each way at most. A wide level (one version read by thousands of runs) is
 * read a slice at a time, so that no single query outlasts the page's time budget: the clock is read between
 * slices, and a page that stops there is continued from the next slice.
 */
const FRONTIER_SLICE = 256;

/**
 * Follows lineage a generation per step, both ways at once, until the depth, a budget or the clock says stop.
 * Returns true when the walk is complete, false when it stopped with more to give (the walk then holds where to
 * continue).
 */
async function follow(
  core: Core,
  walk: Walk,
  page: Page,
  options: LineageOptions,
  started: number,
): Promise<boolean> {
  const ways: Way[] = ['up', 'down'];
  // A page always takes one step, so that the walk moves on; after that the clock may end it, even with nothing
  // found yet (slices of a wide level that lead nowhere), rather than let it outlast its budget.
  let stepped = false;
  // How long the last step took: a step that would likely end past the budget is not started.
  let lastStepMs = 0;
  while (walk.level <= options.depth) {
    const from = walk.slice * FRONTIER_SLICE;
    const frontiers = ways
      .map((way) => [way, walk.frontiers[way].slice(from, from + FRONTIER_SLICE)] as const)
      .filter(([, frontier]) => frontier.length > 0);
    if (frontiers.length === 0) {
      // Every slice of the level was read (or the level is empty: the walk is complete).
      if (walk.slice === 0) return true;
      walk.level++;
      walk.slice = 0;
      walk.rowOffset = 0;
      walk.frontiers = walk.next;
      walk.next = { up: [], down: [] };
      continue;
    }
    const spent = Date.now() - started;
    if (spent + lastStepMs > options.timeBudgetMs && (page.nodes.size > 0 || stepped)) return false;
    stepped = true;
    const stepStarted = Date.now();
    // A row adds at most two nodes and two edges: rows beyond what the room left could take are not fetched.
    const room = Math.min(
      MAX_STEP_ROWS,
      Math.max(1, Math.min(options.maxNodes - page.nodes.size, options.maxEdges - page.edges.size)) + 1,
    );
    // The common case reads a whole slice in one unordered query; its rows are then taken in the order an ordered
    // read would give them, so that a slice the budgets cut is continued from the same place by an ordered read.
    const first = walk.rowOffset === 0 ? await step(core, frontiers, room + 1, options.asOf) : undefined;
    const whole = first !== undefined && first.length <= room;
    const rows = whole ? inLineOrder(first) : await step(core, frontiers, room, options.asOf, walk.rowOffset);
    lastStepMs = Date.now() - stepStarted;
    let taken = 0;
    for (const row of rows) {
      if (!takeRow(walk, page, row, options)) break;
      taken++;
    }
    const sliceDone = taken === rows.length && (whole || rows.length < room);
    if (!sliceDone) {
      walk.rowOffset += taken;
      return false;
    }
    walk.slice++;
    walk.rowOffset = 0;
  }
  return true;
}
/**
 * Describes the nodes (from the lineage index, or in one query): kind, title and graph of those the registry holds
 * (its own graph first).
 */
async function describeNodes(core: Core, walk: Walk, iris: ReadonlySet<string>): Promise<LineageNode[]> {
  // Nodes met as the run between two generations are looked up as runs, all others as artifacts: one type
  // lookup per node. VALUES inside the GRAPH block and the OPTIONALs outside it keep every part an index lookup.
  const kinds = [
    ['artifact', [...iris].filter((iri) => !walk.runs.has(iri)), ARTIFACT.types[0]!, DCT('title')],
    ['run', [...iris].filter((iri) => walk.runs.has(iri)), RUN.types[0]!, RDFS('label')],
  ] as const;
  const rows = lineageIndexReady(core.db)
    ? lineageNodeRows(core.db, kinds[0][1], kinds[1][1])
    : await describeByQuery(core, kinds);
  // This registry's own copy wins over a peer's cached one.
  const held = new Map<string, { kind: string; graph: string; title: string }>();
  for (const row of rows) if (!held.has(row.iri) || row.graph === GRAPHS.local) held.set(row.iri, row);
  const nodes: LineageNode[] = [];
  for (const iri of iris) {
    const depth = walk.depths.get(iri) ?? 0;
    const row = held.get(iri);
    if (row === undefined) {
      nodes.push({
        iri,
        entity_type: 'unknown',
        origin: unresolvedOrigin(core, iri),
        depth,
        unresolved: true,
      });
      continue;
    }
    nodes.push({
      iri,
      entity_type: row.kind === 'run' ? 'run' : 'artifact',
      ...(row.title === '' ? {} : { title: row.title }),
      origin: originOf(row.graph, core, iri),
      depth,
    });
  }
  return nodes.sort((a, b) => a.depth - b.depth || a.iri.localeCompare(b.iri));
}

/** What the query index says of lineage nodes of each kind: the graphs that type them, with a title there. */
async function describeByQuery(
  core: Core,
  kinds: readonly (readonly [string, readonly string[], string, string])[],
): Promise<{ iri: string; kind: string; graph: string; title: string }[]> {
  const branches = kinds
    .filter(([, iris]) => iris.length > 0)
    .map(
      ([kind, iris, type, title]) =>
        `{ GRAPH ?g { ${valuesBlock('n', iris)} ?n a <${type}> } BIND("${kind}" AS ?k)
           OPTIONAL { GRAPH ?g { ?n <${title}> ?title } } }`,
    );
  const rows = await packedRows(
    core,
    'CONCAT(STR(?n), " ", ?k, " ", STR(?g), " ", COALESCE(ENCODE_FOR_URI(?title), ""))',
    branches.join(' UNION '),
    4 * kinds.reduce((sum, [, iris]) => sum + iris.length, 0) + 8,
  );
  return rows.map(([iri = '', kind = '', graph = '', title = '']) => ({
    iri,
    kind,
    graph,
    title: decodeURIComponent(title),
  }));
}

/** Partial walks waiting for their next page, by cursor; a cursor lives ten minutes. */
const PENDING = new WeakMap<Core, Map<string, { walk: Walk; root: string; options: string; at: number }>>();
const CURSOR_LIFE_MS = 10 * 60_000;
const MAX_PENDING = 1000;

/** What must be the same for a cursor to continue a walk. */
const sameWalk = (options: LineageOptions): string =>
  JSON.stringify([options.direction, options.depth, options.asOf ?? null]);

function pendingOf(core: Core): Map<string, { walk: Walk; root: string; options: string; at: number }> {
  let pending = PENDING.get(core);
  if (pending === undefined) {
    pending = new Map();
    PENDING.set(core, pending);
  }
  const now = Date.now();
  for (const [cursor, entry] of pending) if (now - entry.at > CURSOR_LIFE_MS) pending.delete(cursor);
  return pending;
}

/**
 * `GET /api/v1/artifacts/{id}/lineage`: the artifact's lineage up, down or both ways to `depth` generations
 * (404 for an artifact the registry does not hold). Foreign IRIs the registry holds nothing about are nodes
 * marked `unresolved`. An answer holds at most `max_nodes` nodes and `max_edges` edges and stops once its time
 * budget is spent: it is then `partial`, with a `cursor` whose next page holds what was not given yet (the pages
 * together are the whole lineage). `as_of` answers lineage as the registry had recorded it then; `collapse`
 * shows versions as the dataset they belong to.
 */
export async function lineage(core: Core, id: string, options: LineageOptions): Promise<Lineage> {
  const root = iriOf(core, 'artifact', id);
  if (options.cursor !== undefined) return continueLineage(core, root, options);
  const key = `lineage ${root} ${JSON.stringify(options)}`;
  return memoised(core, key, async () => {
    // Whether the root may be read is asked beside the walk's first step (each is a round trip to an external
    // store); the walk's answer is given only when it may.
    const readable = requireReadable(core, ARTIFACT, root);
    const ways: Way[] = options.direction === 'both' ? ['up', 'down'] : [options.direction];
    const walk: Walk = {
      depths: new Map([[root, 0]]),
      runs: new Set(),
      expanded: { up: new Set([root]), down: new Set([root]) },
      level: 1,
      frontiers: { up: ways.includes('up') ? [root] : [], down: ways.includes('down') ? [root] : [] },
      slice: 0,
      rowOffset: 0,
      next: { up: [], down: [] },
    };
    const [, answer] = await Promise.all([readable, walkPage(core, root, walk, options, new Set([root]))]);
    return answer;
  });
}

/**
 * What came from several artifacts at once, followed down to `depth` generations with the same budgets, pages and
 * cursors as `lineage`. `key` names the walk for its cursors (it is the answer's `root`); the caller has checked
 * that the roots may be read.
 */
export async function lineageDownFrom(
  core: Core,
  key: string,
  roots: readonly string[],
  options: LineageOptions,
): Promise<Lineage> {
  const down = { ...options, direction: 'down' as const };
  if (down.cursor !== undefined) return continueLineage(core, key, down);
  const walk: Walk = {
    depths: new Map(roots.map((root) => [root, 0])),
    runs: new Set(),
    expanded: { up: new Set(), down: new Set(roots) },
    level: 1,
    frontiers: { up: [], down: [...roots] },
    slice: 0,
    rowOffset: 0,
    next: { up: [], down: [] },
  };
  return walkPage(core, key, walk, down, new Set(roots));
}

/** The next page of a partial answer. */
async function continueLineage(core: Core, root: string, options: LineageOptions): Promise<Lineage> {
  const pending = pendingOf(core);
  const entry = options.cursor === undefined ? undefined : pending.get(options.cursor);
  if (entry === undefined || entry.root !== root || entry.options !== sameWalk(options)) {
    const message =
      'cursor is not one this registry gave for this lineage (or it expired after ten minutes): ask again without it';
    throw new BadRequestError(message, { errors: [{ field: 'cursor', message }] });
  }
  // The entry stays until it expires, so a page asked for again (a retry) is answered again.
  return walkPage(core, root, cloneWalk(entry.walk), options, new Set());
}

function cloneWalk(walk: Walk): Walk {
  return {
    depths: new Map(walk.depths),
    runs: new Set(walk.runs),
    expanded: { up: new Set(walk.expanded.up), down: new Set(walk.expanded.down) },
    level: walk.level,
    frontiers: { up: [...walk.frontiers.up], down: [...walk.frontiers.down] },
    slice: walk.slice,
    rowOffset: walk.rowOffset,
    next: { up: [...walk.next.up], down: [...walk.next.down] },
  };
}

async function walkPage(
  core: Core,
  root: string,
  walk: Walk,
  options: LineageOptions,
  seed: Set<string>,
): Promise<Lineage> {
  const page: Page = { nodes: seed, edges: new Map() };
  const complete = await follow(core, walk, page, options, Date.now());
  let cursor: string | undefined;
  if (!complete) {
    const pending = pendingOf(core);
    if (pending.size >= MAX_PENDING) pending.delete(pending.keys().next().value!);
    cursor = randomUUID();
    pending.set(cursor, { walk: cloneWalk(walk), root, options: sameWalk(options), at: Date.now() });
  }
  const nodes = await describeNodes(core, walk, page.nodes);
  const edges = [...page.edges.values()];
  const answer: Lineage = {
    root,
    direction: options.direction,
    depth: options.depth,
    nodes,
    edges,
    truncated: !complete,
    partial: !complete,
    ...(cursor === undefined ? {} : { cursor }),
    ...(options.asOf === undefined ? {} : { as_of: options.asOf }),
  };
  return options.collapse ? collapseVersions(core, answer) : answer;
}

/**
 * The answer with each artifact that is a version of a dataset (an artifact series) shown as that dataset: its
 * versions listed on it, edges between them (revisions) dropped, other edges moved onto it.
 */
async function collapseVersions(core: Core, answer: Lineage): Promise<Lineage> {
  const artifacts = answer.nodes.filter((node) => node.entity_type === 'artifact').map((node) => node.iri);
  if (artifacts.length === 0) return { ...answer, collapsed: true };
  const rows = lineageIndexReady(core.db)
    ? lineageSeriesRows(core.db, artifacts)
    : await packedRows(
        core,
        'CONCAT(STR(?a), " ", STR(?s))',
        `GRAPH ?g { ${valuesBlock('a', artifacts)} ?a <${DCT('isVersionOf')}> ?s } GRAPH ?g2 { ?s a <${ARTIFACT_SERIES.types[0]!}> }`,
        2 * artifacts.length + 2,
      );
  const seriesOf = new Map<string, string>();
  for (const [artifact = '', series = ''] of rows)
    if (!seriesOf.has(artifact)) seriesOf.set(artifact, series);
  const mapped = (iri: string): string => seriesOf.get(iri) ?? iri;
  const nodes = new Map<string, LineageNode>();
  for (const node of answer.nodes) {
    const series = seriesOf.get(node.iri);
    if (series === undefined) {
      nodes.set(node.iri, node);
      continue;
    }
    const held = nodes.get(series);
    nodes.set(series, {
      iri: series,
      entity_type: 'dataset',
      ...(node.title === undefined
        ? held?.title === undefined
          ? {}
          : { title: held.title }
        : { title: node.title }),
      origin: held?.origin ?? node.origin,
      depth: Math.min(node.depth, held?.depth ?? node.depth),
      versions: [...(held?.versions ?? []), node.iri].sort(),
    });
  }
  const edges = new Map<string, LineageEdge>();
  for (const edge of answer.edges) {
    const from = mapped(edge.from);
    const to = mapped(edge.to);
    if (from === to) continue;
    edges.set(`${from} ${edge.predicate} ${to}`, { from, to, predicate: edge.predicate });
  }
  return { ...answer, nodes: [...nodes.values()], edges: [...edges.values()], collapsed: true };
}
