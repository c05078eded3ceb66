import { Args, Flags } from '@oclif/core';
import { ClientCommand } from '../../cli/client/client-command.js';
import { SubscriptionClient, type DeleteResult } from '../../cli/client/subscriptions.js';

export default class SubscribeDelete extends ClientCommand {
  static override summary = 'Delete a subscription and its queue.';
  static override description = `Deletes the subscription at once, with every delivery still queued for it: nothing more is matched,
sent or served for it. A subscription of another deployment is refused (exit 9), whether it exists or not.`;
  static override examples = ['<%= config.bin %> <%= command.id %> 0190f5d3-0000-7000-8000-0123456789ab'];
  static override args = {
    id: Args.string({ description: 'the subscription id, or its label', required: true }),
  };
  static override flags = {
    instance: Flags.string({
      aliases: ['deployment'],
      description:
        "the deployment a subscription given by its label belongs to, by id, IRI or label (default: the caller's own)",
    }),
  };

  async run(): Promise<DeleteResult> {
    const { args, flags } = await this.parse(SubscribeDelete);
    const registry = await this.registry(flags);
    const id = await registry.names.subscription(args.id, flags.instance);
    const result = await new SubscriptionClient(registry.http).delete(id);
    this.log(`deleted subscription ${id}`);
    return result;
  }
}
