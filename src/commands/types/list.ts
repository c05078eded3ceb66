import { ClientCommand, tableFlags } from '../../cli/client/client-command.js';
import type { ListPage, TypeJson } from '../../cli/client/registry.js';
import { TYPE_COLUMNS } from '../../cli/client/views.js';

export default class TypesList extends ClientCommand {
  static override summary = 'List the artifact types in use or minted in a registry.';
  static override description = `Prints the artifact types minted or adopted here, or cited by an artifact or a capability, as a
table (label, source, artifact count, IRI, id). Not the whole vocabulary: search that with reg vocab
search. Under --json the API's envelope is printed as it came.`;
  static override examples = [
    '<%= config.bin %> <%= command.id %>',
    '<%= config.bin %> <%= command.id %> --json',
  ];
  static override flags = tableFlags;

  async run(): Promise<ListPage<TypeJson>> {
    const { flags } = await this.parse(TypesList);
    return this.listRecords(flags, 'types', () => ({}), TYPE_COLUMNS);
  }
}
