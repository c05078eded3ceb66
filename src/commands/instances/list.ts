import { Flags } from '@oclif/core';
import { ClientCommand, listFlags } from '../../cli/client/client-command.js';
import { AVAILABILITY } from '../../cli/client/fields.js';
import type { InstanceJson, ListPage } from '../../cli/client/registry.js';
import { INSTANCE_COLUMNS } from '../../cli/client/views.js';

export default class InstancesList extends ClientCommand {
  static override summary = 'List the deployments (instances) a registry holds, newest first.';
  static override description = `Prints one page of instances as a table (label, software, health, availability, endpoint, id), or
every page with --all. The filters are the API's; --software takes an id or an IRI. Under --json the
API's list envelope is printed as it came (items, total, next_cursor).`;
  static override examples = [
    '<%= config.bin %> <%= command.id %>',
    '<%= config.bin %> <%= command.id %> --software 0190f5d2-8a1b-7c3d-9e4f-0123456789ab --health down',
    '<%= config.bin %> <%= command.id %> --all --json',
  ];
  static override flags = {
    query: Flags.string({ char: 'q', description: 'words in the label or description' }),
    software: Flags.string({ description: 'only deployments of this software (id, IRI or name)' }),
    health: Flags.string({
      description: 'only deployments in this health state',
      options: ['up', 'down', 'unknown'],
    }),
    availability: Flags.string({ description: 'only deployments this open', options: [...AVAILABILITY] }),
    operator: Flags.string({ description: 'only deployments run by this operator (name or IRI)' }),
    release: Flags.string({ description: 'only deployments running this release (IRI)' }),
    registry: Flags.string({ description: '"local", or the id of a peer registry' }),
    ...listFlags,
  };

  async run(): Promise<ListPage<InstanceJson>> {
    const { flags } = await this.parse(InstancesList);
    const { query: q, health, availability, operator, release, registry } = flags;
    return this.listRecords(
      flags,
      'instances',
      async (client) => ({
        q,
        software: await client.softwareIri(flags.software),
        health,
        availability,
        operator,
        release,
        registry,
      }),
      INSTANCE_COLUMNS,
    );
  }
}
