import { setTimeout as delay } from 'node:timers/promises';
import { Args, Flags } from '@oclif/core';
import { ClientCommand, tableFlags } from '../../cli/client/client-command.js';
import {
  DELIVERY_COLUMNS,
  SubscriptionClient,
  type DeliveryPageJson,
} from '../../cli/client/subscriptions.js';

/** What `reg subscribe pull --follow` reports when it stops. */
export interface FollowResult {
  readonly subscription: string;
  readonly received: number;
  /** The acknowledged cursor when it stopped. */
  readonly cursor: number | null;
  readonly stopped_by: string;
}

export default class SubscribePull extends ClientCommand {
  static override summary = "Read a subscription's queued deliveries, once or continuously.";
  static override description = `Reads the deliveries queued after the acknowledged cursor (or after --cursor), oldest first, and prints
them as a table (sequence number, match time, role, status, artifact title and IRI); the paging state goes to
standard error. With --ack, what was printed is then acknowledged, so the next pull starts after it.

With --follow the command keeps polling (every --interval seconds while the queue is empty) and prints each
delivery as it arrives, as one JSON line (the delivery with its event body), acknowledging each page once it
is printed: a delivery is printed at least once and, unless the command is killed between printing and
acknowledging, exactly once. SIGINT or SIGTERM stops it cleanly (exit 0) after the page in hand.`;
  static override examples = [
    '<%= config.bin %> <%= command.id %> 0190f5d3-0000-7000-8000-0123456789ab',
    '<%= config.bin %> <%= command.id %> 0190f5d3-0000-7000-8000-0123456789ab --ack --json',
    "<%= config.bin %> <%= command.id %> 0190f5d3-0000-7000-8000-0123456789ab --follow | jq -r '.notification.artifact_iri'",
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
      description: 'deliveries per read (1–200; the registry defaults to 25)',
      min: 1,
      max: 200,
    }),
    cursor: Flags.integer({
      description: 'read after this sequence number instead of the acknowledged cursor',
      min: 0,
    }),
    ack: Flags.boolean({ description: 'acknowledge what was printed' }),
    follow: Flags.boolean({
      description: 'keep polling and print deliveries as they arrive (acknowledges them)',
    }),
    interval: Flags.integer({
      description: 'seconds between polls of an empty queue with --follow (default 2)',
      min: 1,
      max: 3600,
    }),
  };

  async run(): Promise<DeliveryPageJson | FollowResult> {
    const { args, flags } = await this.parse(SubscribePull);
    const registry = await this.registry(flags);
    const id = await registry.names.subscription(args.id, flags.instance);
    const client = new SubscriptionClient(registry.http);
    if (flags.follow) return this.follow(client, id, flags);
    const page = await client.pull(id, { limit: flags.limit, cursor: flags.cursor });
    this.printTable(page.items, DELIVERY_COLUMNS);
    const acknowledged =
      flags.ack && page.items.length > 0
        ? (await client.ack(id, page.next_cursor)).cursor
        : page.acknowledged;
    this.logToStderr(
      `${page.items.length} deliveries; next cursor ${page.next_cursor}, ${page.remaining} after it; acknowledged up to ${acknowledged}`,
    );
    return { ...page, acknowledged };
  }

  private async follow(
    client: SubscriptionClient,
    id: string,
    flags: { limit?: number | undefined; cursor?: number | undefined; interval?: number | undefined },
  ): Promise<FollowResult> {
    let stoppedBy: string | undefined;
    const stopping = new AbortController();
    const stop = (signal: string) => () => {
      stoppedBy ??= signal;
      stopping.abort();
    };
    const onInt = stop('SIGINT');
    const onTerm = stop('SIGTERM');
    process.once('SIGINT', onInt);
    process.once('SIGTERM', onTerm);
    let cursor = flags.cursor;
    let acknowledged: number | null = null;
    let received = 0;
    try {
      while (stoppedBy === undefined) {
        const page = await client.pull(id, { limit: flags.limit, cursor });
        for (const item of page.items) process.stdout.write(`${JSON.stringify(item)}\n`);
        if (page.items.length > 0) {
          acknowledged = (await client.ack(id, page.next_cursor)).cursor;
          received += page.items.length;
        } else {
          acknowledged ??= page.acknowledged;
        }
        cursor = page.next_cursor;
        if (page.remaining > 0 || stoppedBy !== undefined) continue;
        await delay((flags.interval ?? 2) * 1000, undefined, { signal: stopping.signal }).catch(
          () => undefined,
        );
      }
    } finally {
      process.off('SIGINT', onInt);
      process.off('SIGTERM', onTerm);
    }
    this.logToStderr(
      `stopped by ${stoppedBy}: ${received} deliveries received, acknowledged up to ${acknowledged ?? 0}`,
    );
    return { subscription: id, received, cursor: acknowledged, stopped_by: stoppedBy };
  }
}
