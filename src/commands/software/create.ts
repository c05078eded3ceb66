import { ClientCommand } from '../../cli/client/client-command.js';
import { softwareFields, softwareBody } from '../../cli/client/fields.js';
import { buildBody } from '../../cli/client/input.js';
import type { SoftwareJson } from '../../cli/client/registry.js';

export default class SoftwareCreate extends ClientCommand {
  static override summary = 'Register software.';
  static override description = `Sends a new software record: the JSON object of --file (or standard input with --file -), with the
field flags laid over it. The registry validates it and answers with the full record; a refusal
lists every field at fault and exits 8. Needs the curator role or the register:software scope.`;
  static override examples = [
    '<%= config.bin %> <%= command.id %> --name shacl-manager --kind library --license Apache-2.0',
    '<%= config.bin %> <%= command.id %> --file software.json --json',
    'cat software.json | <%= config.bin %> <%= command.id %> --file -',
  ];
  static override flags = softwareFields;

  async run(): Promise<SoftwareJson> {
    const { flags } = await this.parse(SoftwareCreate);
    const body = await buildBody(flags.file, softwareBody(flags));
    const record = await (await this.registry(flags)).create<SoftwareJson>('software', body);
    this.log(`created software ${record.id} (${record.iri})`);
    return record;
  }
}
