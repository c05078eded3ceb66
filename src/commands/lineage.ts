import { Args, Flags } from '@oclif/core';
import { ClientCommand } from '../cli/client/client-command.js';
import { mergePages, renderLineageTree, type LineageJson } from '../cli/client/lineage.js';

export default class Lineage extends ClientCommand {
  static override summary = 'Show where an artifact came from and what was made from it.';
  static override description = `Asks GET /api/v1/artifacts/{id}/lineage and prints the lineage as an indented tree rooted at the
artifact: the runs that generated or used it, the artifacts those runs used or generated, and the artifacts
it was derived from or revised, each with its kind, title and IRI. Artifacts at other registries not yet
resolved are marked (unresolved). --direction up follows where it came from, down what came from it, both
(the default) either way; --depth (1-6, default 1) is how many steps to follow. --as-of shows lineage as the
registry had recorded it at that time, --collapse shows versions as the dataset they belong to. A lineage
larger than one answer (--max-nodes, default 250) comes in pages: the command says so on stderr and names the
cursor of the next page (--cursor); --all fetches every page and prints them as one. Under --json the API's
answer is printed as it came (root, nodes, edges, partial, cursor), or the pages merged with --all.`;
  static override examples = [
    '<%= config.bin %> <%= command.id %> 0190f5d2-8a1b-7c3d-9e4f-0123456789ab',
    '<%= config.bin %> <%= command.id %> https://registry.example.org/artifact/0190f5d2-8a1b-7c3d-9e4f-0123456789ab --direction up --depth 4',
    '<%= config.bin %> <%= command.id %> 0190f5d2-8a1b-7c3d-9e4f-0123456789ab --json',
    '<%= config.bin %> <%= command.id %> 0190f5d2-8a1b-7c3d-9e4f-0123456789ab --direction down --depth 6 --all --collapse',
  ];
  static override args = {
    artifact: Args.string({ description: 'the artifact: its id or IRI', required: true }),
  };
  static override flags = {
    direction: Flags.string({
      description: 'up: where it came from; down: what came from it; both (the registry default)',
      options: ['up', 'down', 'both'],
    }),
    depth: Flags.integer({
      description: 'steps to follow (1-6; the registry defaults to 1)',
      min: 1,
      max: 6,
    }),
    'max-nodes': Flags.integer({
      description: 'nodes per answer (2-2000; the registry defaults to 250)',
      min: 2,
      max: 2000,
    }),
    'as-of': Flags.string({ description: 'lineage as recorded at this time, e.g. 2026-01-31T12:00:00Z' }),
    collapse: Flags.boolean({ description: 'show versions as the dataset they belong to' }),
    cursor: Flags.string({ description: 'the cursor of the next page, from a partial answer' }),
    all: Flags.boolean({
      description: 'fetch every page of a partial answer and print them as one',
      exclusive: ['cursor'],
    }),
  };

  async run(): Promise<LineageJson> {
    const { args, flags } = await this.parse(Lineage);
    const client = await this.registry(flags);
    const page = (cursor: string | undefined) =>
      client.http.request<LineageJson>(
        'GET',
        `/api/v1/artifacts/${encodeURIComponent(args.artifact)}/lineage`,
        {
          query: {
            direction: flags.direction,
            depth: flags.depth,
            max_nodes: flags['max-nodes'],
            as_of: flags['as-of'],
            collapse: flags.collapse ? 'datasets' : undefined,
            cursor,
          },
        },
      );
    let lineage = await page(flags.cursor);
    if (flags.all) {
      for (let pages = 1; lineage.cursor !== undefined; pages++) {
        process.stderr.write(`lineage: ${lineage.nodes.length} nodes after ${pages} pages\r`);
        lineage = mergePages(lineage, await page(lineage.cursor));
      }
    }
    this.log(renderLineageTree(lineage));
    if (lineage.partial === true && lineage.cursor !== undefined) {
      process.stderr.write(
        `partial: more lineage than one answer holds; the next page: --cursor ${lineage.cursor} (or --all for every page)\n`,
      );
    }
    return lineage;
  }
}
