/**
 * `/type/:id`: one artifact type minted or held here, the newest artifacts of that type, and the software
 * and deployments that declared they produce or consume it.
 */
import { useRoute } from 'preact-iso';
import { isLocal, useApi, withQuery, type Page } from '../api';
import { LoadState } from '../components/load-state';
import { ArtifactTable } from '../components/record-sections';
import { DataLinks, Fields, RecordLink } from '../components/record-bits';
import type { Artifact, ArtifactType, CapabilityMatch } from '../components/record-types';
import { Empty, ErrorNotice, Loading, usePageTitle } from '../components/status';

const NEWEST = 10;

export default function TypeDetail() {
  const { id = '' } = useRoute().params;
  const type = useApi<ArtifactType>(`/api/v1/types/${encodeURIComponent(id)}`);
  usePageTitle(type.data?.label ?? 'Type');
  return (
    <LoadState state={type} heading="Type" what="This type">
      {(record) => <TypeView type={record} />}
    </LoadState>
  );
}

function TypeView({ type }: { type: ArtifactType }) {
  const artifacts = useApi<Page<Artifact>>('/api/v1/artifacts', { conforms_to: type.iri, limit: NEWEST });
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
      {(artifacts.data?.total ?? 0) > NEWEST && (
        <p>
          <a href={withQuery('/artifacts', { conforms_to: type.iri })}>
            All {artifacts.data?.total} artifacts of this type
          </a>
        </p>
      )}
      <h2>Produced by</h2>
      <Declared role="produces" iri={type.iri} />
      <h2>Consumed by</h2>
      <Declared role="consumes" iri={type.iri} />
    </>
  );
}

/** Software, releases and deployments that declared this type in their capability. */
function Declared({ role, iri }: { role: 'produces' | 'consumes'; iri: string }) {
  const matches = useApi<{ items: CapabilityMatch[] }>('/api/v1/capabilities', { [role]: iri });
  if (matches.error !== undefined) return <ErrorNotice error={matches.error} />;
  if (matches.data === undefined) return <Loading />;
  if (matches.data.items.length === 0)
    return <Empty>Nothing declares that it {role === 'produces' ? 'produces' : 'consumes'} this type.</Empty>;
  return (
    <ul>
      {matches.data.items.map((match) => (
        <li key={match.iri}>
          <RecordLink iri={match.iri} label={match.name ?? match.label ?? match.version} />{' '}
          <span class="status">({match.entity_type === 'instance' ? 'deployment' : match.entity_type})</span>
        </li>
      ))}
    </ul>
  );
}
