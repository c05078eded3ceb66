/**
 * The tables and lists that more than one page shows: capabilities, releases, deployments, runs and artifacts.
 * Each takes the read that loads it and shows its loading, error and empty states itself.
 */
import type { ComponentChildren } from 'preact';
import { pageOf, type Loaded, type Page } from '../api';
import { Availability, Badge, formatDuration, RecordLink, Terms, When, some } from './record-bits';
import type { Artifact, Capability, Instance, Release, Run } from './record-types';
import { Empty, ErrorNotice, Loading } from './status';

/** What a software, release or deployment declared it produces and consumes. */
export function CapabilityView({ capability }: { capability: Capability | undefined }) {
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

/** A list read's states around a table of its items. */
function ListState<T>({
  state,
  empty,
  children,
}: {
  state: Loaded<Page<T>>;
  empty: string;
  children: (items: T[]) => ComponentChildren;
}) {
  if (state.error !== undefined) return <ErrorNotice error={state.error} />;
  if (state.data === undefined) return <Loading />;
  if (state.data.items.length === 0) return <Empty>{empty}</Empty>;
  return <div class="table-wrap">{children(state.data.items)}</div>;
}

export function ReleaseTable({ state }: { state: Loaded<Page<Release>> }) {
  return (
    <ListState state={state} empty="No releases are registered.">
      {(items) => (
        <table>
          <thead>
            <tr>
              <th scope="col">Version</th>
              <th scope="col">Published</th>
              <th scope="col">Container image</th>
            </tr>
          </thead>
          <tbody>
            {items.map((release) => (
              <tr key={release.iri}>
                <th scope="row">
                  <a href={pageOf(release.iri)}>{release.version}</a>
                  {release.tombstoned === true && <span class="badge">withdrawn</span>}
                </th>
                <td>{release.date_published ?? '—'}</td>
                <td>
                  {release.container_image === undefined ? '—' : <code>{release.container_image}</code>}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </ListState>
  );
}

/** A deployment's health as a badge, with what the last probe found. */
export function Health({ instance, detail = false }: { instance: Instance; detail?: boolean }) {
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

export function DeploymentTable({ state, empty }: { state: Loaded<Page<Instance>>; empty: string }) {
  return (
    <ListState state={state} empty={empty}>
      {(items) => (
        <table>
          <thead>
            <tr>
              <th scope="col">Deployment</th>
              <th scope="col">Software</th>
              <th scope="col">Version</th>
              <th scope="col">Health</th>
              <th scope="col">Runs (30 days)</th>
              <th scope="col">Last run</th>
            </tr>
          </thead>
          <tbody>
            {items.map((instance) => (
              <tr key={instance.iri}>
                <th scope="row">
                  <a href={pageOf(instance.iri)}>{instance.label ?? instance.id}</a>
                </th>
                <td>
                  {instance.software && <RecordLink iri={instance.software} label={instance.software_name} />}
                </td>
                <td>
                  {instance.release_version ?? '—'}
                  {instance.outdated === true && <span class="badge badge-warn">outdated</span>}
                </td>
                <td>
                  <Health instance={instance} />
                </td>
                <td>{instance.runs_30d ?? 0}</td>
                <td>{instance.last_run_at === undefined ? 'never' : <When at={instance.last_run_at} />}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </ListState>
  );
}

export function RunTable({ state, empty }: { state: Loaded<Page<Run>>; empty: string }) {
  return (
    <ListState state={state} empty={empty}>
      {(items) => (
        <table>
          <thead>
            <tr>
              <th scope="col">Run</th>
              <th scope="col">Status</th>
              <th scope="col">Deployment</th>
              <th scope="col">Started</th>
              <th scope="col">Duration</th>
              <th scope="col">Used</th>
              <th scope="col">Generated</th>
            </tr>
          </thead>
          <tbody>
            {items.map((run) => (
              <tr key={run.iri}>
                <th scope="row">
                  <a href={pageOf(run.iri)}>{run.label ?? run.external_key ?? run.id}</a>
                </th>
                <td>
                  <Badge of="run" value={run.status ?? 'unknown'} />
                </td>
                <td>
                  {run.instance && <RecordLink iri={run.instance} label={run.instance_label} />}
                  {run.software_name !== undefined && <span class="status"> ({run.software_name})</span>}
                </td>
                <td>
                  <When at={run.started_at} />
                </td>
                <td>{run.duration_seconds === undefined ? '—' : formatDuration(run.duration_seconds)}</td>
                <td>{run.used_count ?? 0}</td>
                <td>{run.generated_count ?? 0}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </ListState>
  );
}

export function ArtifactTable({ state, empty }: { state: Loaded<Page<Artifact>>; empty: string }) {
  return (
    <ListState state={state} empty={empty}>
      {(items) => (
        <table>
          <thead>
            <tr>
              <th scope="col">Artifact</th>
              <th scope="col">Type</th>
              <th scope="col">Availability</th>
              <th scope="col">Issued</th>
            </tr>
          </thead>
          <tbody>
            {items.map((artifact) => (
              <tr key={artifact.iri}>
                <th scope="row">
                  <a href={pageOf(artifact.iri)}>{artifact.title ?? artifact.id}</a>
                </th>
                <td>{artifact.conforms_to && <Terms terms={[artifact.conforms_to]} />}</td>
                <td>
                  <Availability value={artifact.availability} brief />
                </td>
                <td>
                  <When at={artifact.issued ?? artifact.created} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </ListState>
  );
}
