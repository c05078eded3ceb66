/**
 * `/instance/:id` (and `/instances/:id`): one deployment with its endpoint, health, activity signals,
 * capability, newest runs and artifacts; curators and the deployment itself get links to manage it.
 */
import { useApi, withQuery, type ListPage, type ArtifactJson, type InstanceJson, type RunJson } from '../api';
import { Availability } from '../components/badges';
import { RecordPage } from '../components/load-state';
import { ObservedCapability } from '../components/observed-capability';
import { DeploymentHistory } from '../components/deployment-history';
import { ArtifactTable, CapabilityView, Health, MoreLink, RunTable } from '../components/record-sections';
import {
  AgentView,
  ExternalLink,
  Fields,
  RecordFields,
  RecordLink,
  When,
  Withdrawn,
  some,
} from '../components/record-bits';
import { session } from '../session';

/** How many runs and artifacts the page shows before pointing at the filtered lists. */
const NEWEST = 10;

export default function InstanceDetail() {
  return (
    <RecordPage<InstanceJson>
      path={(id) => `/api/v1/instances/${id}`}
      heading="Deployment"
      title={(instance) => instance.label}
    >
      {(instance) => <InstanceView instance={instance} />}
    </RecordPage>
  );
}

function InstanceView({ instance }: { instance: InstanceJson }) {
  const principal = session.usePrincipal();
  const runs = useApi<ListPage<RunJson>>(`/api/v1/instances/${instance.id}/runs`, { limit: NEWEST });
  const artifacts = useApi<ListPage<ArtifactJson>>(`/api/v1/instances/${instance.id}/artifacts`, {
    limit: NEWEST,
  });
  const manages = principal.is_curator || principal.instance === instance.iri;
  return (
    <>
      <h1>{instance.label ?? instance.id}</h1>
      {instance.description !== undefined && <p class="lede">{instance.description}</p>}
      {instance.tombstoned === true && <Withdrawn what="deployment" />}
      {manages && (
        <nav class="toolbar" aria-label="Manage this deployment">
          <a class="button secondary" href={`/instance/${instance.id}/edit`}>
            Edit
          </a>
          <a class="button secondary" href={`/instance/${instance.id}/tokens`}>
            Tokens
          </a>
          <a class="button secondary" href={`/instance/${instance.id}/subscriptions`}>
            Subscriptions
          </a>
        </nav>
      )}
      <RecordFields
        iri={instance.iri}
        rows={[
          ['Health', <Health instance={instance} detail />],
          [
            'Endpoint',
            instance.endpoint_url ? <ExternalLink href={instance.endpoint_url} /> : 'none (not hosted)',
          ],
          [
            'Endpoint description',
            instance.endpoint_description && <ExternalLink href={instance.endpoint_description} />,
          ],
          ['Health endpoint', instance.health_endpoint && <ExternalLink href={instance.health_endpoint} />],
          ['Last seen', instance.last_seen_at && <When at={instance.last_seen_at} />],
          [
            'Software',
            instance.software && <RecordLink iri={instance.software} label={instance.software_name} />,
          ],
          [
            'Release',
            instance.release && (
              <>
                <RecordLink iri={instance.release} label={instance.release_version} />
                {instance.outdated === true && (
                  <>
                    {' '}
                    <span class="badge badge-warn">outdated</span> the latest is {instance.latest_version}
                  </>
                )}
              </>
            ),
          ],
          ['Operator', instance.operator && <AgentView agent={instance.operator} />],
          ['Availability', instance.availability && <Availability value={instance.availability} />],
          ['Jurisdiction', instance.jurisdiction],
          ['Client id', instance.oidc_client_id && <code>{instance.oidc_client_id}</code>],
          ['Client issuer', instance.oidc_issuer && <code>{instance.oidc_issuer}</code>],
          ['Allowed scopes', some(instance.allowed_scopes) && (instance.allowed_scopes ?? []).join(', ')],
          ['Registered itself as', instance.self_registered_by && <code>{instance.self_registered_by}</code>],
          [
            'Registered itself at',
            instance.self_registered_issuer && <code>{instance.self_registered_issuer}</code>,
          ],
          ['Instance key', instance.instance_key && <code>{instance.instance_key}</code>],
          ['Registered', instance.created && <When at={instance.created} />],
          ['Changed', instance.modified && <When at={instance.modified} />],
        ]}
      />

      <h2>Activity</h2>
      <Fields
        rows={[
          ['Runs in the last 30 days', String(instance.runs_30d ?? 0)],
          ['Failed runs in the last 30 days', String(instance.failures_30d ?? 0)],
          ['Artifacts touched', String(instance.artifact_count ?? 0)],
          ['Last run', instance.last_run_at ? <When at={instance.last_run_at} /> : 'never'],
          ['Live tokens', instance.token_count !== undefined && String(instance.token_count)],
        ]}
      />

      <h2>Capability</h2>
      <CapabilityView capability={instance.capability} />

      <h2>Observed capability</h2>
      <ObservedCapability kind="instances" id={instance.id} />

      <h2>History</h2>
      <DeploymentHistory id={instance.id} />

      <h2>Newest runs</h2>
      <RunTable state={runs} empty="This deployment has advertised no runs." />
      <MoreLink total={runs.data?.total} shown={NEWEST} href={withQuery('/runs', { instance: instance.id })}>
        All {runs.data?.total} runs of this deployment
      </MoreLink>

      <h2>Newest artifacts</h2>
      <ArtifactTable state={artifacts} empty="The runs of this deployment touched no artifacts." />
      <MoreLink
        total={artifacts.data?.total}
        shown={NEWEST}
        href={withQuery('/artifacts', { instance: instance.id })}
      >
        All {artifacts.data?.total} artifacts of this deployment
      </MoreLink>
    </>
  );
}
