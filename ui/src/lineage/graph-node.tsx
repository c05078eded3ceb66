/**
 * One node of the picture: its shape says its kind (a pill for an artifact, a stack of pills for a dataset of
 * several versions, a box with side bars for a run, a dashed box for an IRI held elsewhere), a tag line says it in
 * words (with a dataset's number of versions), and an unresolved foreign IRI carries a warning sign beside the
 * words "unresolved foreign".
 */
import type { JSX } from 'preact';
import { NODE_HEIGHT, NODE_WIDTH, STACK, type PlacedNode } from './layout';
import { isForeign, labelOf, shownKind, tagText, type PictureNode } from './model';

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

/**
 * The words read out for a node. They start with exactly what the node shows — its kind, its title and any
 * "+N more" or "loading…" badge — so people who speak to their computer can name it by what they see; then its
 * place in the picture and what Enter does.
 */
export function ariaLabelOf(
  node: PictureNode,
  options: {
    root: boolean;
    hidden: number | undefined;
    expandable: boolean;
    pending: boolean;
    mark: Mark | undefined;
  },
): string {
  const shown = `${tagText(node)} ${labelOf(node)}${badgeOf(options) === undefined ? '' : ` ${badgeOf(options)}`}`;
  const parts = [shown];
  if (options.root) parts.push('the centre of this picture');
  if (options.mark !== undefined) parts.push(options.mark.spoken);
  if (options.hidden !== undefined && !options.pending) parts.push('collapsed');
  else if (!options.pending && options.expandable) parts.push('press Enter to expand');
  return parts.join('; ');
}

/** The badge in the node's corner, if any. */
function badgeOf(options: { hidden: number | undefined; pending: boolean }): string | undefined {
  if (options.pending) return 'loading…';
  return options.hidden === undefined ? undefined : `+${options.hidden} more`;
}

function Shape({ node }: { node: PictureNode }) {
  const w = NODE_WIDTH;
  const h = NODE_HEIGHT;
  if (node.unresolved || node.kind === 'unknown')
    return <rect class="lg-shape" width={w} height={h} rx={4} stroke-dasharray="6 4" />;
  if (shownKind(node) === 'dataset')
    // Versions stacked behind the front one.
    return (
      <>
        {[STACK * 2, STACK].map((offset) => (
          <rect
            key={offset}
            class="lg-shape lg-stack"
            x={offset}
            y={-offset}
            width={w}
            height={h}
            rx={h / 2}
            {...(isForeign(node) ? { 'stroke-dasharray': '6 4' } : {})}
          />
        ))}
        <rect
          class="lg-shape"
          width={w}
          height={h}
          rx={h / 2}
          {...(isForeign(node) ? { 'stroke-dasharray': '6 4' } : {})}
        />
      </>
    );
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

/** Words that single a node out: shown above it, and read out at more length. */
export interface Mark {
  readonly text: string;
  readonly spoken: string;
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
  /** Words set above the node and read out with it (the versions of a dataset the reader opened). */
  readonly mark: Mark | undefined;
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
    `lg-${shownKind(node)}`,
    node.unresolved ? 'lg-unresolved' : '',
    foreign ? 'lg-foreign' : '',
    props.selected ? 'is-selected' : '',
    props.root ? 'is-root' : '',
    props.mark === undefined ? '' : 'is-marked',
  ].join(' ');
  const left = x - NODE_WIDTH / 2;
  const top = y - NODE_HEIGHT / 2;
  return (
    <>
      {props.root && (
        // Outside the node, so the node's visible words stay those its name starts with.
        <text class="lg-tag lg-centre" x={left + 16} y={top - 6} aria-hidden="true">
          centre
        </text>
      )}
      {props.mark !== undefined && (
        <text
          class="lg-tag lg-mark"
          x={left + NODE_WIDTH - 16}
          y={top - 6}
          text-anchor="end"
          aria-hidden="true"
        >
          {props.mark.text}
        </text>
      )}
      <g
        class={classes}
        transform={`translate(${left},${top})`}
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
        <Shape node={node} />
        {node.unresolved ? <WarningIcon x={iconAt} y={8} /> : foreign && <ForeignIcon x={iconAt} y={8} />}
        {/* Trailing spaces keep the tag, the title lines and the badge apart as words for assistive technology. */}
        <text class="lg-tag" x={textAt} y={19} clip-path="url(#lg-clip-tag)">
          {`${tagText(node)} `}
        </text>
        <text class="lg-title" clip-path="url(#lg-clip)">
          {titleLines(labelOf(node)).map((line, i) => (
            <tspan key={i} x={16} y={38 + i * 15}>
              {`${line} `}
            </tspan>
          ))}
        </text>
        {badgeOf(props) !== undefined && (
          <g class="lg-more" transform={`translate(${NODE_WIDTH - 84},${NODE_HEIGHT - 7})`}>
            <rect width={74} height={18} rx={9} />
            <text x={37} y={13} text-anchor="middle">
              {badgeOf(props)}
            </text>
          </g>
        )}
        {props.expandable && props.hidden === undefined && !props.pending && (
          <g class="lg-handle" transform={`translate(${NODE_WIDTH - 18},${15})`} aria-hidden="true">
            <circle r={8} />
            <path d="M-4 0 H4 M0 -4 V4" />
          </g>
        )}
      </g>
    </>
  );
}
