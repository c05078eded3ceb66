/** The frame of a page that shows one read: its heading while loading or failed, then the page itself. */
import type { ComponentChildren } from 'preact';
import type { Loaded } from '../api';
import { ErrorNotice, Loading } from './status';

/**
 * Renders `children(data)` once the read has answered. Until then (and while it reloads for another record)
 * the page keeps one `<h1>` naming what is coming, with the loading or error notice under it.
 */
export function LoadState<T>({
  state,
  heading,
  what,
  children,
}: {
  state: Loaded<T>;
  heading: string;
  what?: string;
  children: (data: T) => ComponentChildren;
}) {
  if (state.error !== undefined) {
    return (
      <>
        <h1>{heading}</h1>
        <ErrorNotice error={state.error} {...(what === undefined ? {} : { what })} />
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
