/**
 * Left-to-right layered layout with dagre: every edge is laid out from its upstream end (the PROV object) to its
 * downstream end, so inputs sit left of the runs that used them and outputs right of the runs that made them.
 */
import { graphlib, layout } from '@dagrejs/dagre';
import { edgeKey, type PictureEdge, type PictureNode } from './model';

export const NODE_WIDTH = 210;
export const NODE_HEIGHT = 64;
/** How far each version drawn behind a dataset's front pill is offset (up and right). */
export const STACK = 4;
const LABEL_HEIGHT = 16;
const CHAR_WIDTH = 6.4;

export interface Point {
  readonly x: number;
  readonly y: number;
}

export interface PlacedNode {
  readonly node: PictureNode;
  /** Centre. */
  readonly x: number;
  readonly y: number;
}

export interface PlacedEdge {
  readonly key: string;
  readonly edge: PictureEdge;
  /** From the upstream end to the downstream end. */
  readonly points: readonly Point[];
  readonly label: Point;
}

export interface Placement {
  readonly nodes: readonly PlacedNode[];
  readonly edges: readonly PlacedEdge[];
  readonly width: number;
  readonly height: number;
}

export function place(nodes: readonly PictureNode[], edges: readonly PictureEdge[]): Placement {
  const g = new graphlib.Graph({ multigraph: true });
  g.setGraph({ rankdir: 'LR', nodesep: 28, ranksep: 70, edgesep: 12, marginx: 24, marginy: 24 });
  g.setDefaultEdgeLabel(() => ({}));
  for (const node of nodes) g.setNode(node.iri, { width: NODE_WIDTH, height: NODE_HEIGHT });
  for (const edge of edges)
    g.setEdge(
      edge.object,
      edge.subject,
      { width: edge.relation.length * CHAR_WIDTH + 8, height: LABEL_HEIGHT, labelpos: 'c' },
      edgeKey(edge),
    );
  layout(g);
  const placedNodes = nodes.map((node) => {
    const at = g.node(node.iri) as { x: number; y: number };
    return { node, x: at.x, y: at.y };
  });
  const placedEdges = edges.map((edge) => {
    const key = edgeKey(edge);
    const at = g.edge(edge.object, edge.subject, key) as { points?: Point[]; x?: number; y?: number };
    const points = at.points ?? [];
    const middle = points[Math.floor(points.length / 2)] ?? { x: 0, y: 0 };
    return { key, edge, points, label: { x: at.x ?? middle.x, y: at.y ?? middle.y } };
  });
  const graph = g.graph() as { width?: number; height?: number };
  return { nodes: placedNodes, edges: placedEdges, width: graph.width ?? 0, height: graph.height ?? 0 };
}

/** A box in the picture's coordinates. */
export interface Box {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

/** Room above a node for the "centre" tag drawn over the root. */
const TAG_ROOM = 20;

/**
 * The box holding everything drawn: the nodes (with the tag above the root), the edges and their labels. With
 * `only`, the box of those nodes alone.
 */
export function boundsOf(placement: Placement, only?: ReadonlySet<string>): Box | undefined {
  let left = Infinity;
  let top = Infinity;
  let right = -Infinity;
  let bottom = -Infinity;
  const take = (x0: number, y0: number, x1: number, y1: number) => {
    left = Math.min(left, x0);
    top = Math.min(top, y0);
    right = Math.max(right, x1);
    bottom = Math.max(bottom, y1);
  };
  for (const { node, x, y } of placement.nodes)
    if (only === undefined || only.has(node.iri))
      take(
        x - NODE_WIDTH / 2,
        y - NODE_HEIGHT / 2 - TAG_ROOM,
        x + NODE_WIDTH / 2 + 2 * STACK,
        y + NODE_HEIGHT / 2,
      );
  if (only === undefined)
    for (const { edge, points, label } of placement.edges) {
      for (const point of points) take(point.x, point.y, point.x, point.y);
      const half = (edge.relation.length * CHAR_WIDTH + 8) / 2;
      take(label.x - half, label.y - LABEL_HEIGHT / 2, label.x + half, label.y + LABEL_HEIGHT / 2);
    }
  if (left === Infinity) return undefined;
  return { x: left, y: top, width: right - left, height: bottom - top };
}

/** An SVG path through the points: straight first and last segments, smooth in between. */
export function pathOf(points: readonly Point[]): string {
  if (points.length === 0) return '';
  const [first, ...rest] = points;
  let d = `M${first!.x},${first!.y}`;
  if (rest.length === 1) return `${d} L${rest[0]!.x},${rest[0]!.y}`;
  for (let i = 0; i < rest.length - 1; i++) {
    const control = rest[i]!;
    const next = rest[i + 1]!;
    const end = i === rest.length - 2 ? next : { x: (control.x + next.x) / 2, y: (control.y + next.y) / 2 };
    d += ` Q${control.x},${control.y} ${end.x},${end.y}`;
  }
  return d;
}
