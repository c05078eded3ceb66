import { Args } from '@oclif/core';
import { ClientCommand } from '../../cli/client/client-command.js';
import type { TypeJson } from '../../cli/client/registry.js';

export default class TypesGet extends ClientCommand {
  static override summary = 'Show one artifact type.';
  static override description = `Prints the type as field and value lines, or under --json the API's object as it came. A type
minted here is named by its slug.`;
  static override examples = [
    '<%= config.bin %> <%= command.id %> rdf-graph',
    '<%= config.bin %> <%= command.id %> rdf-graph --json',
  ];
  static override args = { id: Args.string({ description: 'type slug, id or IRI', required: true }) };

  async run(): Promise<TypeJson> {
    const { args, flags } = await this.parse(TypesGet);
    const type = await (await this.registry(flags)).get<TypeJson>('types', args.id);
    this.printRecord(type);
    return type;
  }
}
