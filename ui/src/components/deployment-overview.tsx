/**
 * The "What runs where" section of a software page: every deployment with the version it runs, since when, its
 * health and last run, flagged when it is behind the latest release or its environment runs several versions
 * (`GET /api/v1/software/{id}/deployments`).
 */
import { useApi } from '../api';
import { Badge } from './badges';
import { ErrorNotice, Empty, Loading } from './status';
import { Table } from './table';
import { RecordLink, When } from './record-bits';

/** One deployment as the view shows it. */
interface DeploymentRow {
  readonly iri: string;
  readonly id: string;
  readonly label: string | null;
  readonly environment: string | null;
  readonly release: string | null;
  readonly version: string | null;
  readonly running: boolean;
  readonly since: string | null;
  readonly health: string;
  readonly last_run: {
    readonly iri: string;
    readonly started_at: string | null;
    readonly status: string | null;
  } | null;
  readonly behind_latest: boolean;
  readonly versions_differ: boolean;
}

interface DeploymentsView {
  readonly latest_release: { readonly iri: string; readonly version: string | null } | null;
  readonly items: readonly DeploymentRow[];
  readonly drift: {
    readonly behind_latest: number;
    readonly environments_with_differing_versions: readonly string[];
  };
}

/** The section for the software `id`. */
export function DeploymentOverview({ id }: { id: string }) {
  const state = useApi<DeploymentsView>(`/api/v1/software/${encodeURIComponent(id)}/deployments`);
  if (state.error !== undefined) return <ErrorNotice error={state.error} what="deployments" />;
  if (state.data === undefined) return <Loading />;
  const view = state.data;
  if (view.items.length === 0) return <Empty>No deployment of this software is registered.</Empty>;
  const differing = view.drift.environments_with_differing_versions;
  return (
    <>
      <p>
        Latest release:{' '}
        {view.latest_release === null ? (
          'none registered'
        ) : (
          <RecordLink iri={view.latest_release.iri} label={view.latest_release.version ?? undefined} />
        )}
        .{' '}
        {view.drift.behind_latest === 0
          ? 'No deployment is behind it.'
          : `${view.drift.behind_latest} behind it.`}
        {differing.length > 0 && ` Versions differ in ${differing.join(', ')}.`}
      </p>
      <Table
        items={view.items}
        rowKey={(row) => row.iri}
        columns={[
          {
            heading: 'Deployment',
            cell: (row) => <RecordLink iri={row.iri} label={row.label ?? undefined} />,
          },
          { heading: 'Environment', cell: (row) => row.environment ?? '–' },
          {
            heading: 'Version',
            cell: (row) =>
              row.release === null ? (
                (row.version ?? 'unknown')
              ) : (
                <RecordLink iri={row.release} label={row.version ?? undefined} />
              ),
          },
          { heading: 'Since', cell: (row) => (row.since === null ? '–' : <When at={row.since} />) },
          {
            heading: 'Health',
            cell: (row) =>
              row.running ? (
                <Badge of="health" value={row.health} />
              ) : (
                <span class="badge badge-error">removed</span>
              ),
          },
          {
            heading: 'Last run',
            cell: (row) =>
              row.last_run === null ? (
                'never'
              ) : (
                <>
                  <RecordLink iri={row.last_run.iri} label={row.last_run.status ?? 'run'} />{' '}
                  <When at={row.last_run.started_at ?? undefined} />
                </>
              ),
          },
          {
            heading: 'Drift',
            cell: (row) => (
              <>
                {row.behind_latest && <span class="badge badge-warn">behind latest</span>}{' '}
                {row.versions_differ && <span class="badge badge-warn">versions differ</span>}
              </>
            ),
          },
        ]}
      />
    </>
  );
}
