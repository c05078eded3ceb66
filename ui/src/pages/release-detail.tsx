/**
 * `/release/:id`: one release. The API has no `/api/v1/releases/{id}`, so the page reads the release IRI's own
 * JSON representation (`/release/<id>.json`), which is the same record.
 */
import {
  idOf,
  useApi,
  withQuery,
  type ListPage,
  type DownloadJson,
  type InstanceJson,
  type ReleaseJson,
} from '../api';
import { Availability } from '../components/badges';
import { RecordPage } from '../components/load-state';
import { CapabilityView, DeploymentTable } from '../components/record-sections';
import {
  ExternalLink,
  formatBytes,
  RecordFields,
  RecordLink,
  When,
  Withdrawn,
  some,
} from '../components/record-bits';
import { Empty } from '../components/status';
import { Table, type Column } from '../components/table';

export default function ReleaseDetail() {
  return (
    <RecordPage<ReleaseJson>
      path={(id) => `/release/${id}.json`}
      heading="Release"
      title={(release) => `${release.software_name ?? 'Release'} ${release.version}`}
    >
      {(release) => <ReleaseView release={release} />}
    </RecordPage>
  );
}

const DOWNLOAD_COLUMNS: readonly Column<DownloadJson>[] = [
  {
    heading: 'Download',
    cell: (download, n) =>
      download.url === undefined ? (
        (download.label ?? `download ${n + 1}`)
      ) : (
        <ExternalLink href={download.url}>{download.label ?? download.url}</ExternalLink>
      ),
  },
  { heading: 'Platform', cell: (download) => download.platform ?? '—' },
  {
    heading: 'Size',
    cell: (download) => (download.byte_size === undefined ? '—' : formatBytes(download.byte_size)),
  },
  { heading: 'Availability', cell: (download) => <Availability value={download.availability} /> },
];

function ReleaseView({ release }: { release: ReleaseJson }) {
  const deployments = useApi<ListPage<InstanceJson>>('/api/v1/instances', { release: release.id, limit: 50 });
  const downloads = release.downloads ?? [];
  return (
    <>
      <h1>
        {release.software_name ?? 'Release'} {release.version}
      </h1>
      {release.tombstoned === true && <Withdrawn what="release" />}
      <RecordFields
        iri={release.iri}
        rows={[
          ['Software', <RecordLink iri={release.software} label={release.software_name} />],
          ['Version', release.version],
          ['Published', release.date_published],
          ['Container image', release.container_image && <code>{release.container_image}</code>],
          ['Image digest', release.image_digest && <code>{release.image_digest}</code>],
          ['Install', release.install_command && <code>{release.install_command}</code>],
          ['Changelog', release.changelog && <ExternalLink href={release.changelog} />],
          ['Registered', release.created && <When at={release.created} />],
        ]}
      />

      <h2>Downloads</h2>
      {downloads.length === 0 ? (
        <Empty>No downloads are listed for this release.</Empty>
      ) : (
        <Table items={downloads} columns={DOWNLOAD_COLUMNS} rowKey={(download, n) => download.url ?? n} />
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
