import { Args } from '@oclif/core';
import { ClientCommand } from '../../cli/client/client-command.js';
import type { WithdrawResult } from '../../cli/client/registry.js';

export default class SoftwareDelete extends ClientCommand {
  static override summary = 'Withdraw a software record.';
  static override description = `Tombstones the record: it leaves lists and searches, but its IRI still answers, marked
tombstoned, so references to it keep resolving. Needs the curator role.`;
  static override examples = ['<%= config.bin %> <%= command.id %> 0190f5d2-8a1b-7c3d-9e4f-0123456789ab'];
  static override args = { id: Args.string({ description: 'software id or IRI', required: true }) };

  async run(): Promise<WithdrawResult> {
    const { args, flags } = await this.parse(SoftwareDelete);
    const result = await (await this.registry(flags)).withdraw('software', args.id);
    this.log(`withdrew software ${args.id}`);
    return result;
  }
}
