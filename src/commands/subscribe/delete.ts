import { Args } from '@oclif/core';
import { ClientCommand } from '../../cli/client/client-command.js';
import { SubscriptionClient, type DeleteResult } from '../../cli/client/subscriptions.js';

export default class SubscribeDelete extends ClientCommand {
  static override summary = 'Delete a subscription and its queue.';
  static override description = `Deletes the subscription at once, with every delivery still queued for it: nothing more is matched,
sent or served for it. A subscription of another deployment is refused (exit 9), whether it exists or not.`;
  static override examples = ['<%= config.bin %> <%= command.id %> 0190f5d3-0000-7000-8000-0123456789ab'];
  static override args = {
    id: Args.string({ description: 'the subscription id', required: true }),
  };

  async run(): Promise<DeleteResult> {
    const { args, flags } = await this.parse(SubscribeDelete);
    const result = await new SubscriptionClient((await this.registry(flags)).http).delete(args.id);
    this.log(`deleted subscription ${args.id}`);
    return result;
  }
}
