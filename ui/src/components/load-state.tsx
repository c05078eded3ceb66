/** The frames of what shows one read: a record page, and a list with its loading, error and empty states. */
import type { ComponentChildren } from 'preact';
import { useRoute } from 'preact-iso';
import { useApi, type Loaded } from '../api';
import { Empty, ErrorNotice, Loading, usePageTitle } from './status';

/**
 * Renders `children(data)` once the read has answered. Until then (and while it reloads for another record)
 * the page keeps one `<h1>` naming what is coming, with the loading or error notice under it.
 */
function LoadState<T>({
  state,
  heading,
  what,
  children,
}: {
  state: Loaded<T>;
  heading: string;
  what: string;
  children: (data: T) => ComponentChildren;
}) {
  if (state.error !== undefined) {
    return (
      <>
        <h1>{heading}</h1>
        <ErrorNotice error={state.error} what={what} />
      </>
    );
  }
  if (state.data === undefined || state.loading) {
    return (
      <>
        <h1>{heading}</h1>
        <Loading />
      </>
    );
  }
  return <>{children(state.data)}</>;
}

/**
 * The page of one record named by the route's `:id`: reads `path(id)` (the id already URL-encoded), titles the
 * page after the record (`heading` until it has loaded, or when `title` gives nothing) and shows
 * `children(record)` once it is there. A missing record reads "This <heading> is not in this registry".
 */
export function RecordPage<T>({
  path,
  heading,
  title,
  children,
}: {
  path: (id: string) => string;
  heading: string;
  title: (record: T) => string | undefined;
  children: (record: T) => ComponentChildren;
}) {
  const { id = '' } = useRoute().params;
  const state = useApi<T>(path(encodeURIComponent(id)));
  usePageTitle(state.data === undefined ? heading : (title(state.data) ?? heading));
  return (
    <LoadState state={state} heading={heading} what={`This ${heading.toLowerCase()}`}>
      {children}
    </LoadState>
  );
}

/** A list read's states: an error, loading, `empty` when it has no items, else `children(items)`. */
export function ListState<T>({
  state,
  empty,
  children,
}: {
  state: Loaded<{ readonly items: readonly T[] }>;
  empty: ComponentChildren;
  children: (items: readonly T[]) => ComponentChildren;
}) {
  if (state.error !== undefined) return <ErrorNotice error={state.error} />;
  if (state.data === undefined) return <Loading />;
  if (state.data.items.length === 0) return <Empty>{empty}</Empty>;
  return <>{children(state.data.items)}</>;
}
