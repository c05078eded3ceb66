import type { TokenList } from '../../api/index.js';
import { ClientCommand, tableFlags } from '../../cli/client/client-command.js';
import { ownerOf, TOKEN_COLUMNS, TokenClient, tokenOwnerFlags } from '../../cli/client/tokens.js';

export default class TokensList extends ClientCommand {
  static override summary = 'List the API tokens of a deployment or a software, newest first.';
  static override description = `Prints every token of the deployment (--instance) or software (--software), revoked and expired
ones included, as a table (label, prefix, state, scopes, created, expires, last used, id); never the token
values. last used is updated at most once a minute. Deployment tokens may be listed by an administrator, a
curator or the deployment itself; software tokens by a curator or an administrator. Under --json the
API's envelope (items, total).`;
  static override examples = [
    '<%= config.bin %> <%= command.id %> --instance 0190f5d2-8a1b-7c3d-9e4f-0123456789ab',
    '<%= config.bin %> <%= command.id %> --software 0190f5d2-8a1b-7c3d-9e4f-0123456789ab --json',
  ];
  static override flags = { ...tokenOwnerFlags, ...tableFlags };

  async run(): Promise<TokenList> {
    const { flags } = await this.parse(TokensList);
    const registry = await this.registry(flags);
    const list = await new TokenClient(registry.http).list(await ownerOf(flags, registry.names));
    this.printTable(list.items, TOKEN_COLUMNS, list);
    return list;
  }
}
