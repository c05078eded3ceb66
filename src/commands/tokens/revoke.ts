import { Args } from '@oclif/core';
import { ClientCommand } from '../../cli/client/client-command.js';
import { ownerOf, TokenClient, tokenOwnerFlags, type RevokeResult } from '../../cli/client/tokens.js';

export default class TokensRevoke extends ClientCommand {
  static override summary = 'Revoke an API token of a deployment or a software.';
  static override description = `Revokes the token at once: the next request that presents it is refused. The token stays in the
list, marked revoked. Name the deployment (--instance) or software (--software) it belongs to; a token of
another record is not found (exit 7). Revoking a revoked token succeeds and changes nothing.`;
  static override examples = [
    '<%= config.bin %> <%= command.id %> 0190f5d3-0000-7000-8000-0123456789ab --instance 0190f5d2-8a1b-7c3d-9e4f-0123456789ab',
  ];
  static override args = {
    'token-id': Args.string({ description: 'the token id (from reg tokens list)', required: true }),
  };
  static override flags = tokenOwnerFlags;

  async run(): Promise<RevokeResult> {
    const { args, flags } = await this.parse(TokensRevoke);
    const client = new TokenClient((await this.registry(flags)).http);
    const result = await client.revoke(ownerOf(flags), args['token-id']);
    this.log(`revoked token ${args['token-id']}`);
    return result;
  }
}
