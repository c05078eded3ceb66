import { Args } from '@oclif/core';
import { ClientCommand } from '../../cli/client/client-command.js';
import { withdrawRelease, type ReleaseWithdrawal } from '../../cli/client/releases.js';

export default class ReleasesDelete extends ClientCommand {
  static override summary = 'Withdraw a release of a software.';
  static override description = `Tombstones the release: it leaves the software's release list, but its IRI still answers, marked tombstoned, so deployments and runs that name it keep resolving. The release is named through its own software: a release of another software exits 7, as an unknown one does. Needs the curator role.`;
  static override examples = [
    '<%= config.bin %> <%= command.id %> 0190f5d2-8a1b-7c3d-9e4f-0123456789ab 0190f5d3-1c2d-7e4f-8a9b-0123456789ab',
    '<%= config.bin %> <%= command.id %> 0190f5d2-8a1b-7c3d-9e4f-0123456789ab 0190f5d3-1c2d-7e4f-8a9b-0123456789ab --json',
  ];
  static override args = {
    software: Args.string({ description: 'software id or IRI', required: true }),
    release: Args.string({ description: 'release id or IRI', required: true }),
  };

  async run(): Promise<ReleaseWithdrawal> {
    const { args, flags } = await this.parse(ReleasesDelete);
    const result = await withdrawRelease((await this.registry(flags)).http, args.software, args.release);
    this.log(`withdrew release ${args.release} of software ${args.software}`);
    return result;
  }
}
