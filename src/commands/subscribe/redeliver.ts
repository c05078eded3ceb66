import { Args, Flags } from '@oclif/core';
import type { Delivery } from '../../api/index.js';
import { ClientCommand } from '../../cli/client/client-command.js';

export default class SubscribeRedeliver extends ClientCommand {
  static override summary = 'Send one delivery of a webhook subscription again.';
  static override description = `Queues the delivery again for the subscription's webhook: the same event, the same body and the same delivery id (x-reg-delivery, and webhook-id under Standard Webhooks), so a receiver that already processed it can tell. It gets a fresh run of retries, and the next pass of the delivery worker sends it; while the webhook is disabled or suspended it waits for reg subscribe resume.

The delivery ids are in reg subscribe log and reg subscribe pull --json. A delivery of another subscription is not found (exit 7); a pull-only subscription has no webhook to send to (exit 8).`;
  static override examples = [
    '<%= config.bin %> <%= command.id %> 0190f5d3-0000-7000-8000-0123456789ab 0190f5d4-1111-7000-8000-0123456789ab',
    '<%= config.bin %> <%= command.id %> nightly-results 0190f5d4-1111-7000-8000-0123456789ab --instance analysis-eu --json',
  ];
  static override args = {
    id: Args.string({ description: 'the subscription id, or its label', required: true }),
    delivery: Args.string({ description: 'the delivery id', required: true }),
  };
  static override flags = {
    instance: Flags.string({
      aliases: ['deployment'],
      description:
        "the deployment a subscription given by its label belongs to, by id, IRI or label (default: the caller's own)",
    }),
  };

  async run(): Promise<Delivery> {
    const { args, flags } = await this.parse(SubscribeRedeliver);
    const registry = await this.registry(flags);
    const id = await registry.names.subscription(args.id, flags.instance);
    const delivery = await registry.http.request<Delivery>(
      'POST',
      `/api/v1/subscriptions/${encodeURIComponent(id)}/deliveries/${encodeURIComponent(args.delivery)}/redeliver`,
    );
    this.log(
      delivery.next_attempt_at === null
        ? `delivery ${delivery.id} queued; it is sent once the webhook is resumed`
        : `delivery ${delivery.id} queued for ${delivery.next_attempt_at}`,
    );
    return delivery;
  }
}
