/**
 * `/software`: the software list with free text, keyword and capability filters, facets (licence, kind,
 * topic) as checkboxes, and cursor paging; every filter lives in the URL. The registry takes one value per
 * filter and counts facets within the filtered list, so checking a value narrows the list to it.
 */
import { useLocation } from 'preact-iso';
import {
  pageOf,
  useApi,
  withQuery,
  type Facet,
  type ListPage,
  type TypeJson,
  type SoftwareJson,
} from '../api';
import { ActiveFilters, FilterForm, SelectFilter, TextFilter, useFilterDraft } from '../components/filters';
import { Badge } from '../components/badges';
import { useListRead } from '../components/list-page';
import { Pager, ResultCount } from '../components/pager';
import { Empty, ErrorNotice, Loading, usePageTitle } from '../components/status';

const FACET_NAMES: Readonly<Record<string, string>> = { license: 'Licence', kind: 'Kind', topic: 'Topic' };
const FILTERS: Readonly<Record<string, string>> = {
  q: 'Text',
  keyword: 'Keyword',
  produces: 'Produces',
  consumes: 'Consumes',
  publisher: 'Publisher',
  registry: 'Registry',
  ...FACET_NAMES,
};

export default function SoftwareList() {
  usePageTitle('Software');
  const list = useListRead<ListPage<SoftwareJson>>('/api/v1/software', Object.keys(FILTERS));
  const draft = useFilterDraft(['q', 'keyword', 'produces', 'consumes']);
  const facets = list.data?.facets ?? [];
  const labelOf = (name: string, value: string) =>
    facets.find((facet) => facet.name === name)?.values.find((v) => v.value === value)?.label ?? value;
  // One read of the types serves both capability filters.
  const types = useApi<ListPage<TypeJson>>('/api/v1/types');
  const typeOptions = (types.data?.items ?? []).map((type) => [type.iri, type.label] as const);
  return (
    <>
      <h1>Software</h1>
      <FilterForm draft={draft} label="Filter software">
        <TextFilter binding={draft.field('q')} label="Name or description" />
        <TextFilter binding={draft.field('keyword')} label="Keyword" />
        <SelectFilter binding={draft.field('produces')} label="Produces" options={typeOptions} />
        <SelectFilter binding={draft.field('consumes')} label="Consumes" options={typeOptions} />
      </FilterForm>
      <ActiveFilters names={FILTERS} describe={labelOf} />
      {list.error !== undefined ? (
        <ErrorNotice error={list.error} />
      ) : list.data === undefined ? (
        <Loading />
      ) : (
        <div class="with-facets">
          <Facets facets={facets} />
          <section aria-label="Results">
            <ResultCount total={list.data.total} one="software" many="software" />
            {list.loading && <Loading label="Updating…" />}
            {list.data.items.length === 0 ? (
              <Empty>No software matches these filters.</Empty>
            ) : (
              <ul class="cards">
                {list.data.items.map((item) => (
                  <SoftwareCard key={item.iri} software={item} />
                ))}
              </ul>
            )}
            <Pager shown={list.data.items.length} total={list.data.total} next={list.data.next_cursor} />
          </section>
        </div>
      )}
    </>
  );
}

/** Each facet as a group of checkboxes; checking one filters by it, unchecking lifts that filter. */
function Facets({ facets }: { facets: readonly Facet[] }) {
  const { path, query, route } = useLocation();
  const toggle = (name: string, value: string, checked: boolean) =>
    route(withQuery(path, { ...query, cursor: undefined, [name]: checked ? value : undefined }));
  return (
    <aside class="facets" aria-label="Narrow by">
      {facets.map((facet) => {
        const chosen = query[facet.name];
        const values = [...facet.values];
        // A chosen value that matches nothing is still shown, so it can be unchecked.
        if (chosen !== undefined && !values.some((v) => v.value === chosen))
          values.unshift({ value: chosen, label: chosen, count: 0 });
        if (values.length === 0) return null;
        return (
          <fieldset key={facet.name}>
            <legend>{FACET_NAMES[facet.name] ?? facet.name}</legend>
            <ul>
              {values.map((v) => (
                <li key={v.value}>
                  <label>
                    <input
                      type="checkbox"
                      checked={chosen === v.value}
                      onChange={(event) => toggle(facet.name, v.value, event.currentTarget.checked)}
                    />
                    <span>
                      {v.label ?? v.value} <span class="status">({v.count})</span>
                    </span>
                  </label>
                </li>
              ))}
            </ul>
          </fieldset>
        );
      })}
    </aside>
  );
}

function SoftwareCard({ software }: { software: SoftwareJson }) {
  return (
    <li class="card">
      <h2>
        <a href={pageOf(software.iri)}>{software.name}</a>
      </h2>
      {software.tagline !== undefined && <p>{software.tagline}</p>}
      <p class="meta">
        {(software.kinds ?? []).map((kind) => (
          <Badge key={kind} of="kind" value={kind} />
        ))}
        {software.license_label !== undefined && <> · {software.license_label}</>}
        {software.latest_release !== undefined && <> · latest release {software.latest_release.version}</>}
        {software.instance_count !== undefined && (
          <>
            {' '}
            · {software.instance_count} deployment{software.instance_count === 1 ? '' : 's'}
          </>
        )}
      </p>
    </li>
  );
}
