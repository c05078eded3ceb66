import { Args } from '@oclif/core';
import { ClientCommand } from '../../cli/client/client-command.js';
import { PeerClient, type RemovePeerResult } from '../../cli/client/peers.js';

export default class PeersRemove extends ClientCommand {
  static override summary = 'Remove a peer registry, or dismiss a suggestion.';
  static override description = `Dismisses an active or suggested peer: everything cached from it is dropped, foreign IRIs under
its base IRI read as unresolved again, and announcements from it no longer create suggestions. Removing a
dismissed peer forgets it altogether. Needs the admin role; an unknown id is not found (exit 7).`;
  static override examples = ['<%= config.bin %> <%= command.id %> registry.example.org'];
  static override args = {
    id: Args.string({ description: 'the peer id (from reg peers list)', required: true }),
  };

  async run(): Promise<RemovePeerResult> {
    const { args, flags } = await this.parse(PeersRemove);
    const result = await new PeerClient((await this.registry(flags)).http).remove(args.id);
    this.log(`removed peer ${args.id}`);
    return result;
  }
}
