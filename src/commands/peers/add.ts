import { Args, Flags } from '@oclif/core';
import { ClientCommand } from '../../cli/client/client-command.js';
import { PeerClient, type AddedPeerJson, type PeerPreviewJson } from '../../cli/client/peers.js';

export default class PeersAdd extends ClientCommand {
  static override summary = 'Add another registry as a peer.';
  static override description = `Asks the registry to read the well-known description of the registry at BASE-IRI and add it
as an active peer: foreign IRIs under that base are then resolved from it, and federated searches ask it.

The description must name the same base IRI (otherwise the registry refuses with the one it names, exit 6);
an unreachable registry, or this registry's own base, is refused too. The registries the new peer lists as
its own peers become suggestions for review (reg peers list --state suggested). Unless --no-announce is
given, the new peer is told about this registry, which it records as a suggestion of its own.

With --preview nothing is stored: it prints what the description says. Needs the admin role.`;
  static override examples = [
    '<%= config.bin %> <%= command.id %> https://registry.example.org',
    '<%= config.bin %> <%= command.id %> https://registry.example.org --preview --json',
  ];
  static override args = {
    'base-iri': Args.string({ description: 'base IRI of the other registry', required: true }),
  };
  static override flags = {
    preview: Flags.boolean({ description: 'only read and print its description; store nothing' }),
    announce: Flags.boolean({
      description: 'tell the new peer about this registry (--no-announce: do not)',
      default: true,
      allowNo: true,
    }),
  };

  async run(): Promise<AddedPeerJson | PeerPreviewJson> {
    const { args, flags } = await this.parse(PeersAdd);
    const client = new PeerClient((await this.registry(flags)).http);
    const answer = await client.add({
      base_iri: args['base-iri'],
      preview: flags.preview,
      announce: flags.announce,
    });
    if ('preview' in answer) {
      this.printRecord({ ...answer });
      return answer;
    }
    this.log(`added peer ${answer.id} (${answer.base_iri})`);
    const announced = answer.announced;
    if (announced !== undefined)
      this.logToStderr(
        announced.accepted
          ? `told ${answer.base_iri} about this registry (${announced.state ?? 'accepted'})`
          : `could not tell ${answer.base_iri} about this registry: ${announced.error ?? 'refused'}`,
      );
    return answer;
  }
}
