import { Flags } from '@oclif/core';
import { ClientCommand, tableFlags } from '../../cli/client/client-command.js';
import { PEER_COLUMNS, PEER_STATES, PeerClient, type PeerListJson } from '../../cli/client/peers.js';

export default class PeersList extends ClientCommand {
  static override summary = 'List peer registries, or the suggestions awaiting review.';
  static override description = `Prints the peers in one review state as a table (title, base IRI, state, outcome of the last
contact, when it last answered, records cached from it, id). A peer is stale when it has not answered
for 90 days. Suggestions come from registries that announced themselves and from the peers of peers; add
one with reg peers add, or dismiss it with reg peers remove. Needs the admin role. Under --json the API's
envelope (items, total).`;
  static override examples = [
    '<%= config.bin %> <%= command.id %>',
    '<%= config.bin %> <%= command.id %> --state suggested --json',
  ];
  static override flags = {
    state: Flags.string({
      description: 'which peers to list',
      options: [...PEER_STATES],
      default: 'active',
    }),
    ...tableFlags,
  };

  async run(): Promise<PeerListJson> {
    const { flags } = await this.parse(PeersList);
    const client = new PeerClient((await this.registry(flags)).http);
    const list = await client.list(flags.state as (typeof PEER_STATES)[number]);
    this.printTable(list.items, PEER_COLUMNS, list);
    return list;
  }
}
