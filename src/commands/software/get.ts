import { Args } from '@oclif/core';
import { ClientCommand } from '../../cli/client/client-command.js';
import type { SoftwareJson } from '../../cli/client/registry.js';

export default class SoftwareGet extends ClientCommand {
  static override summary = 'Show one software record.';
  static override description = `Prints the record as field and value lines (topics and licences by label, nested objects as
field.sub lines), or under --json the API's record as it came. A withdrawn record still answers,
marked tombstoned.`;
  static override examples = [
    '<%= config.bin %> <%= command.id %> 0190f5d2-8a1b-7c3d-9e4f-0123456789ab',
    '<%= config.bin %> <%= command.id %> https://registry.example.org/software/0190f5d2-8a1b-7c3d-9e4f-0123456789ab --json',
  ];
  static override args = { id: Args.string({ description: 'software id or IRI', required: true }) };

  async run(): Promise<SoftwareJson> {
    const { args, flags } = await this.parse(SoftwareGet);
    const record = await (await this.registry(flags)).get<SoftwareJson>('software', args.id);
    this.printRecord(record);
    return record;
  }
}
