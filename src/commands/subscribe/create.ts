import { Flags } from '@oclif/core';
import { ClientCommand } from '../../cli/client/client-command.js';
import {
  filterFlags,
  filterOf,
  readSecretFile,
  SubscriptionClient,
  type SubscriptionWrittenJson,
} from '../../cli/client/subscriptions.js';

export default class SubscribeCreate extends ClientCommand {
  static override summary = 'Subscribe a deployment to artifacts that match a filter.';
  static override description = `Creates a subscription of the deployment --instance: every artifact advertised later that matches the filter is queued for it. Filter lists combine by OR within a flag and AND across flags; no filter flag matches every artifact other deployments produce (--role consumed adds what they consume; --include-own adds the deployment's own).

Without --webhook-url the subscription is pull-only (reg subscribe pull); with one, the registry also POSTs each event there, signed with the webhook secret (yours from --webhook-secret-file, or generated). The secret is printed only this once: keep it for reg webhook verify and for the receiver.

--format chooses the webhook body: the registry's own event (reg, the default), a CloudEvents 1.0 event in structured mode (cloudevents: Content-Type application/cloudevents+json, type org.reg.artifact.advertised, the delivery id as id, the event as data) or a CDEvents 0.4 artifact.published event (cdevents: the event as customData). --signature chooses how it is signed: x-reg-signature (reg, the default) or Standard Webhooks (standard-webhooks: webhook-id, webhook-timestamp and webhook-signature, with a whsec_ secret any Standard Webhooks library verifies). The pull queue serves the registry's own event whatever the format.

Webhook URLs must be https and resolve to public addresses unless the registry allows otherwise. Admins, curators and the deployment's own credential may subscribe; a deployment holds at most 32 subscriptions unless the registry sets REG_SUBSCRIPTION_MAX_PER_INSTANCE.`;
  static override examples = [
    '<%= config.bin %> <%= command.id %> --instance 0190f5d2-8a1b-7c3d-9e4f-0123456789ab --conforms-to http://edamontology.org/data_0006',
    '<%= config.bin %> <%= command.id %> --instance 0190f5d2-8a1b-7c3d-9e4f-0123456789ab --webhook-url https://hooks.example.org/reg --keyword SHACL --role produced --role consumed',
    '<%= config.bin %> <%= command.id %> --instance 0190f5d2-8a1b-7c3d-9e4f-0123456789ab --filter-file filter.json --json',
    '<%= config.bin %> <%= command.id %> --instance 0190f5d2-8a1b-7c3d-9e4f-0123456789ab --webhook-url https://hooks.example.org/ce --format cloudevents --signature standard-webhooks',
  ];
  static override flags = {
    instance: Flags.string({
      aliases: ['deployment'],
      description: 'the subscribing deployment, by id, IRI or label',
      required: true,
    }),
    label: Flags.string({ description: 'what the subscription is for' }),
    'webhook-url': Flags.string({
      description: 'https URL the registry POSTs each event to (default: pull only)',
    }),
    format: Flags.string({
      description:
        'webhook body: reg (the registry event), cloudevents (CloudEvents 1.0, structured) or cdevents (artifact.published)',
      options: ['reg', 'cloudevents', 'cdevents'],
      dependsOn: ['webhook-url'],
    }),
    signature: Flags.string({
      description:
        'webhook signature: reg (x-reg-signature) or standard-webhooks (webhook-id, webhook-signature)',
      options: ['reg', 'standard-webhooks'],
      dependsOn: ['webhook-url'],
    }),
    'webhook-secret-file': Flags.string({
      description: 'read the webhook secret from this file (default: the registry generates one)',
      dependsOn: ['webhook-url'],
    }),
    ...filterFlags,
  };

  async run(): Promise<SubscriptionWrittenJson> {
    const { flags } = await this.parse(SubscribeCreate);
    const registry = await this.registry(flags);
    const client = new SubscriptionClient(registry.http);
    const written = await client.create(await registry.names.deployment(flags.instance), {
      ...(flags.label === undefined ? {} : { label: flags.label }),
      filter: await filterOf(flags, registry),
      ...(flags['webhook-url'] === undefined ? {} : { webhook_url: flags['webhook-url'] }),
      ...(flags.format === undefined ? {} : { format: flags.format }),
      ...(flags.signature === undefined ? {} : { signature: flags.signature }),
      ...(flags['webhook-secret-file'] === undefined
        ? {}
        : { webhook_secret: readSecretFile(flags['webhook-secret-file']) }),
    });
    const { subscription } = written;
    this.printRecord({
      id: subscription.id,
      instance: subscription.instance_iri,
      label: subscription.label,
      mode: subscription.delivery_mode,
      format: subscription.format,
      signature: subscription.signature,
      webhook_url: subscription.webhook_url,
      pull_url: subscription.pull_url,
      secret: written.secret,
    });
    if (written.secret !== null) this.logToStderr('the webhook secret is shown only this once');
    return written;
  }
}
