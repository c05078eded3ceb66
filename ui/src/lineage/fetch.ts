/**
 * Reads lineage from the registry and turns each answer into a fragment of the picture: an artifact's lineage
 * (`/artifacts/{id}/lineage`, versions grouped into datasets or not, page by page), a run's inputs and outputs
 * (`/runs/{id}`), and for an IRI held elsewhere the PROV statements of this registry that mention it
 * (`/graph?iri=`).
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
  type Continuation,
  type Fragment,
  type PictureEdge,
  type PictureNode,
  type LineageState,
  type NodeKind,
  type Relation,
  isHeldHere,
  recordIri,
  shownKind,
} from './model';

export type Direction = 'up' | 'down' | 'both';

/** How the registry is asked for lineage: versions grouped into their datasets or not, and the page size. */
export interface AskOptions {
  /** Versions of one dataset as one node (`collapse=datasets`). */
  readonly datasets: boolean;
  /** Most nodes per answer (`max_nodes`); the registry's default when undefined. */
  readonly maxNodes: number | undefined;
}

const PROV = 'http://www.w3.org/ns/prov#';
const PROV_RELATIONS: ReadonlyMap<string, Relation> = new Map([
  [`${PROV}used`, 'used'],
  [`${PROV}wasGeneratedBy`, 'wasGeneratedBy'],
  [`${PROV}wasDerivedFrom`, 'wasDerivedFrom'],
  [`${PROV}wasRevisionOf`, 'wasRevisionOf'],
]);

function kindOf(entityType: string): NodeKind {
  return entityType === 'artifact' || entityType === 'run' || entityType === 'dataset'
    ? entityType
    : 'unknown';
}

function nodeOf(node: LineageNode | GraphNode): PictureNode {
  const versions = 'versions' in node ? node.versions : undefined;
  return {
    iri: node.iri,
    kind: kindOf(node.entity_type),
    ...(node.title === undefined ? {} : { title: node.title }),
    ...(node.origin === undefined ? {} : { origin: node.origin }),
    unresolved: node.unresolved === true,
    ...(versions === undefined ? {} : { versions }),
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

/**
 * One page of an artifact's lineage, asked for by `artifact` (an id); artifacts and datasets short of the requested
 * depth had their neighbourhood fetched with it. A partial answer says where it continues.
 */
export function fragmentOfLineage(lineage: LineageAnswer, artifact: string, depth: number): Fragment {
  const cursor = lineage.partial ? lineage.cursor : undefined;
  return {
    nodes: lineage.nodes.map(nodeOf),
    edges: lineage.edges.map(edgeOf).filter((edge) => edge !== undefined),
    fetched: lineage.nodes
      .filter(
        (node) => (node.entity_type === 'artifact' || node.entity_type === 'dataset') && node.depth < depth,
      )
      .map((node) => node.iri),
    // A partial answer with a cursor is continued by "load more"; one without is only cut short.
    truncated: lineage.partial ? cursor === undefined : lineage.truncated,
    ...(cursor === undefined
      ? {}
      : { more: [{ artifact, direction: lineage.direction, depth: lineage.depth, cursor }] }),
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

export function loadLineage(
  id: string,
  direction: Direction,
  depth: number,
  ask: AskOptions,
  cursor?: string,
): Promise<LineageAnswer> {
  return api.get<LineageAnswer>(`/api/v1/artifacts/${encodeURIComponent(id)}/lineage`, {
    direction,
    depth,
    collapse: ask.datasets ? 'datasets' : undefined,
    max_nodes: ask.maxNodes,
    cursor,
  });
}

/** An artifact's lineage as a fragment. */
export async function lineageFragment(
  id: string,
  direction: Direction,
  depth: number,
  ask: AskOptions,
): Promise<Fragment> {
  return fragmentOfLineage(await loadLineage(id, direction, depth, ask), id, depth);
}

/** The next page of a partial answer. */
export async function nextPage(more: Continuation, ask: AskOptions): Promise<Fragment> {
  const page = await loadLineage(more.artifact, more.direction, more.depth, ask, more.cursor);
  return fragmentOfLineage(page, more.artifact, more.depth);
}

export function loadRun(id: string): Promise<RunJson> {
  return api.get<RunJson>(`/api/v1/runs/${encodeURIComponent(id)}`);
}

/** At most this many artifacts around a run are followed further when a run's picture asks for more depth. */
const RUN_FAN_OUT = 24;

/** The picture around a run: the run, its inputs and outputs, and (for depth > 1) their own lineage. */
export async function runPicture(
  run: RunJson,
  direction: Direction,
  depth: number,
  ask: AskOptions,
): Promise<Fragment[]> {
  const first = fragmentOfRun(run, direction);
  if (depth <= 1) return [first];
  const further: Promise<Fragment>[] = [];
  let skipped = false;
  const follow = (items: readonly ArtifactRefJson[] | undefined, way: 'up' | 'down') => {
    for (const item of items ?? []) {
      // Only this registry's artifacts have a lineage to follow.
      if (item.unresolved === true || (item.origin?.kind ?? 'local') !== 'local') continue;
      if (further.length >= RUN_FAN_OUT) skipped = true;
      else further.push(lineageFragment(idOf(item.iri), way, depth - 1, ask));
    }
  };
  if (direction !== 'down') follow(run.used, 'up');
  if (direction !== 'up') follow(run.generated, 'down');
  const truncated = skipped ? [{ nodes: [], edges: [], fetched: [], truncated: true }] : [];
  return [first, ...(await Promise.all(further)), ...truncated];
}

/** At most this many versions of a dataset (the newest) have their lineage fetched when the dataset is expanded. */
const VERSION_FAN_OUT = 24;

/** The neighbourhood of one node, one step out: the way its kind is read. */
export async function neighbourhood(
  state: LineageState,
  iri: string,
  direction: Direction,
  ask: AskOptions,
): Promise<Fragment> {
  const node = state.nodes.get(iri);
  if (node === undefined) return { nodes: [], edges: [], fetched: [], truncated: false };
  if (isHeldHere(node) && node.kind === 'run') return fragmentOfRun(await loadRun(idOf(iri)));
  if (isHeldHere(node) && shownKind(node) === 'artifact') {
    const fragment = await lineageFragment(idOf(recordIri(node)), direction, 1, ask);
    return { ...fragment, fetched: [iri] };
  }
  if (isHeldHere(node) && node.kind === 'dataset') {
    // A dataset's neighbourhood is that of its versions.
    const versions = node.versions ?? [];
    const parts = await Promise.all(
      versions.slice(-VERSION_FAN_OUT).map((version) => lineageFragment(idOf(version), direction, 1, ask)),
    );
    return {
      nodes: parts.flatMap((part) => part.nodes),
      edges: parts.flatMap((part) => part.edges),
      fetched: [iri],
      truncated: versions.length > VERSION_FAN_OUT || parts.some((part) => part.truncated),
      more: parts.flatMap((part) => part.more ?? []),
    };
  }
  const view = await api.get<GraphAnswer>('/api/v1/graph', { iri, depth: 1 });
  return fragmentOfGraph(view, iri);
}
