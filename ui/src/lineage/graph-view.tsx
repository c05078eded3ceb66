/**
 * The picture itself: the laid-out nodes and edges as SVG, fitted into view, with pan (drag the background) and
 * zoom (wheel, or the buttons), and keyboard moves between nodes (one tab stop; arrows go to the nearest node
 * that way).
 */
import type { JSX } from 'preact';
import { useEffect, useMemo, useRef } from 'preact/hooks';
import { GraphNode, type Mark } from './graph-node';
import { NODE_HEIGHT, NODE_WIDTH, type PlacedNode, type Placement, pathOf } from './layout';
import { usePanZoom } from './pan-zoom';

export interface GraphViewProps {
  readonly placement: Placement;
  readonly root: string;
  readonly selected: string | undefined;
  /** Changes when a new picture is loaded: the view is fitted again. */
  readonly pictureKey: string;
  readonly anchor: string | undefined;
  readonly hiddenBehind: ReadonlyMap<string, number>;
  readonly pending: ReadonlySet<string>;
  /** Nodes to frame and mark when the picture opens (the versions of a dataset the reader opened), by words. */
  readonly marks: ReadonlyMap<string, Mark> | undefined;
  /** A node to move the keyboard focus to once drawn. */
  readonly focusOn: string | undefined;
  readonly expandable: (iri: string) => boolean;
  /** Whether the node is a dataset whose versions can be shown. */
  readonly hasVersions: (iri: string) => boolean;
  readonly onSelect: (iri: string) => void;
  /** Click or Enter: expand the node, or (Enter on a node with nothing more to show) open its page. */
  readonly onActivate: (iri: string, byKey: boolean) => void;
  readonly onCollapse: (iri: string) => void;
  /** V on a dataset: show its versions. */
  readonly onShowVersions: (iri: string) => void;
}

type Way = 'ArrowLeft' | 'ArrowRight' | 'ArrowUp' | 'ArrowDown';

/** The nearest node from `from` in the direction of the arrow key, favouring the same row or column. */
function nearest(from: PlacedNode, nodes: readonly PlacedNode[], way: Way): PlacedNode | undefined {
  let best: PlacedNode | undefined;
  let bestScore = Infinity;
  for (const other of nodes) {
    if (other === from) continue;
    const dx = other.x - from.x;
    const dy = other.y - from.y;
    const ahead = way === 'ArrowRight' ? dx : way === 'ArrowLeft' ? -dx : way === 'ArrowDown' ? dy : -dy;
    const aside = way === 'ArrowRight' || way === 'ArrowLeft' ? Math.abs(dy) : Math.abs(dx);
    if (ahead <= 1) continue;
    const score = ahead + 2 * aside;
    if (score < bestScore) {
      bestScore = score;
      best = other;
    }
  }
  return best;
}

export function GraphView(props: GraphViewProps) {
  const { placement } = props;
  const svg = useRef<SVGSVGElement>(null);
  const byIri = useMemo(() => new Map(placement.nodes.map((p) => [p.node.iri, p])), [placement]);
  const focus = useMemo(
    () => (props.marks === undefined ? undefined : new Set(props.marks.keys())),
    [props.marks],
  );
  const { view, fit, zoomAt, reveal, pointer } = usePanZoom(svg, {
    placement,
    byIri,
    pictureKey: props.pictureKey,
    anchor: props.anchor,
    focus,
  });

  const focusNode = (iri: string) => {
    const placed = byIri.get(iri);
    if (placed === undefined) return;
    props.onSelect(iri);
    reveal(placed);
    const element = svg.current?.querySelector<SVGGElement>(
      `[data-index="${placement.nodes.indexOf(placed)}"]`,
    );
    element?.focus();
  };

  const onKeyDown = (event: JSX.TargetedKeyboardEvent<SVGGElement>, iri: string) => {
    const placed = byIri.get(iri);
    if (placed === undefined) return;
    switch (event.key) {
      case 'ArrowLeft':
      case 'ArrowRight':
      case 'ArrowUp':
      case 'ArrowDown': {
        event.preventDefault();
        const next = nearest(placed, placement.nodes, event.key);
        if (next !== undefined) focusNode(next.node.iri);
        return;
      }
      case 'Home':
        event.preventDefault();
        focusNode(props.root);
        return;
      case 'Enter':
        event.preventDefault();
        props.onActivate(iri, true);
        return;
      case ' ':
        event.preventDefault();
        props.onSelect(iri);
        return;
      case '-':
        event.preventDefault();
        props.onCollapse(iri);
        return;
      case '+':
        event.preventDefault();
        props.onActivate(iri, false);
        return;
      case 'v':
      case 'V':
        if (!props.hasVersions(iri)) return;
        event.preventDefault();
        props.onShowVersions(iri);
        return;
      default:
        return;
    }
  };

  const tabStop = props.selected !== undefined && byIri.has(props.selected) ? props.selected : props.root;

  // Once the node to focus is drawn, the keyboard focus moves to it (the control that asked for it is gone).
  const focusedOn = useRef<string>();
  useEffect(() => {
    if (props.focusOn === undefined || focusedOn.current === props.focusOn || !byIri.has(props.focusOn))
      return;
    focusedOn.current = props.focusOn;
    const index = placement.nodes.findIndex((placed) => placed.node.iri === props.focusOn);
    svg.current?.querySelector<SVGGElement>(`[data-index="${index}"]`)?.focus();
  }, [props.focusOn, byIri, placement]);

  return (
    <div class="lg-canvas">
      <div class="lg-zoom" role="group" aria-label="View">
        <button type="button" class="secondary" onClick={() => zoomAt(1.25)}>
          Zoom in
        </button>
        <button type="button" class="secondary" onClick={() => zoomAt(0.8)}>
          Zoom out
        </button>
        <button type="button" class="secondary" onClick={fit}>
          Fit to view
        </button>
      </div>
      <svg
        ref={svg}
        class="lg-svg"
        role="group"
        aria-label="Lineage graph: upstream on the left, downstream on the right"
        onPointerDown={pointer.down}
        onPointerMove={pointer.move}
        onPointerUp={pointer.up}
        onPointerCancel={pointer.up}
      >
        <defs>
          <clipPath id="lg-clip" clipPathUnits="userSpaceOnUse">
            <rect x={8} y={0} width={NODE_WIDTH - 20} height={NODE_HEIGHT} />
          </clipPath>
          <clipPath id="lg-clip-tag" clipPathUnits="userSpaceOnUse">
            <rect x={8} y={0} width={NODE_WIDTH - 36} height={NODE_HEIGHT} />
          </clipPath>
          <marker
            id="lg-arrow"
            viewBox="0 0 10 10"
            refX="9"
            refY="5"
            markerWidth="8"
            markerHeight="8"
            orient="auto-start-reverse"
          >
            <path class="lg-arrowhead" d="M0,0 L10,5 L0,10 Z" />
          </marker>
        </defs>
        <g transform={`translate(${view.x},${view.y}) scale(${view.k})`}>
          <g class="lg-edges" aria-hidden="true">
            {placement.edges.map((placed) => (
              <g key={placed.key} class={`lg-edge lg-edge-${placed.edge.relation}`}>
                <path d={pathOf(placed.points)} marker-start="url(#lg-arrow)" />
                <g transform={`translate(${placed.label.x},${placed.label.y})`}>
                  <rect
                    class="lg-edge-label-bg"
                    x={-(placed.edge.relation.length * 3.2 + 4)}
                    y={-8}
                    width={placed.edge.relation.length * 6.4 + 8}
                    height={16}
                    rx={3}
                  />
                  <text class="lg-edge-label" text-anchor="middle" y={4}>
                    {placed.edge.relation}
                  </text>
                </g>
              </g>
            ))}
          </g>
          {placement.nodes.map((placed, index) => (
            <GraphNode
              key={placed.node.iri}
              placed={placed}
              index={index}
              root={placed.node.iri === props.root}
              selected={placed.node.iri === props.selected}
              focusable={placed.node.iri === tabStop}
              hidden={props.hiddenBehind.get(placed.node.iri)}
              expandable={props.expandable(placed.node.iri)}
              pending={props.pending.has(placed.node.iri)}
              mark={props.marks?.get(placed.node.iri)}
              onClick={(iri) => props.onActivate(iri, false)}
              onFocus={(iri) => props.onSelect(iri)}
              onKeyDown={onKeyDown}
            />
          ))}
        </g>
      </svg>
    </div>
  );
}
