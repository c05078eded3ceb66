import { Args, Flags } from '@oclif/core';
import type { DeliveryAttempt, DeliveryLog } from '../../api/index.js';
import { ClientCommand, tableFlags } from '../../cli/client/client-command.js';
import type { Column } from '../../cli/client/table.js';

/** Columns of `reg subscribe log`: when, which attempt, what came back. */
const ATTEMPT_COLUMNS: readonly Column<DeliveryAttempt>[] = [
  { header: 'AT', value: (row) => row.at, priority: 0 },
  { header: 'ATTEMPT', value: (row) => String(row.attempt), priority: 1 },
  {
    header: 'STATUS',
    value: (row) => (row.status_code === null ? '-' : String(row.status_code)),
    priority: 0,
  },
  { header: 'MS', value: (row) => String(row.duration_ms), priority: 2 },
  { header: 'DELIVERY', value: (row) => row.delivery_status, kind: 'status', priority: 2 },
  { header: 'ERROR', value: (row) => row.error ?? undefined, min: 10, priority: 1 },
  { header: 'RETRY AT', value: (row) => row.retry_at ?? undefined, priority: 3 },
  { header: 'RESPONSE', value: (row) => row.response ?? undefined, min: 10, priority: 4, hidden: true },
  { header: 'ARTIFACT', value: (row) => row.artifact_iri, kind: 'iri', min: 20, priority: 4 },
  { header: 'DELIVERY ID', key: 'delivery-id', value: (row) => row.delivery_id, kind: 'id', priority: 1 },
];

export default class SubscribeLog extends ClientCommand {
  static override summary = "Show a subscription's webhook delivery log.";
  static override description = `Prints the webhook attempts of the subscription, newest first: when, the attempt number of the delivery, the receiver's HTTP status (- when none came), how long it took, where the delivery stands now, the error, when it is tried again, the artifact and the delivery id (give that to reg subscribe redeliver). The first 2 KB of each answer are kept too: --columns response shows them, and --json returns them.

Older attempts come with --before and the next_before of the previous page. Delivered and dead deliveries are removed with their attempts once older than the registry's REG_DELIVERY_RETENTION (7 days unless set). Only the deployment that owns the subscription and administrators may read the log (exit 9 for anyone else).`;
  static override examples = [
    '<%= config.bin %> <%= command.id %> 0190f5d3-0000-7000-8000-0123456789ab',
    '<%= config.bin %> <%= command.id %> 0190f5d3-0000-7000-8000-0123456789ab --limit 200 --columns at,status,error,response',
    '<%= config.bin %> <%= command.id %> 0190f5d3-0000-7000-8000-0123456789ab --json',
  ];
  static override args = {
    id: Args.string({ description: 'the subscription id, or its label', required: true }),
  };
  static override flags = {
    instance: Flags.string({
      aliases: ['deployment'],
      description:
        "the deployment a subscription given by its label belongs to, by id, IRI or label (default: the caller's own)",
    }),
    ...tableFlags,
    limit: Flags.integer({
      description: 'attempts to show (1–500; the registry defaults to 50)',
      min: 1,
      max: 500,
    }),
    before: Flags.integer({
      description: 'only attempts older than this attempt id (a next_before)',
      min: 1,
    }),
  };

  async run(): Promise<DeliveryLog> {
    const { args, flags } = await this.parse(SubscribeLog);
    const registry = await this.registry(flags);
    const id = await registry.names.subscription(args.id, flags.instance);
    const log = await registry.http.request<DeliveryLog>(
      'GET',
      `/api/v1/subscriptions/${encodeURIComponent(id)}/log`,
      { query: { limit: flags.limit, before: flags.before } },
    );
    this.printTable(log.items, ATTEMPT_COLUMNS);
    this.logToStderr(
      `${log.items.length} of ${log.total} attempts${log.next_before === null ? '' : `; older ones with --before ${log.next_before}`}`,
    );
    return log;
  }
}
