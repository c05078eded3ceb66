import { Args } from '@oclif/core';
import { ClientCommand, tableFlags } from '../../cli/client/client-command.js';
import type { Column } from '../../cli/client/table.js';

/** One deployment as `GET /api/v1/software/{id}/deployments` shows it. */
interface DeploymentRow {
  readonly iri: string;
  readonly id: string;
  readonly label: string | null;
  readonly environment: string | null;
  readonly release: string | null;
  readonly release_version: string | null;
  readonly version: string | null;
  readonly artifact_id: string | null;
  readonly running: boolean;
  readonly removed_at: string | null;
  readonly since: string | null;
  readonly health: string;
  readonly last_run: { readonly started_at: string | null; readonly status: string | null } | null;
  readonly behind_latest: boolean;
  readonly versions_differ: boolean;
}

/** The running deployments of one environment and the versions they run. */
interface EnvironmentGroup {
  readonly environment: string;
  readonly versions: string[];
  readonly versions_differ: boolean;
  readonly deployments: string[];
}

/** What runs where, as the API answers it. */
interface DeploymentsView {
  readonly software: string;
  readonly latest_release: { readonly iri: string; readonly version: string | null } | null;
  readonly items: DeploymentRow[];
  readonly total: number;
  readonly environments: EnvironmentGroup[];
  readonly drift: { readonly behind_latest: number; readonly environments_with_differing_versions: string[] };
}

const drift = (row: DeploymentRow): string =>
  [row.behind_latest ? 'behind latest' : '', row.versions_differ ? 'versions differ' : '']
    .filter((flag) => flag !== '')
    .join(', ');

const COLUMNS: readonly Column<DeploymentRow>[] = [
  { header: 'ENVIRONMENT', value: (row) => row.environment ?? '-', min: 8, priority: 0 },
  { header: 'LABEL', value: (row) => row.label ?? '', min: 10, priority: 0 },
  { header: 'VERSION', value: (row) => row.version ?? '-', min: 8, priority: 0 },
  { header: 'SINCE', value: (row) => row.since ?? '', priority: 2 },
  {
    header: 'STATE',
    value: (row) => (row.running ? row.health : 'removed'),
    kind: 'status',
    priority: 1,
  },
  {
    header: 'LAST RUN',
    value: (row) =>
      row.last_run === null ? '' : `${row.last_run.started_at ?? ''} ${row.last_run.status ?? ''}`.trim(),
    priority: 3,
  },
  { header: 'DRIFT', value: drift, kind: 'status', priority: 1 },
  { header: 'ID', value: (row) => row.id, kind: 'id', priority: 2 },
];

export default class SoftwareDeployments extends ClientCommand {
  static override summary =
    'Show what runs where: every deployment of a software, its version and its drift.';
  static override description = `Prints one line per deployment of the software that is not withdrawn: its environment, label, the version it runs, since when (by its history), its health (or removed, when it was reported removed), its last run and its drift. A deployment is behind latest when it runs an older version than the software's latest release (dotted version numbers compared as numbers; versions that cannot be compared and differ count as behind); versions differ when the running deployments of its environment do not all run one version.

Under --json the API's answer is printed as it came: the deployments (items), the latest release, each environment with the versions its deployments run, and a drift summary.`;
  static override examples = [
    '<%= config.bin %> <%= command.id %> 0190f5d2-8a1b-7c3d-9e4f-0123456789ab',
    '<%= config.bin %> <%= command.id %> my-pipeline --json',
    '<%= config.bin %> <%= command.id %> my-pipeline --columns environment,label,version,drift',
  ];
  static override args = { id: Args.string({ description: 'software id, IRI or name', required: true }) };
  static override flags = { ...tableFlags };

  async run(): Promise<DeploymentsView> {
    const { args, flags } = await this.parse(SoftwareDeployments);
    const client = await this.registry(flags);
    const id = await client.resolve('software', args.id);
    const view = await client.http.request<DeploymentsView>(
      'GET',
      `/api/v1/software/${encodeURIComponent(id)}/deployments`,
    );
    this.printTable(view.items, COLUMNS);
    const latest = view.latest_release?.version;
    const differing = view.drift.environments_with_differing_versions;
    this.logToStderr(
      `${view.total} deployments; latest release ${latest ?? 'none'}; ${view.drift.behind_latest} behind it` +
        (differing.length === 0 ? '' : `; versions differ in ${differing.join(', ')}`),
    );
    return view;
  }
}
