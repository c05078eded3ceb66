/**
 * The front page: what this registry is, how much it holds, a search box, and the newest software and
 * artifacts. The counts are the totals of the lists themselves, so they agree with what the lists show.
 */
import { useApi, pageOf, type ListPage, type ArtifactJson, type SoftwareJson } from '../api';
import { Availability } from '../components/badges';
import { FilterForm, TextFilter, useFilterDraft } from '../components/filters';
import { ListState } from '../components/load-state';
import { When } from '../components/record-bits';
import { ErrorNotice, usePageTitle } from '../components/status';
import { useRegistryInfo } from '../registry';

export default function Home() {
  usePageTitle(undefined);
  const info = useRegistryInfo();
  const software = useApi<ListPage<SoftwareJson>>('/api/v1/software', { limit: 5 });
  const artifacts = useApi<ListPage<ArtifactJson>>('/api/v1/artifacts', { limit: 5 });
  const instances = useApi<ListPage<unknown>>('/api/v1/instances', { limit: 1 });
  const runs = useApi<ListPage<unknown>>('/api/v1/runs', { limit: 1 });
  const search = useFilterDraft(['q'], '/search');
  const counts: readonly (readonly [string, string, number | undefined])[] = [
    ['/software', 'software', software.data?.total],
    ['/instances', 'deployments', instances.data?.total],
    ['/runs', 'runs', runs.data?.total],
    ['/artifacts', 'artifacts', artifacts.data?.total],
  ];
  return (
    <>
      <h1>{info?.title ?? 'Registry'}</h1>
      <p class="lede">
        Software, its releases and deployments, the runs they performed and the artifacts those runs produced
        and used.
        {info?.operator !== undefined && info.operator !== null && info.operator !== '' && (
          <> Operated by {info.operator}.</>
        )}
      </p>
      <FilterForm draft={search} label="Search the registry" button="Search">
        <TextFilter binding={search.field('q')} label="Search software, deployments, runs and artifacts" />
      </FilterForm>
      {software.error !== undefined ? (
        <ErrorNotice error={software.error} />
      ) : (
        <>
          <h2>What is here</h2>
          <ul class="counts">
            {counts.map(([href, noun, total]) => (
              <li key={href}>
                <a href={href}>
                  <strong>{total ?? '…'}</strong> {noun}
                </a>
              </li>
            ))}
            <li>
              <a href="/types">
                <strong>Types</strong> of artifact
              </a>
            </li>
          </ul>
          <h2>Newest software</h2>
          <ListState state={software} empty="No software is registered yet.">
            {(items) => (
              <ul>
                {items.map((item) => (
                  <li key={item.iri}>
                    <a href={pageOf(item.iri)}>{item.name}</a>
                    {item.tagline !== undefined && <> — {item.tagline}</>}
                  </li>
                ))}
              </ul>
            )}
          </ListState>
          <p>
            <a href="/software">All software</a>
          </p>
          <h2>Newest artifacts</h2>
          <ListState state={artifacts} empty="No artifacts are recorded yet.">
            {(items) => (
              <ul>
                {items.map((item) => (
                  <li key={item.iri}>
                    <a href={pageOf(item.iri)}>{item.title ?? item.id}</a>{' '}
                    <span class="meta">
                      {item.conforms_to?.label} · <When at={item.issued ?? item.created} /> ·{' '}
                      <Availability value={item.availability} brief />
                    </span>
                  </li>
                ))}
              </ul>
            )}
          </ListState>
          <p>
            <a href="/artifacts">All artifacts</a>
          </p>
        </>
      )}
    </>
  );
}
