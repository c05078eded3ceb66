/**
 * One node of the picture: its shape says its kind (a pill for an artifact, a box with side bars for a run, a
 * dashed box for an IRI held elsewhere), a tag line says it in words, and an unresolved foreign IRI carries a
 * warning sign beside the words "unresolved foreign".
 */
import type { JSX } from 'preact';
import { NODE_HEIGHT, NODE_WIDTH, type PlacedNode } from './layout';
import { isForeign, kindText, labelOf, type LineageNode } from './model';

const LINE_CHARS = 29;

/** The title on at most two lines, broken between words where it can be, the rest cut with an ellipsis. */
export function titleLines(text: string): [string, string?] {
  if (text.length <= LINE_CHARS) return [text];
  let cut = text.lastIndexOf(' ', LINE_CHARS);
  if (cut < LINE_CHARS / 2) cut = LINE_CHARS;
  const first = text.slice(0, cut).trimEnd();
  const rest = text.slice(cut).trimStart();
  return [first, rest.length > LINE_CHARS ? `${rest.slice(0, LINE_CHARS - 1)}…` : rest];
}

function tagOf(node: LineageNode): string {
  if (node.unresolved) return 'UNRESOLVED FOREIGN';
  return kindText(node).toUpperCase();
}

/** The words read out for a node. */
export function ariaLabelOf(
  node: LineageNode,
  options: { root: boolean; hidden: number | undefined; expandable: boolean; pending: boolean },
): string {
  const parts = [`${kindText(node)}: ${labelOf(node)}`];
  if (options.root) parts.push('the centre of this picture');
  if (options.hidden !== undefined) parts.push(`collapsed, ${options.hidden} more hidden`);
  if (options.pending) parts.push('loading');
  else if (options.expandable) parts.push('press Enter to expand');
  return parts.join('; ');
}

function Shape({ node }: { node: LineageNode }) {
  const w = NODE_WIDTH;
  const h = NODE_HEIGHT;
  if (node.unresolved || node.kind === 'unknown')
    return <rect class="lg-shape" width={w} height={h} rx={4} stroke-dasharray="6 4" />;
  if (node.kind === 'run')
    return (
      <>
        <rect class="lg-shape" width={w} height={h} rx={1} />
        <line class="lg-bar" x1={8} y1={0} x2={8} y2={h} />
        <line class="lg-bar" x1={w - 8} y1={0} x2={w - 8} y2={h} />
      </>
    );
  return (
    <rect
      class="lg-shape"
      width={w}
      height={h}
      rx={h / 2}
      {...(isForeign(node) ? { 'stroke-dasharray': '6 4' } : {})}
    />
  );
}

/** A warning triangle with an exclamation mark, drawn (no icon font needed). */
function WarningIcon({ x, y }: { x: number; y: number }) {
  return (
    <g class="lg-icon" transform={`translate(${x},${y})`} aria-hidden="true">
      <path d="M7 0 L14 12.5 L0 12.5 Z" />
      <rect x={6.2} y={3.5} width={1.6} height={5} class="lg-icon-mark" />
      <rect x={6.2} y={9.6} width={1.6} height={1.6} class="lg-icon-mark" />
    </g>
  );
}

/** An arrow leaving a box: held at another registry. */
function ForeignIcon({ x, y }: { x: number; y: number }) {
  return (
    <g class="lg-icon-line" transform={`translate(${x},${y})`} aria-hidden="true">
      <path d="M1 3 V12 H10 M5 8 L12 1 M7 1 H12 V6" />
    </g>
  );
}

export interface NodeProps {
  readonly placed: PlacedNode;
  readonly index: number;
  readonly root: boolean;
  readonly selected: boolean;
  readonly focusable: boolean;
  readonly hidden: number | undefined;
  readonly expandable: boolean;
  readonly pending: boolean;
  readonly onClick: (iri: string) => void;
  readonly onFocus: (iri: string) => void;
  readonly onKeyDown: (event: JSX.TargetedKeyboardEvent<SVGGElement>, iri: string) => void;
}

export function GraphNode(props: NodeProps) {
  const { node, x, y } = props.placed;
  const foreign = isForeign(node);
  const iconAt = 12;
  const textAt = node.unresolved || foreign ? 32 : 16;
  const classes = [
    'lg-node',
    `lg-${node.kind}`,
    node.unresolved ? 'lg-unresolved' : '',
    foreign ? 'lg-foreign' : '',
    props.selected ? 'is-selected' : '',
    props.root ? 'is-root' : '',
  ].join(' ');
  return (
    <g
      class={classes}
      transform={`translate(${x - NODE_WIDTH / 2},${y - NODE_HEIGHT / 2})`}
      tabindex={props.focusable ? 0 : -1}
      role="button"
      aria-label={ariaLabelOf(node, props)}
      aria-busy={props.pending ? 'true' : undefined}
      data-iri={node.iri}
      data-index={props.index}
      onClick={() => props.onClick(node.iri)}
      onFocus={() => props.onFocus(node.iri)}
      onKeyDown={(event) => props.onKeyDown(event, node.iri)}
    >
      <title>{`${kindText(node)}: ${labelOf(node)}\n${node.iri}`}</title>
      <Shape node={node} />
      {node.unresolved ? <WarningIcon x={iconAt} y={8} /> : foreign && <ForeignIcon x={iconAt} y={8} />}
      <text class="lg-tag" x={textAt} y={19} clip-path="url(#lg-clip-tag)">
        {props.root ? `${tagOf(node)} · CENTRE` : tagOf(node)}
      </text>
      <text class="lg-title" clip-path="url(#lg-clip)">
        {titleLines(labelOf(node)).map((line, i) => (
          <tspan key={i} x={16} y={38 + i * 15}>
            {line}
          </tspan>
        ))}
      </text>
      {props.pending && (
        <g class="lg-more" transform={`translate(${NODE_WIDTH - 84},${NODE_HEIGHT - 7})`}>
          <rect width={74} height={18} rx={9} />
          <text x={37} y={13} text-anchor="middle">
            loading…
          </text>
        </g>
      )}
      {props.hidden !== undefined && !props.pending && (
        <g class="lg-more" transform={`translate(${NODE_WIDTH - 84},${NODE_HEIGHT - 7})`}>
          <rect width={74} height={18} rx={9} />
          <text x={37} y={13} text-anchor="middle">{`+${props.hidden} more`}</text>
        </g>
      )}
      {props.expandable && props.hidden === undefined && !props.pending && (
        <g class="lg-handle" transform={`translate(${NODE_WIDTH - 18},${15})`} aria-hidden="true">
          <circle r={8} />
          <path d="M-4 0 H4 M0 -4 V4" />
        </g>
      )}
    </g>
  );
}
