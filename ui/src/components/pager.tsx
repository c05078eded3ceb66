/**
 * Cursor paging for the lists: the registry hands out the cursor of the next page only, so the pager offers
 * "Next page" and a way back to the first; the browser's back button walks the pages in between.
 */
import { useLocation } from 'preact-iso';
import { withQuery } from '../api';

/** The query parameters of paging, passed through to the list read (`limit` sets the page size). */
export const PAGING = ['cursor', 'limit'] as const;

export function Pager({
  shown,
  total,
  next,
}: {
  shown: number;
  total?: number | undefined;
  next?: string | undefined;
}) {
  const { path, query } = useLocation();
  const paged = (query.cursor ?? '') !== '';
  if (!paged && next === undefined) return null;
  return (
    <nav class="toolbar" aria-label="Pages">
      <span class="status">
        Showing {shown}
        {total === undefined ? '' : ` of ${total}`}
        {paged ? ' (a later page)' : ''}
      </span>
      {paged && <a href={withQuery(path, { ...query, cursor: undefined })}>First page</a>}
      {next !== undefined && (
        <a href={withQuery(path, { ...query, cursor: next })} onClick={() => window.scrollTo(0, 0)}>
          Next page
        </a>
      )}
    </nav>
  );
}

/** How many results a list holds (`one` and `many` name them), announced politely when it changes. */
export function ResultCount({ total, one, many }: { total: number | undefined; one: string; many: string }) {
  if (total === undefined) return null;
  return (
    <p class="status" role="status">
      {total} {total === 1 ? one : many}
    </p>
  );
}
