/**
 * The lineage picture's data: nodes and PROV statements gathered from the registry's answers (lineage of an
 * artifact, a run's inputs and outputs, the graph around a foreign IRI), merged as the reader expands nodes, and
 * what is shown once some nodes are collapsed.
 */
import { isLocal, type OriginJson } from '../api';

/** What a node stands for: a record kind the registry holds, or an IRI it holds nothing about. */
export type NodeKind = 'artifact' | 'run' | 'unknown';

export interface PictureNode {
  readonly iri: string;
  readonly kind: NodeKind;
  readonly title?: string;
  readonly origin?: OriginJson;
  /** The registry holds nothing about this IRI (a foreign input not resolved yet, or never). */
  readonly unresolved: boolean;
}

/** A PROV statement, read from its subject: the run used the input, the output wasGeneratedBy the run… */
export type Relation = 'used' | 'wasGeneratedBy' | 'wasDerivedFrom' | 'wasRevisionOf';

/** One statement between two nodes; its object is always the upstream end. */
export interface PictureEdge {
  readonly subject: string;
  readonly relation: Relation;
  readonly object: string;
}

/** Everything gathered so far around the root, and what the reader did with it. */
export interface LineageState {
  readonly root: string;
  readonly nodes: ReadonlyMap<string, PictureNode>;
  readonly edges: ReadonlyMap<string, PictureEdge>;
  /** Nodes whose own neighbourhood has been fetched. */
  readonly fetched: ReadonlySet<string>;
  /**
   * Collapsed nodes: how many of their not yet shown neighbours are shown through them (0 hides everything that
   * is only reachable through them; a higher number shows that many more, for nodes with very many neighbours).
   */
  readonly limits: ReadonlyMap<string, number>;
  /** The registry cut an answer short. */
  readonly truncated: boolean;
}

/** A piece of lineage to merge: nodes, edges, which nodes it fully covers, and whether it was cut short. */
export interface Fragment {
  readonly nodes: readonly PictureNode[];
  readonly edges: readonly PictureEdge[];
  readonly fetched: readonly string[];
  readonly truncated: boolean;
}

/** Past this many nodes the picture starts collapsed beyond the first levels. */
export const COLLAPSE_ABOVE = 150;
/** How many more neighbours one expansion of a collapsed node shows. */
export const REVEAL_STEP = 50;

export function edgeKey(edge: PictureEdge): string {
  return `${edge.subject} ${edge.relation} ${edge.object}`;
}

/** True when this registry holds the node's own record (not a copy cached from a peer, not unresolved). */
export function isHeldHere(node: PictureNode): boolean {
  if (node.unresolved) return false;
  return node.origin?.kind === undefined ? isLocal(node.iri) : node.origin.kind === 'local';
}

/** True when the node is outside this registry (foreign, resolved into a cached copy or not). */
export function isForeign(node: PictureNode): boolean {
  return !isHeldHere(node);
}

/** A node's label: its title, else the last segment of its IRI. */
export function labelOf(node: PictureNode): string {
  if (node.title !== undefined && node.title !== '') return node.title;
  const trimmed = node.iri.replace(/[#/]+$/, '');
  const tail = trimmed.slice(Math.max(trimmed.lastIndexOf('/'), trimmed.lastIndexOf('#')) + 1);
  return tail === '' ? node.iri : tail;
}

/** The words for a node's kind, as shown on it and read out. */
export function kindText(node: PictureNode): string {
  if (node.unresolved) return 'Unresolved foreign IRI';
  const base = node.kind === 'run' ? 'Run' : node.kind === 'artifact' ? 'Artifact' : 'Record';
  return isForeign(node) ? `Foreign ${base.toLowerCase()}` : base;
}

/** The state holding just the root. */
export function initialState(root: PictureNode): LineageState {
  return {
    root: root.iri,
    nodes: new Map([[root.iri, root]]),
    edges: new Map(),
    fetched: new Set(),
    limits: new Map(),
    truncated: false,
  };
}

/** Merges a fragment in; a node already known keeps what it had unless the newcomer knows more. */
export function merge(state: LineageState, fragment: Fragment): LineageState {
  const nodes = new Map(state.nodes);
  for (const node of fragment.nodes) {
    const known = nodes.get(node.iri);
    if (
      known === undefined ||
      (known.unresolved && !node.unresolved) ||
      (known.title === undefined && node.title !== undefined)
    )
      nodes.set(node.iri, known === undefined ? node : { ...known, ...node });
  }
  const edges = new Map(state.edges);
  for (const edge of fragment.edges)
    if (nodes.has(edge.subject) && nodes.has(edge.object)) edges.set(edgeKey(edge), edge);
  return {
    ...state,
    nodes,
    edges,
    fetched: new Set([...state.fetched, ...fragment.fetched]),
    truncated: state.truncated || fragment.truncated,
  };
}

/** Undirected neighbours of every node. */
export function neighbours(state: LineageState): Map<string, Set<string>> {
  const around = new Map<string, Set<string>>();
  for (const iri of state.nodes.keys()) around.set(iri, new Set());
  for (const edge of state.edges.values()) {
    around.get(edge.subject)?.add(edge.object);
    around.get(edge.object)?.add(edge.subject);
  }
  return around;
}

/** Steps from the root to every node reachable from it. */
export function distances(state: LineageState, around = neighbours(state)): Map<string, number> {
  const seen = new Map([[state.root, 0]]);
  const queue = [state.root];
  for (let i = 0; i < queue.length; i++) {
    const at = queue[i]!;
    for (const next of around.get(at) ?? []) {
      if (seen.has(next)) continue;
      seen.set(next, seen.get(at)! + 1);
      queue.push(next);
    }
  }
  return seen;
}

/** What is shown: the nodes reached from the root within the limits of collapsed nodes, and their edges. */
export interface Visible {
  readonly nodes: readonly PictureNode[];
  readonly edges: readonly PictureEdge[];
  /** For each collapsed node shown, how many nodes are hidden behind it. */
  readonly hiddenBehind: ReadonlyMap<string, number>;
  /** Nodes known but not shown. */
  readonly hidden: number;
}

export function visible(state: LineageState): Visible {
  const around = neighbours(state);
  const shown = new Set([state.root]);
  const queue = [state.root];
  for (let i = 0; i < queue.length; i++) {
    const at = queue[i]!;
    let room = state.limits.get(at) ?? Infinity;
    for (const next of around.get(at) ?? []) {
      if (room <= 0) break;
      if (shown.has(next)) continue;
      shown.add(next);
      queue.push(next);
      room--;
    }
  }
  const hiddenBehind = new Map<string, number>();
  for (const iri of state.limits.keys())
    if (shown.has(iri)) {
      const behind = reachableHidden(iri, around, shown).size;
      if (behind > 0) hiddenBehind.set(iri, behind);
    }
  return {
    nodes: [...state.nodes.values()].filter((node) => shown.has(node.iri)),
    edges: [...state.edges.values()].filter((edge) => shown.has(edge.subject) && shown.has(edge.object)),
    hiddenBehind,
    hidden: state.nodes.size - shown.size,
  };
}

/** The hidden nodes reachable from `start` through hidden nodes only. */
function reachableHidden(
  start: string,
  around: Map<string, Set<string>>,
  shown: ReadonlySet<string>,
): Set<string> {
  const found = new Set<string>();
  const queue = [start];
  for (let i = 0; i < queue.length; i++)
    for (const next of around.get(queue[i]!) ?? [])
      if (!shown.has(next) && !found.has(next)) {
        found.add(next);
        queue.push(next);
      }
  return found;
}

/** How many nodes collapsing `iri` would hide (those only reachable through it). */
export function wouldHide(state: LineageState, iri: string): number {
  if (iri === state.root || state.limits.get(iri) === 0) return 0;
  return visible(collapse(state, iri)).hidden - visible(state).hidden;
}

export function collapse(state: LineageState, iri: string): LineageState {
  if (iri === state.root) return state;
  return { ...state, limits: new Map([...state.limits, [iri, 0]]) };
}

/** Shows more of what a collapsed node hides: everything, or the next `REVEAL_STEP` neighbours when more. */
export function reveal(state: LineageState, iri: string): LineageState {
  const limit = state.limits.get(iri);
  if (limit === undefined) return state;
  const limits = new Map(state.limits);
  const shown = new Set(visible(state).nodes.map((node) => node.iri));
  const waiting = [...(neighbours(state).get(iri) ?? [])].filter((next) => !shown.has(next)).length;
  if (waiting > REVEAL_STEP) limits.set(iri, limit + REVEAL_STEP);
  else limits.delete(iri);
  return { ...state, limits };
}

/**
 * For a large picture: collapses the nodes at the last level that keeps at most `COLLAPSE_ABOVE` nodes in view,
 * so the reader opens the rest on demand; when even the root's neighbours are too many, the root shows only the
 * first of them.
 */
export function collapseLargePicture(state: LineageState): LineageState {
  if (state.nodes.size <= COLLAPSE_ABOVE) return state;
  const around = neighbours(state);
  const steps = distances(state, around);
  const perLevel = new Map<number, number>();
  for (const level of steps.values()) perLevel.set(level, (perLevel.get(level) ?? 0) + 1);
  const limits = new Map(state.limits);
  if ((perLevel.get(1) ?? 0) >= COLLAPSE_ABOVE) {
    limits.set(state.root, REVEAL_STEP);
    for (const [iri, at] of steps) if (at === 1) limits.set(iri, 0);
    return { ...state, limits };
  }
  let level = 1;
  let total = 1 + (perLevel.get(1) ?? 0);
  while (perLevel.has(level + 1) && total + perLevel.get(level + 1)! <= COLLAPSE_ABOVE) {
    level++;
    total += perLevel.get(level)!;
  }
  for (const [iri, at] of steps)
    if (at === level && [...(around.get(iri) ?? [])].some((next) => (steps.get(next) ?? 0) > level))
      limits.set(iri, 0);
  return { ...state, limits };
}

/** Whether activating the node would show more: it hides nodes, or its neighbourhood was never fetched. */
export function canExpand(
  state: LineageState,
  iri: string,
  hiddenBehind: ReadonlyMap<string, number>,
): boolean {
  return hiddenBehind.has(iri) || !state.fetched.has(iri);
}
