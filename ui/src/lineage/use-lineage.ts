/**
 * The state of one lineage picture: the first load around an artifact or a run, then expansions (fetch a node's
 * neighbourhood and merge it), collapses, and the further pages of partial answers, as the reader asks. Answers
 * that arrive for an older picture are dropped.
 */
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { type ApiError, asApiError } from '../api';
import { session } from '../session';
import {
  type Fragment,
  type LineageState,
  collapse,
  collapseLargePicture,
  initialState,
  labelOf,
  merge,
  nodeIriOf,
  reveal,
  visible,
} from './model';
import {
  type AskOptions,
  type Direction,
  fragmentOfLineage,
  loadLineage,
  loadRun,
  neighbourhood,
  nextPage,
  runPicture,
} from './fetch';

/** What the picture is centred on. */
export interface Target {
  readonly kind: 'artifact' | 'run';
  readonly id: string;
}

export interface LineagePicture {
  readonly state: LineageState | undefined;
  readonly error: ApiError | undefined;
  readonly loading: boolean;
  /** Nodes whose neighbourhood is being fetched. */
  readonly pending: ReadonlySet<string>;
  /** The next pages of partial answers are being fetched. */
  readonly loadingMore: boolean;
  /** The outcome of the last expansion, collapse or page, for a live region. */
  readonly message: string;
  /** A failed expansion or page. */
  readonly expandError: ApiError | undefined;
  /** The node to keep in place when the layout changes. */
  readonly anchor: string | undefined;
  readonly expand: (iri: string) => void;
  readonly collapse: (iri: string) => void;
  /** Fetches the next page of every partial answer and merges it in. */
  readonly loadMore: () => void;
}

async function firstPicture(
  target: Target,
  direction: Direction,
  depth: number,
  ask: AskOptions,
): Promise<LineageState> {
  if (target.kind === 'artifact') {
    const lineage = await loadLineage(target.id, direction, depth, ask);
    const fragment = fragmentOfLineage(lineage, target.id, depth);
    // With versions grouped, the artifact asked for stands in the picture as its dataset.
    const root = fragment.nodes.find(
      (node) => node.iri === lineage.root || node.versions?.includes(lineage.root) === true,
    ) ?? { iri: lineage.root, kind: 'artifact' as const, unresolved: false };
    const state = merge(
      { ...initialState(root), centre: lineage.root },
      { ...fragment, fetched: [...fragment.fetched, root.iri] },
    );
    return collapseLargePicture(state);
  }
  const run = await loadRun(target.id);
  const fragments = await runPicture(run, direction, depth, ask);
  let state = initialState({
    iri: run.iri,
    kind: 'run',
    ...(run.label === undefined ? {} : { title: run.label }),
    ...(run.origin === undefined ? {} : { origin: run.origin }),
    unresolved: false,
  });
  for (const fragment of fragments) state = merge(state, fragment);
  return collapseLargePicture(merge(state, { nodes: [], edges: [], fetched: [run.iri], truncated: false }));
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

export function useLineage(
  target: Target | undefined,
  direction: Direction,
  depth: number,
  ask: AskOptions,
): LineagePicture {
  const credential = session.useToken();
  const [state, setState] = useState<LineageState>();
  const current = useRef<LineageState>();
  const [error, setError] = useState<ApiError>();
  const [loading, setLoading] = useState(false);
  const [pending, setPending] = useState<ReadonlySet<string>>(new Set());
  const [loadingMore, setLoadingMore] = useState(false);
  /** Set while pages are fetched, so that a second click before the next render fetches nothing twice. */
  const fetchingMore = useRef(false);
  const [message, setMessage] = useState('');
  const [expandError, setExpandError] = useState<ApiError>();
  const [anchor, setAnchor] = useState<string>();
  const generation = useRef(0);
  const { datasets, maxNodes } = ask;

  const commit = useCallback((next: LineageState | undefined) => {
    current.current = next;
    setState(next);
  }, []);

  useEffect(() => {
    const mine = ++generation.current;
    commit(undefined);
    setError(undefined);
    setExpandError(undefined);
    setMessage('');
    setPending(new Set());
    setLoadingMore(false);
    fetchingMore.current = false;
    setAnchor(undefined);
    if (target === undefined) {
      setLoading(false);
      return;
    }
    setLoading(true);
    firstPicture(target, direction, depth, { datasets, maxNodes }).then(
      (picture) => {
        if (mine !== generation.current) return;
        commit(picture);
        setLoading(false);
      },
      (failure: unknown) => {
        if (mine !== generation.current) return;
        setError(asApiError(failure));
        setLoading(false);
      },
    );
  }, [target?.kind, target?.id, direction, depth, datasets, maxNodes, credential, commit]);

  const fetchAround = useCallback(
    (iri: string) => {
      const mine = generation.current;
      const before = current.current;
      if (before === undefined) return;
      setPending((set) => new Set([...set, iri]));
      setExpandError(undefined);
      const label = labelOf(before.nodes.get(iri) ?? { iri, kind: 'unknown', unresolved: true });
      const done = () =>
        setPending((set) => {
          const rest = new Set(set);
          rest.delete(iri);
          return rest;
        });
      neighbourhood(before, iri, direction, { datasets, maxNodes }).then(
        (fragment: Fragment) => {
          if (mine !== generation.current || current.current === undefined) return;
          const size = current.current.nodes.size;
          const next = merge(current.current, { ...fragment, fetched: [...fragment.fetched, iri] });
          setAnchor(nodeIriOf(next, iri));
          commit(next);
          const added = next.nodes.size - size;
          setMessage(
            added > 0 ? `Added ${plural(added, 'node')} around ${label}.` : `Nothing more around ${label}.`,
          );
          done();
        },
        (failure: unknown) => {
          if (mine !== generation.current) return;
          setExpandError(asApiError(failure));
          setMessage(`Could not expand ${label}.`);
          done();
        },
      );
    },
    [direction, datasets, maxNodes, commit],
  );

  const expand = useCallback(
    (iri: string) => {
      const now = current.current;
      if (now === undefined) return;
      if (now.limits.has(iri)) {
        const before = visible(now).nodes.length;
        const next = reveal(now, iri);
        setAnchor(iri);
        commit(next);
        const more = visible(next).nodes.length - before;
        if (more > 0)
          setMessage(`Showing ${plural(more, 'more node')} through ${labelOf(now.nodes.get(iri)!)}.`);
      }
      if (!now.fetched.has(iri)) fetchAround(iri);
    },
    [commit, fetchAround],
  );

  const hide = useCallback(
    (iri: string) => {
      const now = current.current;
      if (now === undefined || iri === now.root) return;
      setAnchor(iri);
      commit(collapse(now, iri));
      setMessage(`Collapsed ${labelOf(now.nodes.get(iri)!)}.`);
    },
    [commit],
  );

  const loadMore = useCallback(() => {
    const now = current.current;
    if (now === undefined || now.more.length === 0 || fetchingMore.current) return;
    const mine = generation.current;
    fetchingMore.current = true;
    setLoadingMore(true);
    setExpandError(undefined);
    Promise.all(now.more.map((more) => nextPage(more, { datasets, maxNodes }))).then(
      (pages) => {
        if (mine !== generation.current || current.current === undefined) return;
        fetchingMore.current = false;
        // The pages replace the continuations they were fetched with; partial ones bring their own.
        let next: LineageState = { ...current.current, more: [] };
        for (const page of pages) next = merge(next, page);
        const added = next.nodes.size - current.current.nodes.size;
        setAnchor(undefined);
        commit(next);
        const shown = visible(next).nodes.length;
        setMessage(
          `Loaded ${plural(added, 'more node')}; ${plural(shown, 'node')} shown` +
            (next.more.length > 0 ? '; more remain to load.' : '; the whole lineage is loaded.'),
        );
        setLoadingMore(false);
      },
      (failure: unknown) => {
        if (mine !== generation.current) return;
        fetchingMore.current = false;
        setExpandError(asApiError(failure));
        setMessage('Could not load more of the lineage.');
        setLoadingMore(false);
      },
    );
  }, [datasets, maxNodes, commit]);

  return {
    state,
    error,
    loading,
    pending,
    loadingMore,
    message,
    expandError,
    anchor,
    expand,
    collapse: hide,
    loadMore,
  };
}
