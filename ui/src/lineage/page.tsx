/**
 * `/lineage?artifact=<id>` or `/lineage?run=<id>` (with `direction` and `depth`): the lineage around an artifact
 * or a run as a left-to-right picture, upstream on the left. Nodes expand on demand and collapse; the selected
 * node's details sit beside the picture, and the whole picture is also given as text.
 */
import { useMemo, useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { pageOf, withQuery } from '../api';
import { ErrorNotice, Loading, usePageTitle } from '../components/status';
import { Details } from './details';
import type { Direction } from './fetch';
import { GraphView } from './graph-view';
import { place } from './layout';
import { Legend } from './legend';
import { canExpand, labelOf, visible, wouldHide } from './model';
import { TargetForm, targetOf } from './target-form';
import { TextView } from './text-view';
import { useLineage } from './use-lineage';
import './lineage.css';

const DIRECTIONS: readonly (readonly [Direction, string])[] = [
  ['both', 'Both ways'],
  ['up', 'Upstream: what it came from'],
  ['down', 'Downstream: what came from it'],
];
const DEPTHS = [1, 2, 3, 4, 5, 6];

function directionOf(value: string | undefined): Direction {
  return value === 'up' || value === 'down' ? value : 'both';
}

function depthOf(value: string | undefined): number {
  const n = Number(value);
  return Number.isInteger(n) && n >= 1 && n <= 6 ? n : 1;
}

export default function LineagePage() {
  const { query, route } = useLocation();
  const target = targetOf(query);
  const direction = directionOf(query.direction);
  const depth = depthOf(query.depth);
  const picture = useLineage(target, direction, depth);
  const { state } = picture;
  const [selected, setSelected] = useState<string>();
  const rootNode = state?.nodes.get(state.root);
  usePageTitle(rootNode === undefined ? 'Lineage' : `Lineage of ${labelOf(rootNode)}`);

  const shown = useMemo(() => (state === undefined ? undefined : visible(state)), [state]);
  const placement = useMemo(
    () => (shown === undefined ? undefined : place(shown.nodes, shown.edges)),
    [shown],
  );

  const setParam = (name: string, value: string) => {
    const next = { ...query, [name]: value };
    route(withQuery('/lineage', next), true);
  };

  const pictureKey = `${target?.kind ?? ''} ${target?.id ?? ''} ${direction} ${depth}`;
  const shownIris = useMemo(() => new Set(shown?.nodes.map((node) => node.iri)), [shown]);
  const selectedIri = selected !== undefined && shownIris.has(selected) ? selected : state?.root;
  const expandable = (iri: string) =>
    state !== undefined && shown !== undefined && canExpand(state, iri, shown.hiddenBehind);

  const activate = (iri: string, byKey: boolean) => {
    setSelected(iri);
    if (state === undefined) return;
    if (expandable(iri)) picture.expand(iri);
    else if (byKey) {
      const page = pageOf(iri);
      if (page !== iri) route(page);
    }
  };

  return (
    <div class="lineage">
      <h1>{rootNode === undefined ? 'Lineage' : `Lineage of ${labelOf(rootNode)}`}</h1>
      {target === undefined ? (
        <TargetForm onChoose={(kind, id) => route(withQuery('/lineage', { [kind]: id, direction, depth }))} />
      ) : (
        <form class="toolbar" onSubmit={(event) => event.preventDefault()} aria-label="What to show">
          <div class="field">
            <label for="lg-direction">Direction</label>
            <select
              id="lg-direction"
              value={direction}
              onChange={(e) => setParam('direction', e.currentTarget.value)}
            >
              {DIRECTIONS.map(([value, text]) => (
                <option key={value} value={value}>
                  {text}
                </option>
              ))}
            </select>
          </div>
          <div class="field">
            <label for="lg-depth">Depth</label>
            <select
              id="lg-depth"
              value={String(depth)}
              onChange={(e) => setParam('depth', e.currentTarget.value)}
            >
              {DEPTHS.map((n) => (
                <option key={n} value={String(n)}>
                  {n === 1 ? '1 step' : `${n} steps`}
                </option>
              ))}
            </select>
          </div>
          {rootNode !== undefined && (
            <p class="lg-root-link">
              <a href={pageOf(rootNode.iri)}>Open the page of {labelOf(rootNode)}</a>
            </p>
          )}
        </form>
      )}
      {picture.loading && <Loading label="Loading the lineage…" />}
      {picture.error !== undefined && (
        <ErrorNotice error={picture.error} what={target?.kind === 'run' ? 'This run' : 'This artifact'} />
      )}
      {state?.truncated === true && (
        <div class="notice lg-truncated" role="status">
          <p>
            <strong>Truncated:</strong> this lineage was cut short (the registry answers with at most 250
            nodes), so some nodes and links are missing. Lower the depth, or centre the picture on a node
            further out.
          </p>
        </div>
      )}
      <p class="visually-hidden" role="status" aria-live="polite">
        {picture.message}
      </p>
      {picture.expandError !== undefined && <ErrorNotice error={picture.expandError} />}
      {state !== undefined && shown !== undefined && placement !== undefined && selectedIri !== undefined && (
        <>
          <p class="lg-help" id="lg-help">
            {shown.nodes.length === 1 ? '1 node shown' : `${shown.nodes.length} nodes shown`}
            {shown.hidden > 0 && `, ${shown.hidden} hidden behind collapsed nodes`}. Drag to pan, use the
            wheel or the buttons to zoom. Click a node, or Tab to the picture and press Enter, to expand it;
            arrow keys move between nodes, − collapses the node, and Enter on a node with nothing more to show
            opens its page.
          </p>
          <div class="lg-body">
            <GraphView
              placement={placement}
              root={state.root}
              selected={selectedIri}
              pictureKey={pictureKey}
              anchor={picture.anchor}
              hiddenBehind={shown.hiddenBehind}
              pending={picture.pending}
              expandable={expandable}
              onSelect={setSelected}
              onActivate={activate}
              onCollapse={picture.collapse}
            />
            <aside class="lg-aside" aria-label="Selected node">
              <Details
                state={state}
                iri={selectedIri}
                direction={direction}
                depth={depth}
                expandable={expandable(selectedIri)}
                pending={picture.pending.has(selectedIri)}
                hidden={shown.hiddenBehind.get(selectedIri)}
                wouldHide={wouldHide(state, selectedIri)}
                shown={shownIris}
                onSelect={setSelected}
                onExpand={picture.expand}
                onCollapse={picture.collapse}
              />
            </aside>
          </div>
          <Legend />
          <TextView
            state={state}
            nodes={shown.nodes}
            edges={shown.edges}
            hiddenBehind={shown.hiddenBehind}
            hidden={shown.hidden}
            expandable={expandable}
          />
        </>
      )}
    </div>
  );
}
