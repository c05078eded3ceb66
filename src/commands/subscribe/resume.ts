import { Args, Flags } from '@oclif/core';
import { ClientCommand } from '../../cli/client/client-command.js';
import { SubscriptionClient, type SubscriptionWrittenJson } from '../../cli/client/subscriptions.js';

export default class SubscribeResume extends ClientCommand {
  static override summary = 'Resume a suspended webhook and retry its failed and dead deliveries.';
  static override description = `A webhook that failed too many times in a row is suspended: the registry stops posting to it (the pull
queue keeps working). Once the receiver is fixed, resume re-activates it and re-arms every failed and dead
delivery for another attempt, along with those queued while it was suspended.`;
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

  async run(): Promise<SubscriptionWrittenJson> {
    const { args, flags } = await this.parse(SubscribeResume);
    const registry = await this.registry(flags);
    const id = await registry.names.subscription(args.id, flags.instance);
    const written = await new SubscriptionClient(registry.http).update(id, {
      resume: true,
    });
    const { subscription } = written;
    this.log(
      `subscription ${subscription.id} is ${subscription.delivery_state}; ${subscription.pending_count} deliveries to send`,
    );
    return written;
  }
}
