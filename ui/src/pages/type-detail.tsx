/**
 * `/type/:id`: one artifact type minted or held here, the newest artifacts of that type, and the software
 * and deployments that declared they produce or consume it.
 */
import {
  isLocal,
  useApi,
  withQuery,
  type ListPage,
  type ArtifactJson,
  type TypeJson,
  type CapabilityMatches,
} from '../api';
import { ListState, RecordPage } from '../components/load-state';
import { ArtifactTable, MoreLink } from '../components/record-sections';
import { DataLinks, Fields, RecordLink } from '../components/record-bits';

/** How many artifacts the page shows before pointing at the filtered list. */
const NEWEST = 10;

export default function TypeDetail() {
  return (
    <RecordPage<TypeJson> path={(id) => `/api/v1/types/${id}`} heading="Type" title={(type) => type.label}>
      {(type) => <TypeView type={type} />}
    </RecordPage>
  );
}

function TypeView({ type }: { type: TypeJson }) {
  const artifacts = useApi<ListPage<ArtifactJson>>('/api/v1/artifacts', {
    conforms_to: type.iri,
    limit: NEWEST,
  });
  return (
    <>
      <h1>{type.label}</h1>
      {type.definition !== undefined && <p class="lede">{type.definition}</p>}
      <Fields
        rows={[
          ['Default media type', type.default_media_type && <code>{type.default_media_type}</code>],
          ['Source', type.adopted === true ? 'adopted from another vocabulary' : type.source],
          ['Artifacts', String(type.artifact_count ?? 0)],
          ['IRI', <code>{type.iri}</code>],
        ]}
      />
      {isLocal(type.iri) && <DataLinks iri={type.iri} />}
      <h2>Newest artifacts of this type</h2>
      <ArtifactTable state={artifacts} empty="No artifact of this type is recorded." />
      <MoreLink
        total={artifacts.data?.total}
        shown={NEWEST}
        href={withQuery('/artifacts', { conforms_to: type.iri })}
      >
        All {artifacts.data?.total} artifacts of this type
      </MoreLink>
      <h2>Produced by</h2>
      <Declared role="produces" iri={type.iri} />
      <h2>Consumed by</h2>
      <Declared role="consumes" iri={type.iri} />
    </>
  );
}

/** Software, releases and deployments that declared this type in their capability. */
function Declared({ role, iri }: { role: 'produces' | 'consumes'; iri: string }) {
  const matches = useApi<CapabilityMatches>('/api/v1/capabilities', { [role]: iri });
  return (
    <ListState
      state={matches}
      empty={<>Nothing declares that it {role === 'produces' ? 'produces' : 'consumes'} this type.</>}
    >
      {(items) => (
        <ul>
          {items.map((match) => (
            <li key={match.iri}>
              <RecordLink iri={match.iri} label={match.name} />{' '}
              <span class="status">
                ({match.entity_type === 'instance' ? 'deployment' : match.entity_type})
              </span>
            </li>
          ))}
        </ul>
      )}
    </ListState>
  );
}
