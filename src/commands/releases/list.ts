import { Args } from '@oclif/core';
import { ClientCommand } from '../../cli/client/client-command.js';
import type { ListPage } from '../../cli/client/registry.js';
import { listReleases, RELEASE_COLUMNS, type ReleaseJson } from '../../cli/client/releases.js';

export default class ReleasesList extends ClientCommand {
  static override summary = 'List the releases of a software.';
  static override description = `Prints the live releases of a software, newest registered first, as a table (version, publication date, container image, capability, id). Withdrawn releases are left out. The API answers every release at once, so there are no paging flags.

Under --json the API's envelope is printed as it came (items, total). An unknown software exits 7.`;
  static override examples = [
    '<%= config.bin %> <%= command.id %> 0190f5d2-8a1b-7c3d-9e4f-0123456789ab',
    '<%= config.bin %> <%= command.id %> https://registry.example.org/software/0190f5d2-8a1b-7c3d-9e4f-0123456789ab --json',
  ];
  static override args = {
    software: Args.string({ description: 'software id or IRI', required: true }),
  };

  async run(): Promise<ListPage<ReleaseJson>> {
    const { args, flags } = await this.parse(ReleasesList);
    const page = await listReleases((await this.registry(flags)).http, args.software);
    this.printTable(page.items, RELEASE_COLUMNS, page);
    return page;
  }
}
