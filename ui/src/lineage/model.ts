/**
 * The lineage picture's data: nodes and PROV statements gathered from the registry's answers (lineage of an
 * artifact, a run's inputs and outputs, the graph around a foreign IRI), merged as the reader expands nodes and
 * loads further pages, and what is shown once some nodes are collapsed. Versions of one dataset may stand as a
 * single dataset node; an artifact met later that is one of its versions is folded into it.
 */
import { isLocal, pageOf, type OriginJson } from '../api';
import type { Direction } from './fetch';

/**
 * What a node stands for: a record kind the registry holds, a dataset (the versions of an artifact series, shown
 * as one node), or an IRI it holds nothing about.
 */
export type NodeKind = 'artifact' | 'run' | 'dataset' | 'unknown';

export interface PictureNode {
  readonly iri: string;
  readonly kind: NodeKind;
  readonly title?: string;
  readonly origin?: OriginJson;
  /** The registry holds nothing about this IRI (a foreign input not resolved yet, or never). */
  readonly unresolved: boolean;
  /** For a dataset: its versions met in this lineage (artifact IRIs). */
  readonly versions?: readonly string[];
}

/** A PROV statement, read from its subject: the run used the input, the output wasGeneratedBy the run… */
export type Relation = 'used' | 'wasGeneratedBy' | 'wasDerivedFrom' | 'wasRevisionOf';

/** One statement between two nodes; its object is always the upstream end. */
export interface PictureEdge {
  readonly subject: string;
  readonly relation: Relation;
  readonly object: string;
}

/** The rest of a partial lineage answer: the request it continues and the cursor of its next page. */
export interface Continuation {
  /** The artifact whose lineage was asked for (its id). */
  readonly artifact: string;
  readonly direction: Direction;
  readonly depth: number;
  readonly cursor: string;
}

/** Everything gathered so far around the root, and what the reader did with it. */
export interface LineageState {
  /** The node the picture is centred on (the dataset of the artifact asked for, when versions are grouped). */
  readonly root: string;
  /** The IRI of the artifact or run asked for. */
  readonly centre: string;
  readonly nodes: ReadonlyMap<string, PictureNode>;
  readonly edges: ReadonlyMap<string, PictureEdge>;
  /** Nodes whose own neighbourhood has been fetched. */
  readonly fetched: ReadonlySet<string>;
  /**
   * Collapsed nodes: how many of their not yet shown neighbours are shown through them (0 hides everything that
   * is only reachable through them; a higher number shows that many more, for nodes with very many neighbours).
   */
  readonly limits: ReadonlyMap<string, number>;
  /** For each version shown through its dataset, the dataset's IRI. */
  readonly versionOf: ReadonlyMap<string, string>;
  /** Partial answers whose next pages are still to load. */
  readonly more: readonly Continuation[];
  /** The registry cut an answer short with no way to continue it. */
  readonly truncated: boolean;
}

/** A piece of lineage to merge: nodes, edges, which nodes it fully covers, and whether it was cut short. */
export interface Fragment {
  readonly nodes: readonly PictureNode[];
  readonly edges: readonly PictureEdge[];
  readonly fetched: readonly string[];
  readonly truncated: boolean;
  /** Where the answer it came from continues, when it was partial. */
  readonly more?: readonly Continuation[];
}

/** Past this many nodes the picture starts collapsed beyond the first levels. */
export const COLLAPSE_ABOVE = 150;
/** How many more neighbours one expansion of a collapsed node shows. */
export const REVEAL_STEP = 50;

export function edgeKey(edge: PictureEdge): string {
  return `${edge.subject} ${edge.relation} ${edge.object}`;
}

/** How many versions a dataset node stands for (0 for other nodes). */
export function versionCount(node: PictureNode): number {
  return node.kind === 'dataset' ? (node.versions?.length ?? 0) : 0;
}

/**
 * True for a dataset node standing for several versions. A dataset met with a single version is shown as that
 * version (an artifact): every artifact is a version of some series, and grouping one version says nothing.
 */
export function isGroup(node: PictureNode): boolean {
  return versionCount(node) > 1;
}

/** The IRI of the record a node shows: a dataset's only version, else the node's own IRI. */
export function recordIri(node: PictureNode): string {
  return node.kind === 'dataset' && node.versions?.length === 1 ? node.versions[0]! : node.iri;
}

/** The kind a node is shown as: a dataset of one version is that artifact. */
export function shownKind(node: PictureNode): NodeKind {
  return node.kind === 'dataset' && !isGroup(node) ? 'artifact' : node.kind;
}

/** The page of the record a node shows, or undefined for a dataset of several versions (series have no page). */
export function pageOfNode(node: PictureNode): string | undefined {
  return isGroup(node) ? undefined : pageOf(recordIri(node));
}

/** True when this registry holds the node's own record (not a copy cached from a peer, not unresolved). */
export function isHeldHere(node: PictureNode): boolean {
  if (node.unresolved) return false;
  return node.origin?.kind === undefined ? isLocal(recordIri(node)) : node.origin.kind === 'local';
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
  const kind = shownKind(node);
  const base =
    kind === 'run' ? 'Run' : kind === 'artifact' ? 'Artifact' : kind === 'dataset' ? 'Dataset' : 'Record';
  return isForeign(node) ? `Foreign ${base.toLowerCase()}` : base;
}

/** "3 versions": how many versions a dataset node stands for, or undefined for other nodes. */
export function versionsText(node: PictureNode): string | undefined {
  return isGroup(node) ? `${versionCount(node)} versions` : undefined;
}

/** The node's tag line: its kind, and for a dataset how many versions it stands for. */
export function tagText(node: PictureNode): string {
  const versions = versionsText(node);
  return versions === undefined ? kindText(node) : `${kindText(node)}, ${versions}`;
}

/** The state holding just the root. */
export function initialState(root: PictureNode): LineageState {
  return {
    root: root.iri,
    centre: root.iri,
    nodes: new Map([[root.iri, root]]),
    edges: new Map(),
    fetched: new Set(),
    limits: new Map(),
    versionOf: new Map(),
    more: [],
    truncated: false,
  };
}

/** The node now standing for an IRI: the dataset of a version shown through its dataset, else the IRI itself. */
export function nodeIriOf(state: LineageState, iri: string): string {
  return state.versionOf.get(iri) ?? iri;
}

/** The union of two version lists, in order. */
function unionOf(a: readonly string[] | undefined, b: readonly string[] | undefined): string[] {
  return [...new Set([...(a ?? []), ...(b ?? [])])].sort();
}

/** Two views of one node merged: a node already known keeps what it had unless the newcomer knows more. */
function mergeNode(known: PictureNode | undefined, node: PictureNode): PictureNode {
  if (known === undefined) return node;
  let merged = known;
  if ((known.unresolved && !node.unresolved) || (known.title === undefined && node.title !== undefined))
    merged = { ...known, ...node };
  if (known.kind === 'dataset' || node.kind === 'dataset') {
    const versions = unionOf(known.versions, node.versions);
    merged = { ...merged, kind: 'dataset', versions };
  }
  return merged;
}

/**
 * Merges a fragment in. Datasets the fragment names take in their versions: a version already in the picture as
 * an artifact is folded into its dataset node, and the edges, expansions and collapses that named it move there.
 */
export function merge(state: LineageState, fragment: Fragment): LineageState {
  const versionOf = new Map(state.versionOf);
  for (const node of fragment.nodes)
    if (node.kind === 'dataset') for (const version of node.versions ?? []) versionOf.set(version, node.iri);
  const folds = versionOf.size !== state.versionOf.size;
  const to = (iri: string): string => versionOf.get(iri) ?? iri;
  const nodes = new Map<string, PictureNode>();
  const add = (node: PictureNode) => {
    const iri = to(node.iri);
    if (iri === node.iri) nodes.set(iri, mergeNode(nodes.get(iri), node));
    else {
      // A version folded into its dataset adds itself to the dataset's versions (and its title, if it has none).
      const dataset = nodes.get(iri);
      const standIn: PictureNode = {
        iri,
        kind: 'dataset',
        ...(node.title === undefined ? {} : { title: node.title }),
        ...(node.origin === undefined ? {} : { origin: node.origin }),
        unresolved: false,
        versions: [node.iri],
      };
      nodes.set(iri, dataset === undefined ? standIn : mergeNode(dataset, standIn));
    }
  };
  for (const node of state.nodes.values()) add(node);
  for (const node of fragment.nodes) add(node);
  const edges = new Map<string, PictureEdge>();
  const addEdge = (edge: PictureEdge) => {
    const subject = to(edge.subject);
    const object = to(edge.object);
    if (subject === object || !nodes.has(subject) || !nodes.has(object)) return;
    const moved = { subject, relation: edge.relation, object };
    edges.set(edgeKey(moved), moved);
  };
  for (const edge of state.edges.values()) addEdge(edge);
  for (const edge of fragment.edges) addEdge(edge);
  const limits = folds
    ? new Map([...state.limits].map(([iri, limit]) => [to(iri), limit] as const))
    : state.limits;
  return {
    ...state,
    root: to(state.root),
    nodes,
    edges,
    fetched: new Set([...state.fetched, ...fragment.fetched].map(to)),
    limits,
    versionOf,
    more: [...state.more, ...(fragment.more ?? [])],
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
