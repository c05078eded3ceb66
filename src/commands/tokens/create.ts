import { Flags } from '@oclif/core';
import { SCOPES } from '../../core/access/scopes.js';
import { ClientCommand } from '../../cli/client/client-command.js';
import type { MintedToken } from '../../api/index.js';
import { ownerOf, TokenClient, tokenOwnerFlags } from '../../cli/client/tokens.js';

export default class TokensCreate extends ClientCommand {
  static override summary = 'Issue a registry API token for a deployment or a software.';
  static override description = `Issues a token and prints it once, alone on standard output (so TOKEN=$(reg tokens create ...)
keeps it), with what it is for on standard error; under --json the whole answer (token, record, shown_once,
and for software tokens the usage hint). The registry keeps only a digest: a lost token cannot be shown
again, only revoked and replaced.

With --instance the token acts as that deployment (admin role; default scopes advertise:produce and
advertise:consume). With --software it is shared by every deployment of that software, which registers
itself with PUT /api/v1/instances/self (curator role; default scopes register:instance,
advertise:produce and advertise:consume). A deployment's token stays within the deployment's allowed_scopes:
a scope outside them is refused (422 scope-not-allowed, exit 8), the default scopes are narrowed to them, and a
later narrowing of allowed_scopes applies to tokens already issued. Only administrators may issue admin:* tokens.`;
  static override examples = [
    '<%= config.bin %> <%= command.id %> --instance 0190f5d2-8a1b-7c3d-9e4f-0123456789ab --label "prod runner" --expires-in 90d',
    '<%= config.bin %> <%= command.id %> --software 0190f5d2-8a1b-7c3d-9e4f-0123456789ab --scope register:instance --scope advertise:produce',
    '<%= config.bin %> <%= command.id %> --instance 0190f5d2-8a1b-7c3d-9e4f-0123456789ab --json',
  ];
  static override flags = {
    ...tokenOwnerFlags,
    scope: Flags.string({
      description:
        'a scope the token carries (repeatable; default for a deployment: advertise:produce and advertise:consume; for a software: register:instance, advertise:produce and advertise:consume; always narrowed to the allowed_scopes)',
      multiple: true,
      options: [...SCOPES],
    }),
    label: Flags.string({ description: 'what the token is for, shown in lists and as its display name' }),
    'expires-in': Flags.string({
      description: 'lifetime such as 90d, 12h, 30m or 2w (default: until revoked)',
    }),
  };

  async run(): Promise<MintedToken> {
    const { flags } = await this.parse(TokensCreate);
    const registry = await this.registry(flags);
    const client = new TokenClient(registry.http);
    const minted = await client.mint(await ownerOf(flags, registry.names), {
      ...(flags.scope === undefined ? {} : { scopes: flags.scope }),
      ...(flags.label === undefined ? {} : { label: flags.label }),
      ...(flags['expires-in'] === undefined ? {} : { expires_in: flags['expires-in'] }),
    });
    const { record } = minted;
    this.log(minted.token);
    this.logToStderr(
      `issued token ${record.id} for ${record.instance_iri ?? record.software_iri ?? '?'} (scopes: ${record.scopes.join(', ') || 'none'}; expires: ${record.expires_at ?? 'never'}); it is shown only this once`,
    );
    if (minted.usage !== undefined) this.logToStderr(`usage: ${minted.usage}`);
    return minted;
  }
}
