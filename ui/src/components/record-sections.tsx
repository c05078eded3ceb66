/**
 * The tables and lists that more than one page shows: capabilities, releases, deployments, runs and artifacts.
 * Each takes the read that loads it and shows its loading, error and empty states itself.
 */
import type { ComponentChildren } from 'preact';
import {
  pageOf,
  type Loaded,
  type ListPage,
  type ArtifactJson,
  type CapabilityJson,
  type InstanceJson,
  type ReleaseJson,
  type RunJson,
} from '../api';
import { Availability, Badge } from './badges';
import { formatDuration, RecordLink, Terms, When, some } from './record-bits';
import { Empty } from './status';
import { RecordTable, type Column } from './table';

/** What a software, release or deployment declared it produces and consumes. */
export function CapabilityView({ capability }: { capability: CapabilityJson | undefined }) {
  if (capability === undefined || (!some(capability.produces) && !some(capability.consumes)))
    return <Empty>No capability is declared.</Empty>;
  return (
    <dl class="fields">
      <div class="field-row">
        <dt>Produces</dt>
        <dd>{some(capability.produces) ? <Terms terms={capability.produces} /> : 'nothing declared'}</dd>
      </div>
      <div class="field-row">
        <dt>Consumes</dt>
        <dd>{some(capability.consumes) ? <Terms terms={capability.consumes} /> : 'nothing declared'}</dd>
      </div>
    </dl>
  );
}

/** A link to the whole list under a preview of it, shown only when the list holds more than the `shown`. */
export function MoreLink({
  total,
  shown,
  href,
  children,
}: {
  total: number | undefined;
  shown: number;
  href: string;
  children: ComponentChildren;
}) {
  if ((total ?? 0) <= shown) return null;
  return (
    <p>
      <a href={href}>{children}</a>
    </p>
  );
}

const RELEASE_COLUMNS: readonly Column<ReleaseJson>[] = [
  {
    heading: 'Version',
    cell: (release) => (
      <>
        <a href={pageOf(release.iri)}>{release.version}</a>
        {release.tombstoned === true && <span class="badge">withdrawn</span>}
      </>
    ),
  },
  { heading: 'Published', cell: (release) => release.date_published ?? '—' },
  {
    heading: 'Container image',
    cell: (release) => (release.container_image === undefined ? '—' : <code>{release.container_image}</code>),
  },
];

export function ReleaseTable({ state }: { state: Loaded<ListPage<ReleaseJson>> }) {
  return <RecordTable state={state} empty="No releases are registered." columns={RELEASE_COLUMNS} />;
}

/** A deployment's health as a badge, with what the last probe found. */
export function Health({ instance, detail = false }: { instance: InstanceJson; detail?: boolean }) {
  const health = instance.health ?? 'unknown';
  return (
    <span>
      <Badge of="health" value={health} />
      {detail && instance.health_detail !== undefined && <> {instance.health_detail}</>}
      {detail && instance.health_checked_at !== undefined && (
        <span class="status">
          {' '}
          (checked <When at={instance.health_checked_at} />)
        </span>
      )}
    </span>
  );
}

const DEPLOYMENT_COLUMNS: readonly Column<InstanceJson>[] = [
  {
    heading: 'Deployment',
    cell: (instance) => <a href={pageOf(instance.iri)}>{instance.label ?? instance.id}</a>,
  },
  {
    heading: 'Software',
    cell: (instance) =>
      instance.software && <RecordLink iri={instance.software} label={instance.software_name} />,
  },
  {
    heading: 'Version',
    cell: (instance) => (
      <>
        {instance.release_version ?? '—'}
        {instance.outdated === true && <span class="badge badge-warn">outdated</span>}
      </>
    ),
  },
  { heading: 'Health', cell: (instance) => <Health instance={instance} /> },
  { heading: 'Runs (30 days)', cell: (instance) => instance.runs_30d ?? 0 },
  {
    heading: 'Last run',
    cell: (instance) => (instance.last_run_at === undefined ? 'never' : <When at={instance.last_run_at} />),
  },
];

export function DeploymentTable({ state, empty }: { state: Loaded<ListPage<InstanceJson>>; empty: string }) {
  return <RecordTable state={state} empty={empty} columns={DEPLOYMENT_COLUMNS} />;
}

const RUN_COLUMNS: readonly Column<RunJson>[] = [
  { heading: 'Run', cell: (run) => <a href={pageOf(run.iri)}>{run.label ?? run.external_key ?? run.id}</a> },
  { heading: 'Status', cell: (run) => <Badge of="run" value={run.status ?? 'unknown'} /> },
  {
    heading: 'Deployment',
    cell: (run) => (
      <>
        {run.instance && <RecordLink iri={run.instance} label={run.instance_label} />}
        {run.software_name !== undefined && <span class="status"> ({run.software_name})</span>}
      </>
    ),
  },
  { heading: 'Started', cell: (run) => <When at={run.started_at} /> },
  {
    heading: 'Duration',
    cell: (run) => (run.duration_seconds === undefined ? '—' : formatDuration(run.duration_seconds)),
  },
  { heading: 'Used', cell: (run) => run.used_count ?? 0 },
  { heading: 'Generated', cell: (run) => run.generated_count ?? 0 },
];

export function RunTable({ state, empty }: { state: Loaded<ListPage<RunJson>>; empty: string }) {
  return <RecordTable state={state} empty={empty} columns={RUN_COLUMNS} />;
}

const ARTIFACT_COLUMNS: readonly Column<ArtifactJson>[] = [
  {
    heading: 'Artifact',
    cell: (artifact) => <a href={pageOf(artifact.iri)}>{artifact.title ?? artifact.id}</a>,
  },
  { heading: 'Type', cell: (artifact) => artifact.conforms_to && <Terms terms={[artifact.conforms_to]} /> },
  { heading: 'Availability', cell: (artifact) => <Availability value={artifact.availability} brief /> },
  { heading: 'Issued', cell: (artifact) => <When at={artifact.issued ?? artifact.created} /> },
];

export function ArtifactTable({ state, empty }: { state: Loaded<ListPage<ArtifactJson>>; empty: string }) {
  return <RecordTable state={state} empty={empty} columns={ARTIFACT_COLUMNS} />;
}
