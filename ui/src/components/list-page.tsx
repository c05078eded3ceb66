/**
 * The frame of a filtered, paged list of records (`/instances`, `/runs`, `/artifacts`). Its filters live in the
 * URL query, and the list read takes them as they stand there, together with the paging parameters.
 */
import type { ComponentChildren, ComponentType } from 'preact';
import { useLocation } from 'preact-iso';
import { useApi, type Loaded, type ListPage } from '../api';
import { ActiveFilters, FilterForm, useFilterDraft, type FilterDraft } from './filters';
import { PAGING, Pager, ResultCount } from './pager';
import { Loading, usePageTitle } from './status';

/** Reads the list at `path` with the query parameters `names`, and the paging ones, as the URL has them. */
export function useListRead<L extends ListPage<unknown>>(path: string, names: readonly string[]): Loaded<L> {
  const { query } = useLocation();
  return useApi<L>(path, Object.fromEntries([...names, ...PAGING].map((name) => [name, query[name]])));
}

/**
 * A list page. `filters` names every parameter the list takes (shown in force even without an input of their
 * own); `inputs` are those the form edits, with `children(draft)` as its fields; `one` and `many` name the
 * records in the count, the form's label and the empty message.
 */
export function ListPage<T>({
  title,
  path,
  filters,
  inputs,
  one,
  many,
  table: ListTable,
  children,
}: {
  title: string;
  path: string;
  filters: Readonly<Record<string, string>>;
  inputs: readonly string[];
  one: string;
  many: string;
  table: ComponentType<{ state: Loaded<ListPage<T>>; empty: string }>;
  children: (draft: FilterDraft) => ComponentChildren;
}) {
  usePageTitle(title);
  const list = useListRead<ListPage<T>>(path, Object.keys(filters));
  const draft = useFilterDraft(inputs);
  return (
    <>
      <h1>{title}</h1>
      <FilterForm draft={draft} label={`Filter ${many}`}>
        {children(draft)}
      </FilterForm>
      <ActiveFilters names={filters} />
      <ResultCount total={list.data?.total} one={one} many={many} />
      {list.loading && list.data !== undefined && <Loading label="Updating…" />}
      <ListTable state={list} empty={`No ${many} match these filters.`} />
      {list.data !== undefined && (
        <Pager shown={list.data.items.length} total={list.data.total} next={list.data.next_cursor} />
      )}
    </>
  );
}
