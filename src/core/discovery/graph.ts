/**
 * The graph around any node: the statements of this registry's own graph that link the node to other IRIs,
 * followed breadth first for a few steps, as nodes and edges. Literal values and `rdf:type` are not edges; types
 * and titles describe the nodes instead (read from every graph, so bundled vocabulary terms carry their labels).
 */
import { BadRequestError, NotFoundError } from '../errors.js';
import { DCAT, DCT, GRAPHS, PREFIXES, PROV, RDF, RDFS, REG, SCHEMA, SKOS, SPDX } from '../ns.js';
import { kindOfTypes } from '../records/kinds.js';
import { isAbsoluteIri, type JsonObject } from '../records/mapper.js';
import type { Core } from '../core.js';
import { packedRows } from '../provenance/lineage.js';
import { memoised } from '../stored/memoised.js';
import { originOf } from '../stored/records.js';
import { unresolvedOrigin, valuesBlock } from '../provenance/runs.js';
import { lineageIndexReady } from '../store/lineage/lineage-index.js';
import { describeFromRecords, graphStepFromIndex, type Described } from './graph-index.js';

/** Depth bounds, and the caps that keep an answer small whatever the graph holds. */
export const GRAPH_LIMITS = { defaultDepth: 1, maxDepth: 4, maxNodes: 250, maxEdges: 1000 } as const;

/** What to draw: the node at the centre and how many steps to follow. */
export interface GraphOptions {
  readonly iri: string;
  readonly depth: number;
}

/** One node: a record, a part of one, a vocabulary term, or an IRI the registry holds nothing about. */
export interface GraphNode {
  readonly iri: string;
  readonly entity_type: string;
  readonly title?: string;
  readonly origin: JsonObject;
  /** Steps from the centre. */
  readonly depth: number;
  readonly tombstoned?: true;
  readonly unresolved?: true;
}

/** One statement between two nodes; `label` is the predicate in prefixed form. */
export interface GraphEdge {
  readonly from: string;
  readonly to: string;
  readonly predicate: string;
  readonly label: string;
}

/** The subgraph; `truncated` when a cap left nodes or edges out. */
export interface GraphView {
  readonly root: string;
  readonly depth: number;
  readonly nodes: GraphNode[];
  readonly edges: GraphEdge[];
  readonly truncated: boolean;
}

/**
 * Reads `iri` (required, absolute) and `depth` (default 1; not a whole number is a 400; a whole number outside
 * 1–4 is clamped into it).
 */
export function graphOptions(iri?: string, depth?: string): GraphOptions {
  if (iri === undefined || iri.trim() === '')
    throw new BadRequestError('iri is required: the IRI of the node to centre the graph on');
  if (!isAbsoluteIri(iri.trim())) throw new BadRequestError(`iri must be an absolute IRI, got "${iri}"`);
  let steps: number = GRAPH_LIMITS.defaultDepth;
  if (depth !== undefined && depth !== '') {
    if (!/^-?\d+$/.test(depth)) throw new BadRequestError(`depth must be a whole number 1–4, got "${depth}"`);
    steps = Math.min(GRAPH_LIMITS.maxDepth, Math.max(1, Number(depth)));
  }
  return { iri: iri.trim(), depth: steps };
}

/** Classes that name what a node is, beyond the record kinds. */
const PART_KINDS: ReadonlyMap<string, string> = new Map([
  [REG('Capability'), 'capability'],
  [DCAT('Distribution'), 'distribution'],
  [SPDX('Checksum'), 'checksum'],
  [REG('Download'), 'download'],
  [REG('ApiDescription'), 'api-description'],
  [REG('RepositorySync'), 'repository-sync'],
  [REG('ArtifactSeries'), 'artifact-series'],
  [PROV('Attribution'), 'attribution'],
  [PROV('Agent'), 'agent'],
  [SKOS('Concept'), 'concept'],
]);

/** Predicates a node's title is read from, best first. */
const TITLES = [SCHEMA('name'), DCT('title'), RDFS('label'), SKOS('prefLabel'), SCHEMA('softwareVersion')];

/**
 * `GET /api/v1/graph`: the nodes within `depth` steps of `iri` in this registry's graph and the edges between
 * them, at most `GRAPH_LIMITS.maxNodes` nodes and `maxEdges` edges (`truncated` says when more were reachable).
 * A node the registry holds nothing about, with no edge either, is a 404.
 */
export async function graphAround(core: Core, options: GraphOptions): Promise<GraphView> {
  return memoised(core, `graph ${options.iri} ${options.depth}`, async () => {
    const depths = new Map([[options.iri, 0]]);
    const edges = new Map<string, GraphEdge>();
    let frontier = [options.iri];
    let truncated = false;
    for (let level = 1; level <= options.depth && frontier.length > 0; level++) {
      const room = GRAPH_LIMITS.maxEdges - edges.size;
      const rows = await step(core, frontier, room + 1);
      if (rows.length > room) truncated = true;
      const next: string[] = [];
      for (const [way, node = '', predicate = '', other = ''] of rows.slice(0, room)) {
        if (!depths.has(other)) {
          if (depths.size >= GRAPH_LIMITS.maxNodes) {
            truncated = true;
            continue;
          }
          depths.set(other, level);
          next.push(other);
        }
        const [from, to] = way === 'out' ? [node, other] : [other, node];
        edges.set(`${from} ${predicate} ${to}`, { from, to, predicate, label: compactIri(predicate) });
      }
      frontier = next;
    }
    const nodes = await describeNodes(core, depths);
    const root = nodes.find((node) => node.iri === options.iri);
    if (edges.size === 0 && root?.unresolved === true)
      throw new NotFoundError(`the registry holds nothing about ${options.iri}`);
    return { root: options.iri, depth: options.depth, nodes, edges: [...edges.values()], truncated };
  });
}

/**
 * One breadth-first step: statements of the local graph from or to the frontier whose other end is an IRI, from
 * the lineage index when it is complete, else by a query.
 */
async function step(core: Core, frontier: readonly string[], limit: number): Promise<string[][]> {
  if (lineageIndexReady(core.db)) return graphStepFromIndex(core, frontier, limit);
  const notType = `FILTER(isIRI(?x) && ?p != <${RDF('type')}>)`;
  const values = valuesBlock('a', frontier);
  return packedRows(
    core,
    'CONCAT(?d, " ", STR(?a), " ", STR(?p), " ", STR(?x))',
    `{ GRAPH <${GRAPHS.local}> { ${values} ?a ?p ?x } ${notType} BIND("out" AS ?d) } UNION
     { GRAPH <${GRAPHS.local}> { ${values} ?x ?p ?a } ${notType} BIND("in" AS ?d) }`,
    limit,
  );
}

/**
 * Describes the nodes from every graph, this registry's own copy winning over any other: from the records and
 * bundled terms when the lineage index is complete (the reads of the graph view then leave the query index alone),
 * else in one query.
 */
async function describeNodes(core: Core, depths: ReadonlyMap<string, number>): Promise<GraphNode[]> {
  const found = lineageIndexReady(core.db)
    ? await describeFromRecords(core, [...depths.keys()], TITLES)
    : await describeByQuery(core, depths.keys());
  const nodes: GraphNode[] = [];
  for (const [iri, depth] of depths) {
    const node = found.get(iri);
    if (node === undefined || node.graph === undefined) {
      nodes.push({
        iri,
        entity_type: 'unknown',
        origin: unresolvedOrigin(core, iri),
        depth,
        unresolved: true,
      });
      continue;
    }
    const title = TITLES.map((predicate) => node.titles.get(predicate)).find((text) => text !== undefined);
    nodes.push({
      iri,
      entity_type: kindOf(node.types),
      ...(title === undefined ? {} : { title }),
      origin: originOf(node.graph),
      depth,
      ...(node.tombstoned ? { tombstoned: true as const } : {}),
    });
  }
  return nodes.sort((a, b) => a.depth - b.depth || a.iri.localeCompare(b.iri));
}

/** What one query over every graph finds about the nodes: this registry's own copy wins over any other. */
async function describeByQuery(core: Core, iris: Iterable<string>): Promise<Map<string, Described>> {
  const values = valuesBlock('n', iris);
  const rows = await core.graph.select(
    `SELECT ?n ?g ?t ?tp ?title ?tomb WHERE {
       { GRAPH ?g { ${values} ?n a ?t } } UNION
       { GRAPH ?g { ${values} ?n ?tp ?title } FILTER(?tp IN (${TITLES.map((p) => `<${p}>`).join(', ')})) } UNION
       { GRAPH ?g { ${values} ?n <${REG('tombstoned')}> ?tomb } }
     }`,
  );
  const found = new Map<string, Described>();
  for (const row of rows) {
    const iri = row.n?.value;
    const graph = row.g?.value;
    if (iri === undefined || graph === undefined) continue;
    const node: Described = found.get(iri) ?? { types: new Set(), titles: new Map(), tombstoned: false };
    found.set(iri, node);
    if (node.graph === undefined || graph === GRAPHS.local) node.graph = graph;
    if (row.t !== undefined) node.types.add(row.t.value);
    if (row.tp !== undefined && row.title !== undefined) {
      if (!node.titles.has(row.tp.value) || graph === GRAPHS.local)
        node.titles.set(row.tp.value, row.title.value);
    }
    if (row.tomb?.value === 'true') node.tombstoned = true;
  }
  return found;
}

function kindOf(types: ReadonlySet<string>): string {
  const record = kindOfTypes(types);
  if (record !== null) return record;
  for (const [type, kind] of PART_KINDS) if (types.has(type)) return kind;
  return types.size === 0 ? 'unknown' : 'resource';
}

/** An IRI as a prefixed name when one of the registry's namespaces covers it (the longest wins). */
export function compactIri(iri: string): string {
  let best: [string, string] | undefined;
  for (const [prefix, namespace] of Object.entries(PREFIXES)) {
    if (iri.startsWith(namespace) && (best === undefined || namespace.length > best[1].length))
      best = [prefix, namespace];
  }
  return best === undefined ? iri : `${best[0]}:${iri.slice(best[1].length)}`;
}
