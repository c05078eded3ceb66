/**
 * Lineage of an artifact: what it came from (up) and what came from it (down), as nodes and edges, found by
 * bounded breadth-first steps of SPARQL over the query index (oxigraph has no `{n,m}` property paths). One step
 * crosses one generation of artifacts, together with the run between them: up from an artifact are its
 * generating run and that run's inputs, and what it was derived from or is a revision of; down are the runs that
 * used it and their outputs, and what was derived from or revises it.
 */
import { BadRequestError } from '../errors.js';
import { DCT, GRAPHS, PROV, RDFS } from '../ns.js';
import { ARTIFACT, RUN } from '../records/activity-specs.js';
import type { JsonObject } from '../records/mapper.js';
import type { Core } from '../core.js';

import { memoised } from '../stored/memoised.js';
import { iriOf, originOf, requireReadable } from '../stored/records.js';
import { unresolvedOrigin, valuesBlock } from './runs.js';

/** Which way lineage is followed from the artifact. */
export type LineageDirection = 'up' | 'down' | 'both';
/**
 * What an edge says, read from its `from` to its `to`: the run used or generated the artifact; the artifact was
 * derived from, or is a revision of, the other.
 */
export type LineagePredicate = 'used' | 'generated' | 'derivedFrom' | 'revisionOf';

/** How far, and which way, to follow lineage. */
export interface LineageOptions {
  readonly direction: LineageDirection;
  readonly depth: number;
}

/** One node: an artifact, a run, or an IRI the registry holds nothing about (`unresolved`). */
export interface LineageNode {
  readonly iri: string;
  readonly entity_type: 'artifact' | 'run' | 'unknown';
  readonly title?: string;
  readonly origin: JsonObject;
  readonly depth: number;
  readonly unresolved?: true;
}

/** One edge, oriented as PROV states it (run → artifact for used and generated; newer → older otherwise). */
export interface LineageEdge {
  readonly from: string;
  readonly to: string;
  readonly predicate: LineagePredicate;
}

/** The lineage of one artifact; `truncated` when a cap cut it short. */
export interface Lineage {
  readonly root: string;
  readonly direction: LineageDirection;
  readonly depth: number;
  readonly nodes: LineageNode[];
  readonly edges: LineageEdge[];
  readonly truncated: boolean;
}

/**
 * Depth bounds, and the node cap that keeps an answer small and fast whatever the graph holds: about 40 µs per node
 * on a 1M-quad store, so a full answer stays near 10 ms.
 */
export const LINEAGE_LIMITS = { defaultDepth: 1, maxDepth: 6, maxNodes: 250 } as const;

const DIRECTIONS: readonly LineageDirection[] = ['up', 'down', 'both'];

/**
 * Reads `direction` (default both; anything else is a 400) and `depth` (default 1; not a whole number is a 400;
 * a whole number outside 1–6 is clamped into it, as list sizes are).
 */
export function lineageOptions(direction?: string, depth?: string): LineageOptions {
  const way = direction === undefined || direction === '' ? 'both' : direction;
  if (!(DIRECTIONS as readonly string[]).includes(way))
    throw new BadRequestError(`direction must be one of ${DIRECTIONS.join(', ')}, got "${way}"`);
  let steps: number = LINEAGE_LIMITS.defaultDepth;
  if (depth !== undefined && depth !== '') {
    if (!/^-?\d+$/.test(depth)) throw new BadRequestError(`depth must be a whole number 1–6, got "${depth}"`);
    steps = Math.min(LINEAGE_LIMITS.maxDepth, Math.max(1, Number(depth)));
  }
  return { direction: way as LineageDirection, depth: steps };
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
 * breaks), fixed words and URI-encoded text may be packed. `line` is the expression of one line.
 */
export async function packedRows(
  core: Core,
  line: string,
  where: string,
  limit: number,
): Promise<string[][]> {
  const rows = await core.graph.select(
    `SELECT (GROUP_CONCAT(?line; SEPARATOR="\\n") AS ?lines) WHERE {
       SELECT DISTINCT ?line WHERE { ${where} BIND(${line} AS ?line) } LIMIT ${limit} }`,
  );
  const text = rows[0]?.lines?.value ?? '';
  return text === '' ? [] : text.split('\n').map((packed) => packed.split(' '));
}

/**
 * One breadth-first step from the frontiers of artifacts, both ways in one query (every query to the index costs a
 * round trip). Each row is one link: the way, the frontier artifact, what links it, the run in between (for used
 * and generated, else empty) and the artifact reached (empty when the run used or generated nothing else).
 */
async function step(
  core: Core,
  frontiers: readonly (readonly [Way, readonly string[]])[],
  limit: number,
): Promise<string[][]> {
  const branches: string[] = [];
  for (const [way, frontier] of frontiers) {
    // VALUES sits inside the first GRAPH block of each branch, so oxigraph looks the frontier up by index.
    const values = `${valuesBlock('a', frontier)} BIND("${way}" AS ?w)`;
    if (way === 'up')
      branches.push(
        `GRAPH ?g { ${values} ?a <${P.generatedBy}> ?run } OPTIONAL { GRAPH ?g2 { ?run <${P.used}> ?x } } BIND("generated" AS ?p)`,
        `GRAPH ?g { ${values} ?a <${P.derivedFrom}> ?x } BIND("derivedFrom" AS ?p)`,
        `GRAPH ?g { ${values} ?a <${P.revisionOf}> ?x } BIND("revisionOf" AS ?p)`,
      );
    else
      branches.push(
        `GRAPH ?g { ${values} ?run <${P.used}> ?a } OPTIONAL { GRAPH ?g2 { ?x <${P.generatedBy}> ?run } } BIND("used" AS ?p)`,
        `GRAPH ?g { ${values} ?x <${P.derivedFrom}> ?a } BIND("derivedFrom" AS ?p)`,
        `GRAPH ?g { ${values} ?x <${P.revisionOf}> ?a } BIND("revisionOf" AS ?p)`,
      );
  }
  return packedRows(
    core,
    'CONCAT(?w, " ", STR(?a), " ", ?p, " ", COALESCE(STR(?run), ""), " ", COALESCE(STR(?x), ""))',
    branches.map((branch) => `{ ${branch} }`).join(' UNION '),
    limit,
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

/** Working state of one traversal. */
interface Walk {
  readonly depths: Map<string, number>;
  /** Nodes met as the run between two generations. */
  readonly runs: Set<string>;
  readonly edges: Map<string, LineageEdge>;
  truncated: boolean;
}

/** Where one way of the traversal stands: the artifacts followed so far, and those to follow next. */
interface Front {
  readonly expanded: Set<string>;
  frontier: string[];
}

/** Takes the nodes and edges of one step row into the walk; artifacts reached join that way's next frontier. */
function takeRow(walk: Walk, row: readonly string[], level: number, front: Front, next: string[]): void {
  const run = row[3];
  for (const edge of edgesOf(row)) {
    for (const node of [edge.from, edge.to]) {
      if (!walk.depths.has(node)) {
        if (walk.depths.size >= LINEAGE_LIMITS.maxNodes) {
          walk.truncated = true;
          continue;
        }
        walk.depths.set(node, level);
      }
      // Runs sit between generations; only artifacts (and unknown IRIs) are followed further.
      if (node === run) walk.runs.add(node);
      else if (!front.expanded.has(node)) {
        front.expanded.add(node);
        next.push(node);
      }
    }
    if (walk.depths.has(edge.from) && walk.depths.has(edge.to))
      walk.edges.set(`${edge.from} ${edge.predicate} ${edge.to}`, edge);
  }
}

/** Follows lineage from the root, a generation per step and both ways at once, until the depth or a cap. */
async function follow(
  core: Core,
  root: string,
  ways: readonly Way[],
  depth: number,
  walk: Walk,
): Promise<void> {
  const fronts = new Map<Way, Front>(
    ways.map((way) => [way, { expanded: new Set([root]), frontier: [root] }]),
  );
  for (let level = 1; level <= depth && !walk.truncated; level++) {
    const active = [...fronts].filter(([, front]) => front.frontier.length > 0);
    if (active.length === 0) break;
    // A row adds at most two nodes; rows beyond twice the room left could only be cut off, so are not fetched.
    const room = 2 * (LINEAGE_LIMITS.maxNodes - walk.depths.size) + 2;
    const rows = await step(
      core,
      active.map(([way, front]) => [way, front.frontier] as const),
      room + 1,
    );
    if (rows.length > room) walk.truncated = true;
    const next = new Map<Way, string[]>(ways.map((way) => [way, []]));
    for (const row of rows.slice(0, room)) {
      const way: Way = row[0] === 'down' ? 'down' : 'up';
      takeRow(walk, row, level, fronts.get(way)!, next.get(way)!);
    }
    for (const [way, front] of fronts) front.frontier = next.get(way) ?? [];
  }
}

/** Describes the nodes in one query: kind, title and graph of those the registry holds (its own graph first). */
async function describeNodes(core: Core, walk: Walk): Promise<LineageNode[]> {
  // Nodes met as the run between two generations are looked up as runs, all others as artifacts: one type
  // lookup per node. VALUES inside the GRAPH block and the OPTIONALs outside it keep every part an index lookup.
  const kinds = [
    [
      'artifact',
      [...walk.depths.keys()].filter((iri) => !walk.runs.has(iri)),
      ARTIFACT.types[0]!,
      DCT('title'),
    ],
    ['run', [...walk.runs], RUN.types[0]!, RDFS('label')],
  ] as const;
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
    4 * walk.depths.size + 8,
  );
  // This registry's own copy wins over a peer's cached one.
  const held = new Map<string, { kind: string; graph: string; title: string }>();
  for (const [iri = '', kind = '', graph = '', title = ''] of rows)
    if (!held.has(iri) || graph === GRAPHS.local) held.set(iri, { kind, graph, title });
  const nodes: LineageNode[] = [];
  for (const [iri, depth] of walk.depths) {
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
      ...(row.title === '' ? {} : { title: decodeURIComponent(row.title) }),
      origin: originOf(row.graph, core, iri),
      depth,
    });
  }
  return nodes.sort((a, b) => a.depth - b.depth || a.iri.localeCompare(b.iri));
}

/**
 * `GET /api/v1/artifacts/{id}/lineage`: the artifact's lineage up, down or both ways to `depth` generations
 * (404 for an artifact the registry does not hold). Foreign IRIs the registry holds nothing about are nodes
 * marked `unresolved`; at most `LINEAGE_LIMITS.maxNodes` (250) nodes are returned, with `truncated` set when more
 * were reachable.
 */
export async function lineage(core: Core, id: string, options: LineageOptions): Promise<Lineage> {
  const root = iriOf(core, 'artifact', id);
  return memoised(core, `lineage ${root} ${options.direction} ${options.depth}`, async () => {
    await requireReadable(core, ARTIFACT, root);
    const walk: Walk = {
      depths: new Map([[root, 0]]),
      runs: new Set(),
      edges: new Map(),
      truncated: false,
    };
    const ways: Way[] = options.direction === 'both' ? ['up', 'down'] : [options.direction];
    await follow(core, root, ways, options.depth, walk);
    return {
      root,
      direction: options.direction,
      depth: options.depth,
      nodes: await describeNodes(core, walk),
      edges: [...walk.edges.values()],
      truncated: walk.truncated,
    };
  });
}
