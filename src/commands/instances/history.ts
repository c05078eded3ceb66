import { Args } from '@oclif/core';
import { ClientCommand, listFlags, tableFlags } from '../../cli/client/client-command.js';
import type { Column } from '../../cli/client/table.js';

/** What a deployment ran at one moment, as a history entry gives it. */
interface DeploymentState {
  readonly release: string | null;
  readonly version: string | null;
  readonly environment: string | null;
  readonly running: boolean;
}

/** One entry of a deployment's history, as `GET /api/v1/instances/{id}/history` returns it. */
interface HistoryEntry {
  readonly id: number;
  readonly at: string;
  readonly received_at: string;
  readonly type: string;
  readonly event_id: string | null;
  readonly event_source: string | null;
  readonly sender: string;
  readonly previous: DeploymentState;
  readonly current: DeploymentState;
  readonly artifact_id: string | null;
  readonly changed: boolean;
  readonly applied: boolean;
}

/** A page of a deployment's history. */
interface HistoryPage {
  items: HistoryEntry[];
  total: number;
  next_cursor?: string;
}

const shown = (state: DeploymentState): string =>
  state.version ?? (state.release === null ? '-' : (state.release.split('/').pop() ?? state.release));

const change = (entry: HistoryEntry, of: (state: DeploymentState) => string): string => {
  const before = of(entry.previous);
  const after = of(entry.current);
  return before === after ? after : `${before} → ${after}`;
};

const COLUMNS: readonly Column<HistoryEntry>[] = [
  { header: 'AT', value: (row) => row.at, priority: 0 },
  { header: 'TYPE', value: (row) => row.type, kind: 'status', priority: 0 },
  { header: 'VERSION', value: (row) => change(row, shown), min: 10, priority: 0 },
  { header: 'ENVIRONMENT', value: (row) => change(row, (s) => s.environment ?? '-'), min: 8, priority: 1 },
  { header: 'RUNNING', value: (row) => (row.current.running ? 'yes' : 'no'), kind: 'status', priority: 1 },
  {
    header: 'APPLIED',
    value: (row) => (!row.applied ? 'late' : row.changed ? 'yes' : 'no change'),
    kind: 'status',
    priority: 2,
  },
  { header: 'SENDER', value: (row) => row.sender, min: 12, priority: 3 },
  { header: 'EVENT', value: (row) => row.event_id ?? '', min: 8, priority: 4 },
];

export default class InstancesHistory extends ClientCommand {
  static override summary =
    'Show the dated history of what a deployment ran: releases, versions, environments.';
  static override description = `Prints the deployment's history newest first, one line per deployment event or announcement: when it happened (the event's own time), its type (service.deployed, service.upgraded, service.rolledback, service.removed, environment.*, artifact.published, or announced), the version it ran before and after (a single value when it did not change), its environment, whether it runs, and who sent it.

An event older than the newest one applied is kept but changes nothing; it shows as late. Under --json the API's page is printed as it came (items, total, next_cursor); --all follows every page.`;
  static override examples = [
    '<%= config.bin %> <%= command.id %> 0190f5d2-8a1b-7c3d-9e4f-0123456789ab',
    '<%= config.bin %> <%= command.id %> "eu production" --limit 10',
    '<%= config.bin %> <%= command.id %> 0190f5d2-8a1b-7c3d-9e4f-0123456789ab --all --json',
  ];
  static override args = {
    id: Args.string({ description: 'deployment (instance) id, IRI or label', required: true }),
  };
  static override flags = { ...listFlags, ...tableFlags };

  async run(): Promise<HistoryPage> {
    const { args, flags } = await this.parse(InstancesHistory);
    const client = await this.registry(flags);
    const id = await client.resolve('instances', args.id);
    const path = `/api/v1/instances/${encodeURIComponent(id)}/history`;
    const page: HistoryPage = { items: [], total: 0 };
    let cursor = flags.cursor;
    do {
      const next = await client.http.request<HistoryPage>('GET', path, {
        query: { limit: flags.limit, cursor },
      });
      page.items.push(...next.items);
      page.total = next.total;
      cursor = next.next_cursor;
      if (flags.all !== true) {
        if (cursor !== undefined) page.next_cursor = cursor;
        break;
      }
    } while (cursor !== undefined);
    this.printTable(page.items, COLUMNS, page);
    return page;
  }
}
