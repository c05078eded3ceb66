/**
 * `/software/:id`: one software with every field, its capability, releases, deployments, API descriptions and
 * README (rendered safely), with links to manage it for curators.
 */
import {
  pageOf,
  useApi,
  withQuery,
  type ListPage,
  type InstanceJson,
  type ReleaseJson,
  type SoftwareJson,
} from '../api';
import { RecordPage } from '../components/load-state';
import { Markdown } from '../components/markdown';
import { ObservedCapability } from '../components/observed-capability';
import { CapabilityView, DeploymentTable, MoreLink, ReleaseTable } from '../components/record-sections';
import { DeploymentOverview } from '../components/deployment-overview';
import {
  AgentView,
  ExternalLink,
  RecordFields,
  some,
  Terms,
  When,
  Withdrawn,
  Words,
} from '../components/record-bits';
import { session } from '../session';

export default function SoftwareDetail() {
  return (
    <RecordPage<SoftwareJson>
      path={(id) => `/api/v1/software/${id}`}
      heading="Software"
      title={(software) => software.name}
    >
      {(software) => <SoftwareView software={software} />}
    </RecordPage>
  );
}

function SoftwareView({ software }: { software: SoftwareJson }) {
  const principal = session.usePrincipal();
  const releases = useApi<ListPage<ReleaseJson>>(`/api/v1/software/${software.id}/releases`);
  const deployments = useApi<ListPage<InstanceJson>>('/api/v1/instances', {
    software: software.id,
    limit: 50,
  });
  const apiDocs = software.api_docs ?? [];
  return (
    <>
      <h1>{software.name}</h1>
      {software.tagline !== undefined && <p class="lede">{software.tagline}</p>}
      {software.tombstoned === true && <Withdrawn what="software" />}
      {principal.is_curator && (
        <nav class="toolbar" aria-label="Manage this software">
          <a class="button secondary" href={`/software/${software.id}/edit`}>
            Edit
          </a>
          <a class="button secondary" href={`/software/${software.id}/releases/new`}>
            New release
          </a>
          <a class="button secondary" href={`/software/${software.id}/tokens`}>
            Tokens
          </a>
          <a class="button secondary" href={withQuery('/instances/new', { software: software.id })}>
            New deployment
          </a>
        </nav>
      )}
      {software.description !== undefined && <p>{software.description}</p>}
      <SoftwareFields software={software} />

      <h2>Capability</h2>
      <CapabilityView capability={software.capability} />

      <h2>Observed capability</h2>
      <ObservedCapability kind="software" id={software.id} />

      <h2>Releases</h2>
      <ReleaseTable state={releases} />

      <h2>What runs where</h2>
      <DeploymentOverview id={software.id} />

      <h2>Deployments</h2>
      <DeploymentTable state={deployments} empty="No deployments of this software are registered." />
      <MoreLink
        total={deployments.data?.total}
        shown={deployments.data?.items.length ?? 0}
        href={withQuery('/instances', { software: software.id })}
      >
        All deployments of {software.name}
      </MoreLink>
      <p>
        <a href={withQuery('/runs', { software: software.id })}>Runs of {software.name}</a> ·{' '}
        <a href={withQuery('/artifacts', { software: software.id })}>Artifacts of {software.name}</a>
      </p>

      {apiDocs.length > 0 && (
        <>
          <h2>API descriptions</h2>
          <ul>
            {apiDocs.map((doc, n) => (
              <li key={doc.url}>
                {/* A full page load: the registry serves the fetched description, not the app. */}
                <a href={withQuery(`/api/v1/software/${software.id}/api-doc`, { n })} target="_top">
                  {doc.title ?? doc.url}
                </a>
                {doc.format !== undefined && <span class="status"> ({doc.format})</span>}
                {doc.description !== undefined && <> — {doc.description}</>} · source:{' '}
                <ExternalLink href={doc.url} />
              </li>
            ))}
          </ul>
        </>
      )}

      {software.readme !== undefined && software.readme.trim() !== '' && (
        <section aria-labelledby="readme">
          <h2 id="readme">README</h2>
          <Markdown source={software.readme} base={software.readme_base_url} label="the README" />
        </section>
      )}
    </>
  );
}

function SoftwareFields({ software }: { software: SoftwareJson }) {
  const sync = software.sync;
  return (
    <RecordFields
      iri={software.iri}
      rows={[
        [
          'Kinds',
          some(software.kinds) && (
            <Words words={software.kinds} href={(kind) => withQuery('/software', { kind })} />
          ),
        ],
        ['Maturity', software.maturity],
        [
          'Deployable',
          software.deployable === false ? 'No: it cannot be hosted, so deployments carry no endpoint' : 'Yes',
        ],
        [
          'Licence',
          software.license === undefined ? (
            'not stated'
          ) : (
            <ExternalLink href={software.license}>{software.license_label ?? software.license}</ExternalLink>
          ),
        ],
        [
          'Latest release',
          software.latest_release && (
            <a href={pageOf(software.latest_release.iri)}>{software.latest_release.version}</a>
          ),
        ],
        ['Homepage', software.homepage && <ExternalLink href={software.homepage} />],
        ['Code repository', software.code_repository && <ExternalLink href={software.code_repository} />],
        ['Documentation', software.documentation && <ExternalLink href={software.documentation} />],
        ['Download', software.download_url && <ExternalLink href={software.download_url} />],
        ['Image', software.image && <ExternalLink href={software.image} />],
        [
          'Screenshots',
          (software.screenshots ?? []).map((url, n) => (
            <span key={url}>
              {n > 0 && ', '}
              <ExternalLink href={url}>screenshot {n + 1}</ExternalLink>
            </span>
          )),
        ],
        [
          'Topics',
          some(software.topics) && (
            <Terms terms={software.topics} href={(topic) => withQuery('/software', { topic: topic.iri })} />
          ),
        ],
        [
          'Keywords',
          some(software.keywords) && (
            <Words words={software.keywords} href={(keyword) => withQuery('/software', { keyword })} />
          ),
        ],
        ['Publisher', software.publisher && <AgentView agent={software.publisher} />],
        ['Contact', software.contact && <AgentView agent={software.contact} />],
        ['Registration clients', (software.registration_clients ?? []).join(', ')],
        ['Registration issuer', software.registration_issuer],
        [
          'Repository sync',
          sync && (
            <>
              {sync.enabled === true ? 'on' : 'off'}
              {sync.repo !== undefined && ` · ${sync.source ?? ''} ${sync.repo}`}
              {sync.fields !== undefined && ` · manages ${sync.fields.join(', ')}`}
              {sync.last_status !== undefined && ` · last run: ${sync.last_status}`}
              {sync.last_synced_at !== undefined && (
                <>
                  {' '}
                  (<When at={sync.last_synced_at} />)
                </>
              )}
              {sync.last_error !== undefined && ` · ${sync.last_error}`}
            </>
          ),
        ],
        ['Registered', software.created && <When at={software.created} />],
        ['Changed', software.modified && <When at={software.modified} />],
      ]}
    />
  );
}
