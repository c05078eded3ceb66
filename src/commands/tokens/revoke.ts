import { Args } from '@oclif/core';
import { ClientCommand } from '../../cli/client/client-command.js';
import {
  ownerOf,
  ownerPath,
  TokenClient,
  tokenOwnerFlags,
  type RevokeResult,
} from '../../cli/client/tokens.js';

export default class TokensRevoke extends ClientCommand {
  static override summary = 'Revoke an API token of a deployment or a software.';
  static override description = `Revokes the token at once: the next request that presents it is refused. The token stays in the
list, marked revoked. Name the deployment (--instance) or software (--software) it belongs to; a token of
another record is not found (exit 7). Revoking a revoked token succeeds and changes nothing.`;
  static override examples = [
    '<%= config.bin %> <%= command.id %> 0190f5d3-0000-7000-8000-0123456789ab --instance 0190f5d2-8a1b-7c3d-9e4f-0123456789ab',
  ];
  static override args = {
    'token-id': Args.string({
      description: 'the token id (from reg tokens list), or its label',
      required: true,
    }),
  };
  static override flags = tokenOwnerFlags;

  async run(): Promise<RevokeResult> {
    const { args, flags } = await this.parse(TokensRevoke);
    const registry = await this.registry(flags);
    const client = new TokenClient(registry.http);
    const owner = await ownerOf(flags, registry.names);
    const id = await registry.names.token(args['token-id'], ownerPath(owner));
    const result = await client.revoke(owner, id);
    this.log(`revoked token ${id}`);
    return result;
  }
}
