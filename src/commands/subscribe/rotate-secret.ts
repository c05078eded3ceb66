import { Args, Flags } from '@oclif/core';
import type { SecretRotated } from '../../api/index.js';
import { ClientCommand } from '../../cli/client/client-command.js';
import { readSecretFile } from '../../cli/client/subscriptions.js';

export default class SubscribeRotateSecret extends ClientCommand {
  static override summary =
    "Replace a webhook subscription's secret, keeping the old one signing for a while.";
  static override description = `Sets a new webhook secret (yours from --secret-file, or one the registry generates) and prints it, only this once. For the --overlap that follows (24h unless given, at most 7d; 0 replaces the old secret at once) every delivery carries two signatures, one under each secret, space-separated in the one signature header (x-reg-signature, or webhook-signature under Standard Webhooks), so the receiver verifies with either while it switches to the new secret. After the overlap only the new secret signs.

Rotating again during an overlap keeps only the secret just replaced beside the new one. Under Standard Webhooks a secret of your own must be whsec_ and the base64 of 24 to 64 bytes.`;
  static override examples = [
    '<%= config.bin %> <%= command.id %> 0190f5d3-0000-7000-8000-0123456789ab',
    '<%= config.bin %> <%= command.id %> 0190f5d3-0000-7000-8000-0123456789ab --overlap 2h --json',
    '<%= config.bin %> <%= command.id %> nightly-results --instance analysis-eu --secret-file new-secret.txt --overlap 0',
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
    overlap: Flags.string({
      description: 'how long the replaced secret keeps signing beside the new one (default 24h, at most 7d)',
    }),
    'secret-file': Flags.string({
      description: 'read the new secret from this file (default: the registry generates one)',
    }),
  };

  async run(): Promise<SecretRotated> {
    const { args, flags } = await this.parse(SubscribeRotateSecret);
    const registry = await this.registry(flags);
    const id = await registry.names.subscription(args.id, flags.instance);
    const rotated = await registry.http.request<SecretRotated>(
      'POST',
      `/api/v1/subscriptions/${encodeURIComponent(id)}/secret`,
      {
        body: {
          ...(flags.overlap === undefined ? {} : { overlap: flags.overlap }),
          ...(flags['secret-file'] === undefined ? {} : { secret: readSecretFile(flags['secret-file']) }),
        },
      },
    );
    this.printRecord({
      id: rotated.subscription.id,
      signature: rotated.subscription.signature,
      secret: rotated.secret,
      previous_secret_until: rotated.previous_secret_until,
    });
    this.logToStderr(
      rotated.previous_secret_until === null
        ? 'the new secret is shown only this once; the old one no longer signs'
        : `the new secret is shown only this once; the old one also signs until ${rotated.previous_secret_until}`,
    );
    return rotated;
  }
}
