/**
 * `/lineage?artifact=<id>` or `/lineage?run=<id>` (with `direction`, `depth`, `versions=all` to show every
 * version of a dataset apart, and `max_nodes` for the size of each answer): the lineage around an artifact or a
 * run as a left-to-right picture, upstream on the left, fitted into view. Versions of a dataset are grouped into
 * one node unless asked otherwise; nodes expand on demand and collapse; a partial answer is continued page by
 * page with "Load more". The selected node's details sit beside the picture, and the whole picture is also given
 * as text.
 */
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { pageOf, withQuery } from '../api';
import { ErrorNotice, Loading, usePageTitle } from '../components/status';
import { Details } from './details';
import type { Direction } from './fetch';
import { GraphView } from './graph-view';
import { place } from './layout';
import { Legend } from './legend';
import { canExpand, isGroup, labelOf, nodeIriOf, pageOfNode, visible, wouldHide } from './model';
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

/** Most nodes per answer when the address asks (2–2000, as the registry takes it), else the registry's default. */
function maxNodesOf(value: string | undefined): number | undefined {
  const n = Number(value);
  return value !== undefined && value !== '' && Number.isInteger(n)
    ? Math.min(2000, Math.max(2, n))
    : undefined;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** A dataset whose versions the reader asked to see: they are marked and framed in the picture of every version. */
interface OpenedDataset {
  /** The picture it was opened for. */
  readonly picture: string;
  readonly label: string;
  readonly versions: readonly string[];
}

/** What makes a picture: a new one is loaded and fitted when this changes. */
function pictureKeyOf(
  target: { kind: string; id: string } | undefined,
  direction: Direction,
  depth: number,
  datasets: boolean,
  maxNodes: number | undefined,
): string {
  return JSON.stringify([target?.kind, target?.id, direction, depth, datasets, maxNodes]);
}

export default function LineagePage() {
  const { query, route } = useLocation();
  const target = targetOf(query);
  const direction = directionOf(query.direction);
  const depth = depthOf(query.depth);
  const datasets = query.versions !== 'all';
  const maxNodes = maxNodesOf(query.max_nodes);
  const picture = useLineage(target, direction, depth, { datasets, maxNodes });
  const { state } = picture;
  const [selected, setSelected] = useState<string>();
  const [opened, setOpened] = useState<OpenedDataset>();
  const rootNode = state?.nodes.get(state.root);
  usePageTitle(rootNode === undefined ? 'Lineage' : `Lineage of ${labelOf(rootNode)}`);

  const shown = useMemo(() => (state === undefined ? undefined : visible(state)), [state]);
  const placement = useMemo(
    () => (shown === undefined ? undefined : place(shown.nodes, shown.edges)),
    [shown],
  );

  const pictureKey = pictureKeyOf(target, direction, depth, datasets, maxNodes);
  const shownIris = useMemo(() => new Set(shown?.nodes.map((node) => node.iri)), [shown]);
  // An opened dataset's versions are marked in the picture of every version it was opened for.
  const marks = useMemo(() => {
    if (opened === undefined || opened.picture !== pictureKey) return undefined;
    const found = opened.versions.filter((version) => shownIris.has(version));
    if (found.length === 0) return undefined;
    return new Map(
      found.map((version, n) => {
        const text = `version ${n + 1} of ${found.length}`;
        return [version, { text, spoken: `${text} of ${opened.label}` }] as const;
      }),
    );
  }, [opened, pictureKey, shownIris]);
  const firstMarked = marks === undefined ? undefined : [...marks.keys()][0];

  const chosen = selected === undefined || state === undefined ? selected : nodeIriOf(state, selected);
  const selectedIri = chosen !== undefined && shownIris.has(chosen) ? chosen : (firstMarked ?? state?.root);
  const expandable = (iri: string) =>
    state !== undefined && shown !== undefined && canExpand(state, iri, shown.hiddenBehind);
  const hasVersions = (iri: string) => {
    const node = state?.nodes.get(iri);
    return node !== undefined && isGroup(node);
  };

  const setParam = (name: string, value: string | undefined) => {
    const next = { ...query, [name]: value };
    setOpened(undefined);
    route(withQuery('/lineage', next), true);
  };

  /** Shows every version apart, with those of this dataset marked and framed. */
  const showVersions = (iri: string) => {
    const node = state?.nodes.get(iri);
    if (node === undefined || !isGroup(node)) return;
    setOpened({
      picture: pictureKeyOf(target, direction, depth, false, maxNodes),
      label: labelOf(node),
      versions: node.versions ?? [],
    });
    setSelected(undefined);
    route(withQuery('/lineage', { ...query, versions: 'all' }));
  };

  const activate = (iri: string, byKey: boolean) => {
    setSelected(iri);
    if (state === undefined) return;
    if (expandable(iri)) picture.expand(iri);
    else if (byKey) {
      const node = state.nodes.get(iri);
      if (node !== undefined && isGroup(node)) showVersions(iri);
      else {
        const page = node === undefined ? undefined : pageOfNode(node);
        if (page !== undefined && page !== iri) route(page);
      }
    }
  };

  // When the last page arrives, the "Load more" button goes: the focus it had moves to the count of nodes.
  const help = useRef<HTMLParagraphElement>(null);
  const more = state?.more.length ?? 0;
  const hadMore = useRef(false);
  useEffect(() => {
    if (hadMore.current && more === 0 && document.activeElement === document.body) help.current?.focus();
    hadMore.current = more > 0;
  }, [more]);

  const versionsNote =
    marks === undefined
      ? undefined
      : `Showing every version apart: the ${plural(marks.size, 'version')} of ${opened?.label ?? ''} are marked.`;

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
          <div class="field">
            <label for="lg-versions">Versions</label>
            <select
              id="lg-versions"
              value={datasets ? 'datasets' : 'all'}
              onChange={(e) => setParam('versions', e.currentTarget.value === 'all' ? 'all' : undefined)}
            >
              <option value="datasets">Grouped into their datasets</option>
              <option value="all">Every version apart</option>
            </select>
          </div>
          {state !== undefined && rootNode !== undefined && (
            <p class="lg-root-link">
              <a href={pageOf(state.centre)}>Open the page of {labelOf(rootNode)}</a>
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
            <strong>Truncated:</strong> some of this lineage was left out (an answer was cut short, or a run
            had too many inputs and outputs to follow them all), so some nodes and links are missing. Lower
            the depth, or centre the picture on a node further out.
          </p>
        </div>
      )}
      <p class="visually-hidden" role="status" aria-live="polite">
        {picture.message !== '' ? picture.message : (versionsNote ?? '')}
      </p>
      {picture.expandError !== undefined && <ErrorNotice error={picture.expandError} />}
      {state !== undefined && shown !== undefined && placement !== undefined && selectedIri !== undefined && (
        <>
          <p class="lg-help" id="lg-help" ref={help} tabIndex={-1}>
            <span class="lg-count">
              {plural(shown.nodes.length, 'node')} shown
              {shown.hidden > 0 && `, ${shown.hidden} hidden behind collapsed nodes`}
              {more > 0 && ', more to load'}.
            </span>{' '}
            Drag to pan, use the wheel or the buttons to zoom, and “Fit to view” to see it all. Click a node,
            or Tab to the picture and press Enter, to expand it; arrow keys move between nodes, − collapses
            the node, V shows the versions of a dataset, and Enter on a node with nothing more to show opens
            its page.
          </p>
          {more > 0 && (
            <div class="notice lg-partial">
              <p id="lg-partial-text">
                <strong>Partial:</strong> the registry gave this lineage in parts, and{' '}
                {plural(shown.nodes.length + shown.hidden, 'node')} of it are loaded so far.
              </p>
              <button
                type="button"
                onClick={picture.loadMore}
                aria-describedby="lg-partial-text"
                aria-disabled={picture.loadingMore ? 'true' : undefined}
              >
                {picture.loadingMore ? 'Loading more…' : 'Load more'}
              </button>
            </div>
          )}
          {versionsNote !== undefined && (
            <div class="notice lg-versions-note">
              <p>{versionsNote}</p>
              <button type="button" class="secondary" onClick={() => setParam('versions', undefined)}>
                Group versions into datasets
              </button>
            </div>
          )}
          <div class="lg-body">
            <GraphView
              placement={placement}
              root={state.root}
              selected={selectedIri}
              pictureKey={pictureKey}
              anchor={picture.anchor}
              hiddenBehind={shown.hiddenBehind}
              pending={picture.pending}
              marks={marks}
              focusOn={firstMarked}
              expandable={expandable}
              hasVersions={hasVersions}
              onSelect={setSelected}
              onActivate={activate}
              onCollapse={picture.collapse}
              onShowVersions={showVersions}
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
                onShowVersions={showVersions}
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
            onShowVersions={showVersions}
          />
        </>
      )}
    </div>
  );
}
