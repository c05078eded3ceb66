import { Flags } from '@oclif/core';
import { ClientCommand, tableFlags } from '../../cli/client/client-command.js';
import {
  SUBSCRIPTION_COLUMNS,
  SubscriptionClient,
  type SubscriptionListJson,
} from '../../cli/client/subscriptions.js';

export default class SubscribeList extends ClientCommand {
  static override summary = 'List the subscriptions of a deployment.';
  static override description = `Prints every subscription of the deployment --instance as a table: id, label, mode (pull or webhook),
state (active, suspended or disabled), deliveries not yet acknowledged, pending, failed and dead webhook
deliveries, and the last webhook error. Never the secrets. Under --json the API's envelope (items, total,
max_per_instance).`;
  static override examples = [
    '<%= config.bin %> <%= command.id %> --instance 0190f5d2-8a1b-7c3d-9e4f-0123456789ab',
  ];
  static override flags = {
    instance: Flags.string({
      description: 'the deployment, by id, IRI or label',
      aliases: ['deployment'],
      required: true,
    }),
    ...tableFlags,
  };

  async run(): Promise<SubscriptionListJson> {
    const { flags } = await this.parse(SubscribeList);
    const registry = await this.registry(flags);
    const list = await new SubscriptionClient(registry.http).list(
      await registry.names.deployment(flags.instance),
    );
    this.printTable(list.items, SUBSCRIPTION_COLUMNS);
    this.logToStderr(`${list.total} of at most ${list.max_per_instance} subscriptions`);
    return list;
  }
}
