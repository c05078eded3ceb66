/**
 * Reads lineage from the registry and turns each answer into a fragment of the picture: an artifact's lineage
 * (`/artifacts/{id}/lineage`), a run's inputs and outputs (`/runs/{id}`), and for an IRI held elsewhere the
 * PROV statements of this registry that mention it (`/graph?iri=`).
 */
import {
  api,
  idOf,
  type ArtifactRefJson,
  type GraphAnswer,
  type GraphNode,
  type LineageAnswer,
  type LineageNode,
  type RunJson,
} from '../api';
import {
  type Fragment,
  type PictureEdge,
  type PictureNode,
  type LineageState,
  type NodeKind,
  type Relation,
  isHeldHere,
} from './model';

export type Direction = 'up' | 'down' | 'both';

const PROV = 'http://www.w3.org/ns/prov#';
const PROV_RELATIONS: ReadonlyMap<string, Relation> = new Map([
  [`${PROV}used`, 'used'],
  [`${PROV}wasGeneratedBy`, 'wasGeneratedBy'],
  [`${PROV}wasDerivedFrom`, 'wasDerivedFrom'],
  [`${PROV}wasRevisionOf`, 'wasRevisionOf'],
]);

function kindOf(entityType: string): NodeKind {
  return entityType === 'artifact' || entityType === 'run' ? entityType : 'unknown';
}

function nodeOf(node: LineageNode | GraphNode): PictureNode {
  return {
    iri: node.iri,
    kind: kindOf(node.entity_type),
    ...(node.title === undefined ? {} : { title: node.title }),
    ...(node.origin === undefined ? {} : { origin: node.origin }),
    unresolved: node.unresolved === true,
  };
}

/** A lineage edge as PROV states it: `generated` (run → output) reads the other way round. */
function edgeOf(edge: { from: string; to: string; predicate: string }): PictureEdge | undefined {
  switch (edge.predicate) {
    case 'used':
      return { subject: edge.from, relation: 'used', object: edge.to };
    case 'generated':
      return { subject: edge.to, relation: 'wasGeneratedBy', object: edge.from };
    case 'derivedFrom':
      return { subject: edge.from, relation: 'wasDerivedFrom', object: edge.to };
    case 'revisionOf':
      return { subject: edge.from, relation: 'wasRevisionOf', object: edge.to };
    default:
      return undefined;
  }
}

/** An artifact's lineage; artifacts short of the requested depth had their neighbourhood fetched with it. */
export function fragmentOfLineage(lineage: LineageAnswer, depth: number): Fragment {
  return {
    nodes: lineage.nodes.map(nodeOf),
    edges: lineage.edges.map(edgeOf).filter((edge) => edge !== undefined),
    fetched: lineage.nodes
      .filter((node) => node.entity_type === 'artifact' && node.depth < depth)
      .map((node) => node.iri),
    truncated: lineage.truncated,
  };
}

/** A run with what it used (upstream) and generated (downstream), as far as `direction` asks. */
export function fragmentOfRun(run: RunJson, direction: Direction = 'both'): Fragment {
  const nodes: PictureNode[] = [
    {
      iri: run.iri,
      kind: 'run',
      ...(run.label === undefined ? {} : { title: run.label }),
      ...(run.origin === undefined ? {} : { origin: run.origin }),
      unresolved: false,
    },
  ];
  const edges: PictureEdge[] = [];
  const link = (item: ArtifactRefJson): PictureNode => ({
    iri: item.iri,
    kind: item.unresolved === true ? 'unknown' : 'artifact',
    ...(item.title === undefined ? {} : { title: item.title }),
    ...(item.origin === undefined ? {} : { origin: item.origin }),
    unresolved: item.unresolved === true,
  });
  if (direction !== 'down')
    for (const item of run.used ?? []) {
      nodes.push(link(item));
      edges.push({ subject: run.iri, relation: 'used', object: item.iri });
    }
  if (direction !== 'up')
    for (const item of run.generated ?? []) {
      nodes.push(link(item));
      edges.push({ subject: item.iri, relation: 'wasGeneratedBy', object: run.iri });
    }
  return { nodes, edges, fetched: direction === 'both' ? [run.iri] : [], truncated: false };
}

/** The PROV statements of the graph view around an IRI; other statements are left out. */
export function fragmentOfGraph(view: GraphAnswer, centre: string): Fragment {
  const edges: PictureEdge[] = [];
  for (const edge of view.edges) {
    const relation = PROV_RELATIONS.get(edge.predicate);
    if (relation !== undefined) edges.push({ subject: edge.from, relation, object: edge.to });
  }
  const touched = new Set(edges.flatMap((edge) => [edge.subject, edge.object]));
  return {
    nodes: view.nodes.filter((node) => touched.has(node.iri)).map(nodeOf),
    edges,
    fetched: [centre],
    truncated: view.truncated,
  };
}

export function loadLineage(id: string, direction: Direction, depth: number): Promise<LineageAnswer> {
  return api.get<LineageAnswer>(`/api/v1/artifacts/${encodeURIComponent(id)}/lineage`, { direction, depth });
}

export function loadRun(id: string): Promise<RunJson> {
  return api.get<RunJson>(`/api/v1/runs/${encodeURIComponent(id)}`);
}

/** At most this many artifacts around a run are followed further when a run's picture asks for more depth. */
const RUN_FAN_OUT = 24;

/** The picture around a run: the run, its inputs and outputs, and (for depth > 1) their own lineage. */
export async function runPicture(run: RunJson, direction: Direction, depth: number): Promise<Fragment[]> {
  const first = fragmentOfRun(run, direction);
  if (depth <= 1) return [first];
  const further: Promise<Fragment>[] = [];
  let skipped = false;
  const follow = (items: readonly ArtifactRefJson[] | undefined, way: 'up' | 'down') => {
    for (const item of items ?? []) {
      // Only this registry's artifacts have a lineage to follow.
      if (item.unresolved === true || (item.origin?.kind ?? 'local') !== 'local') continue;
      if (further.length >= RUN_FAN_OUT) skipped = true;
      else
        further.push(
          loadLineage(idOf(item.iri), way, depth - 1).then((l) => fragmentOfLineage(l, depth - 1)),
        );
    }
  };
  if (direction !== 'down') follow(run.used, 'up');
  if (direction !== 'up') follow(run.generated, 'down');
  const truncated = skipped ? [{ nodes: [], edges: [], fetched: [], truncated: true }] : [];
  return [first, ...(await Promise.all(further)), ...truncated];
}

/** The neighbourhood of one node, one step out: the way its kind is read. */
export async function neighbourhood(
  state: LineageState,
  iri: string,
  direction: Direction,
): Promise<Fragment> {
  const node = state.nodes.get(iri);
  if (node === undefined) return { nodes: [], edges: [], fetched: [], truncated: false };
  if (isHeldHere(node) && node.kind === 'run') return fragmentOfRun(await loadRun(idOf(iri)));
  if (isHeldHere(node) && node.kind === 'artifact') {
    const fragment = fragmentOfLineage(await loadLineage(idOf(iri), direction, 1), 1);
    return { ...fragment, fetched: [iri] };
  }
  const view = await api.get<GraphAnswer>('/api/v1/graph', { iri, depth: 1 });
  return fragmentOfGraph(view, iri);
}
