import { Flags } from '@oclif/core';
import { ClientCommand, listFlags } from '../../cli/client/client-command.js';
import { listPath, type ListPage } from '../../cli/client/registry.js';
import { RUN_COLUMNS, RUN_STATUS_FILTERS, type RunJson } from '../../cli/client/runs.js';

export default class RunsList extends ClientCommand {
  static override summary = 'List the runs a registry holds, newest first.';
  static override description = `Prints one page of runs as a table (title, external key, status, start, end, deployment, id), or every page with --all. The title is the run's label, else its external key.

The filters are the API's: --instance and --software narrow the list to the runs of one deployment or of the deployments of one software (each by id or IRI), --status to one outcome (a run advertised without one reads unknown), --query to runs whose label, identifier or external key contains the words, and --registry to this registry ("local") or one peer. Under --json the API's list envelope is printed as it came (items, total, next_cursor).`;
  static override examples = [
    '<%= config.bin %> <%= command.id %>',
    '<%= config.bin %> <%= command.id %> --instance 0190f5d2-8a1b-7c3d-9e4f-0123456789ab --status failed',
    '<%= config.bin %> <%= command.id %> --query nightly --all --json',
  ];
  static override flags = {
    query: Flags.string({ char: 'q', description: 'words in the label, identifier or external key' }),
    instance: Flags.string({
      description: 'only runs of this deployment (id or IRI)',
      aliases: ['deployment'],
    }),
    software: Flags.string({ description: 'only runs of deployments of this software (id or IRI)' }),
    status: Flags.string({ description: 'only runs with this status', options: [...RUN_STATUS_FILTERS] }),
    registry: Flags.string({ description: '"local", or the id of a peer registry' }),
    ...listFlags,
  };

  async run(): Promise<ListPage<RunJson>> {
    const { flags } = await this.parse(RunsList);
    const { query: q, instance, software, status, registry, limit, cursor } = flags;
    const client = await this.registry(flags);
    const query = { q, instance, software, status, registry, limit, cursor };
    const page = await listPath<RunJson>(client.http, '/api/v1/runs', query, flags.all === true);
    this.printTable(page.items, RUN_COLUMNS, page);
    return page;
  }
}
