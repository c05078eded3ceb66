import { Args } from '@oclif/core';
import { ClientCommand } from '../../cli/client/client-command.js';
import type { WithdrawResult } from '../../cli/client/registry.js';

export default class InstancesDelete extends ClientCommand {
  static override summary = 'Withdraw a deployment (instance) record.';
  static override description = `Tombstones the record: it leaves lists, but its IRI still answers, marked tombstoned, so runs
that name it keep resolving. Needs the curator role.`;
  static override examples = ['<%= config.bin %> <%= command.id %> 0190f5d2-8a1b-7c3d-9e4f-0123456789ab'];
  static override args = { id: Args.string({ description: 'instance id or IRI', required: true }) };

  async run(): Promise<WithdrawResult> {
    const { args, flags } = await this.parse(InstancesDelete);
    const result = await (await this.registry(flags)).withdraw('instances', args.id);
    this.log(`withdrew instance ${args.id}`);
    return result;
  }
}
