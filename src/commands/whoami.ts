import { ClientCommand } from '../cli/client/client-command.js';
import type { Whoami as WhoamiAnswer } from '../api/index.js';
import { TokenClient } from '../cli/client/tokens.js';

export default class Whoami extends ClientCommand {
  static override summary = 'Show who the registry takes your credential to be.';
  static override description = `Asks GET /api/v1/whoami with the profile's token (or none) and prints the answer: whether it authenticated, the kind of credential, subject and display name, the deployment it acts as, the software whose deployments it may register (a software token's, or the software whose registration_clients list an identity-provider client), its scopes and roles. Any registry answers it, even one closed to anonymous reads. A token of an extra workload issuer that is bound to no deployment counts as anonymous (authenticated: false). A token the registry does not accept exits 9.`;
  static override examples = [
    '<%= config.bin %> <%= command.id %>',
    'REG_TOKEN=reg_0123456789ab_... <%= config.bin %> <%= command.id %> --json',
  ];

  async run(): Promise<WhoamiAnswer> {
    const { flags } = await this.parse(Whoami);
    const answer = await new TokenClient((await this.registry(flags)).http).whoami();
    this.printRecord({
      ...answer,
      scopes: answer.scopes.join(' ') || 'none',
      roles: answer.roles.join(' ') || 'none',
    });
    return answer;
  }
}
