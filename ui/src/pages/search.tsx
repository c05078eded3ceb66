/**
 * `/search?q=&type=`: free-text search across software, deployments, runs and artifacts, narrowed to one kind
 * when asked, with the hits grouped by kind and each linking to its page.
 */
import { useLocation } from 'preact-iso';
import { useApi, type SearchAnswer, type SearchHit } from '../api';
import { FilterForm, SelectFilter, TextFilter, useFilterDraft } from '../components/filters';
import { RecordLink } from '../components/record-bits';
import { Empty, ErrorNotice, Loading, usePageTitle } from '../components/status';

/** The kinds the search covers, in the order the groups are shown, with their names in the plural. */
const KINDS = [
  ['software', 'Software'],
  ['instance', 'Deployments'],
  ['run', 'Runs'],
  ['artifact', 'Artifacts'],
] as const;

/** How many hits to ask for (the registry allows 1–100). */
const LIMIT = 100;

export default function Search() {
  const { query } = useLocation();
  const q = (query.q ?? '').trim();
  usePageTitle(q === '' ? 'Search' : `Search: ${q}`);
  const draft = useFilterDraft(['q', 'type']);
  const result = useApi<SearchAnswer>(q === '' ? null : '/api/v1/search', {
    q,
    type: query.type,
    limit: LIMIT,
  });
  return (
    <>
      <h1>Search</h1>
      <FilterForm draft={draft} label="Search the registry" button="Search">
        <TextFilter binding={draft.field('q')} label="Words to find" />
        <SelectFilter binding={draft.field('type')} label="Kind" options={KINDS} any="Everything" />
      </FilterForm>
      {q === '' ? (
        <Empty>Type a word or two: names, taglines, labels, titles and descriptions are searched.</Empty>
      ) : result.error !== undefined ? (
        <ErrorNotice error={result.error} />
      ) : result.data === undefined || result.loading ? (
        <Loading label="Searching…" />
      ) : (
        <Hits hits={result.data.hits} q={q} />
      )}
    </>
  );
}

function Hits({ hits, q }: { hits: readonly SearchHit[]; q: string }) {
  if (hits.length === 0) return <Empty>Nothing matches “{q}”.</Empty>;
  const groups = KINDS.map(([kind, name]) => [name, hits.filter((hit) => hit.entity_type === kind)] as const);
  return (
    <>
      <p class="status" role="status">
        {hits.length} result{hits.length === 1 ? '' : 's'} for “{q}”
        {hits.length === LIMIT && ' (the first hundred; add words to narrow it)'}
      </p>
      {groups
        .filter(([, members]) => members.length > 0)
        .map(([name, members]) => (
          <section key={name} aria-label={name}>
            <h2>
              {name} <span class="status">({members.length})</span>
            </h2>
            <ul class="cards">
              {members.map((hit) => (
                <li class="card" key={hit.iri}>
                  <h3>
                    <RecordLink iri={hit.iri} label={hit.title} />
                  </h3>
                  {hit.snippet !== undefined && <p>{hit.snippet}</p>}
                </li>
              ))}
            </ul>
          </section>
        ))}
    </>
  );
}
