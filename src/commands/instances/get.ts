import { Args } from '@oclif/core';
import { ClientCommand } from '../../cli/client/client-command.js';
import type { InstanceJson } from '../../cli/client/registry.js';

export default class InstancesGet extends ClientCommand {
  static override summary = 'Show one deployment (instance) record.';
  static override description = `Prints the record as field and value lines (nested objects as field.sub lines), or under --json
the API's record as it came, with its health, counts and origin.`;
  static override examples = [
    '<%= config.bin %> <%= command.id %> 0190f5d2-8a1b-7c3d-9e4f-0123456789ab',
    '<%= config.bin %> <%= command.id %> 0190f5d2-8a1b-7c3d-9e4f-0123456789ab --json',
  ];
  static override args = { id: Args.string({ description: 'instance id or IRI', required: true }) };

  async run(): Promise<InstanceJson> {
    const { args, flags } = await this.parse(InstancesGet);
    const record = await (await this.registry(flags)).get<InstanceJson>('instances', args.id);
    this.printRecord(record);
    return record;
  }
}
