/**
 * `/types`: the artifact types this registry uses (minted, adopted, or cited by a record), and a search of
 * the vocabularies it holds, to find the IRI of a term before citing it. The search lives in the URL too.
 */
import { useLocation } from 'preact-iso';
import { isLocal, pageOf, useApi, withQuery, type ListPage, type TypeJson, type VocabHit } from '../api';
import { FilterForm, SelectFilter, TextFilter, useFilterDraft } from '../components/filters';
import { ExternalLink } from '../components/record-bits';
import { Empty, ErrorNotice, Loading, usePageTitle } from '../components/status';
import { RecordTable, type Column } from '../components/table';

const BRANCHES = [
  ['data', 'Artifact types'],
  ['topic', 'Research topics'],
  ['keyword', 'Keywords'],
] as const;

const TYPE_COLUMNS: readonly Column<TypeJson>[] = [
  {
    heading: 'Type',
    cell: (type) => (
      <>
        {isLocal(type.iri) ? (
          <a href={pageOf(type.iri)}>{type.label}</a>
        ) : (
          <ExternalLink href={type.iri}>{type.label}</ExternalLink>
        )}
        {type.adopted === true && <span class="badge">adopted</span>}
      </>
    ),
  },
  { heading: 'Definition', cell: (type) => type.definition ?? '—' },
  {
    heading: 'Media type',
    cell: (type) => (type.default_media_type === undefined ? '—' : <code>{type.default_media_type}</code>),
  },
  {
    heading: 'Artifacts',
    cell: (type) => (
      <a href={withQuery('/artifacts', { conforms_to: type.iri })}>
        {type.artifact_count ?? 0}
        <span class="visually-hidden"> artifacts of type {type.label}</span>
      </a>
    ),
  },
];

export default function TypeList() {
  usePageTitle('Types');
  const types = useApi<ListPage<TypeJson>>('/api/v1/types');
  return (
    <>
      <h1>Types</h1>
      <p class="lede">
        The artifact types in use here: minted by this registry, adopted, or cited by a record.
      </p>
      <RecordTable state={types} empty="No types are in use yet." columns={TYPE_COLUMNS} />
      <VocabularySearch />
    </>
  );
}

function VocabularySearch() {
  const { query } = useLocation();
  const q = (query.q ?? '').trim();
  const hits = useApi<ListPage<VocabHit>>(q.length < 2 ? null : '/api/v1/vocab/search', {
    q,
    branch: query.branch,
    limit: 50,
  });
  const draft = useFilterDraft(['q', 'branch']);
  return (
    <section aria-labelledby="vocabulary">
      <h2 id="vocabulary">Search the vocabularies</h2>
      <p>Find a term to cite as an artifact type or topic; records use its IRI as it is.</p>
      <FilterForm draft={draft} label="Search the vocabularies" button="Search terms">
        <TextFilter binding={draft.field('q')} label="Term (at least two characters)" />
        <SelectFilter
          binding={draft.field('branch')}
          label="Kind of term"
          options={BRANCHES}
          any="All kinds"
        />
      </FilterForm>
      {q.length < 2 ? null : hits.error !== undefined ? (
        <ErrorNotice error={hits.error} />
      ) : hits.data === undefined || hits.loading ? (
        <Loading label="Searching…" />
      ) : hits.data.items.length === 0 ? (
        <Empty>No term matches “{q}”.</Empty>
      ) : (
        <>
          <p class="status" role="status">
            {hits.data.total} term{hits.data.total === 1 ? '' : 's'} match “{q}”
          </p>
          <ul class="cards">
            {hits.data.items.map((hit) => (
              <li class="card" key={hit.iri}>
                <h3>
                  {isLocal(hit.iri) ? (
                    <a href={pageOf(hit.iri)}>{hit.label ?? hit.iri}</a>
                  ) : (
                    <ExternalLink href={hit.iri}>{hit.label ?? hit.iri}</ExternalLink>
                  )}
                </h3>
                {hit.definition !== undefined && <p>{hit.definition}</p>}
                <p class="meta">
                  <code>{hit.iri}</code> · source: {hit.source ?? 'unknown'}
                  {hit.branch !== undefined && (
                    <> · {BRANCHES.find(([b]) => b === hit.branch)?.[1] ?? hit.branch}</>
                  )}
                </p>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
