/**
 * `/release/:id`: one release. The API has no `/api/v1/releases/{id}`, so the page reads the release IRI's own
 * JSON representation (`/release/<id>.json`), which is the same record.
 */
import { useRoute } from 'preact-iso';
import { idOf, useApi, withQuery, type Page } from '../api';
import { LoadState } from '../components/load-state';
import { CapabilityView, DeploymentTable } from '../components/record-sections';
import {
  Availability,
  DataLinks,
  ExternalLink,
  Fields,
  formatBytes,
  RecordLink,
  When,
  Withdrawn,
  some,
} from '../components/record-bits';
import type { Instance, Release } from '../components/record-types';
import { Empty, usePageTitle } from '../components/status';

export default function ReleaseDetail() {
  const { id = '' } = useRoute().params;
  const release = useApi<Release>(`/release/${encodeURIComponent(id)}.json`);
  const name = release.data && `${release.data.software_name ?? 'Release'} ${release.data.version}`;
  usePageTitle(name ?? 'Release');
  return (
    <LoadState state={release} heading="Release" what="This release">
      {(record) => <ReleaseView release={record} />}
    </LoadState>
  );
}

function ReleaseView({ release }: { release: Release }) {
  const deployments = useApi<Page<Instance>>('/api/v1/instances', { release: release.id, limit: 50 });
  const downloads = release.downloads ?? [];
  return (
    <>
      <h1>
        {release.software_name ?? 'Release'} {release.version}
      </h1>
      {release.tombstoned === true && <Withdrawn at={release.tombstoned_at} what="release" />}
      <Fields
        rows={[
          ['Software', <RecordLink iri={release.software} label={release.software_name} />],
          ['Version', release.version],
          ['Published', release.date_published],
          ['Container image', release.container_image && <code>{release.container_image}</code>],
          ['Image digest', release.image_digest && <code>{release.image_digest}</code>],
          ['Install', release.install_command && <code>{release.install_command}</code>],
          ['Changelog', release.changelog && <ExternalLink href={release.changelog} />],
          ['Registered', release.created && <When at={release.created} />],
          ['IRI', <code>{release.iri}</code>],
        ]}
      />
      <DataLinks iri={release.iri} />

      <h2>Downloads</h2>
      {downloads.length === 0 ? (
        <Empty>No downloads are listed for this release.</Empty>
      ) : (
        <div class="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">Download</th>
                <th scope="col">Platform</th>
                <th scope="col">Size</th>
                <th scope="col">Availability</th>
              </tr>
            </thead>
            <tbody>
              {downloads.map((download, n) => (
                <tr key={download.url ?? n}>
                  <th scope="row">
                    {download.url === undefined ? (
                      (download.label ?? `download ${n + 1}`)
                    ) : (
                      <ExternalLink href={download.url}>{download.label ?? download.url}</ExternalLink>
                    )}
                  </th>
                  <td>{download.platform ?? '—'}</td>
                  <td>{download.byte_size === undefined ? '—' : formatBytes(download.byte_size)}</td>
                  <td>
                    <Availability value={download.availability} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}

      {some(release.capability?.produces) || some(release.capability?.consumes) ? (
        <>
          <h2>Capability of this release</h2>
          <CapabilityView capability={release.capability} />
        </>
      ) : null}

      <h2>Deployments running this release</h2>
      <DeploymentTable state={deployments} empty="No deployment runs this release." />
      <p>
        <a href={withQuery('/runs', { software: idOf(release.software) })}>Runs of this software</a>
      </p>
    </>
  );
}
