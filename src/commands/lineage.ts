import { Args, Flags } from '@oclif/core';
import { ClientCommand } from '../cli/client/client-command.js';
import { renderLineageTree, type LineageJson } from '../cli/client/lineage.js';

export default class Lineage extends ClientCommand {
  static override summary = 'Show where an artifact came from and what was made from it.';
  static override description = `Asks GET /api/v1/artifacts/{id}/lineage and prints the lineage as an indented tree rooted at the
artifact: the runs that generated or used it, the artifacts those runs used or generated, and the artifacts
it was derived from or revised, each with its kind, title and IRI. Artifacts at other registries not yet
resolved are marked (unresolved). --direction up follows where it came from, down what came from it, both
(the default) either way; --depth (1-6, default 1) is how many steps to follow. Under --json the API's
answer is printed as it came (root, nodes, edges, truncated).`;
  static override examples = [
    '<%= config.bin %> <%= command.id %> 0190f5d2-8a1b-7c3d-9e4f-0123456789ab',
    '<%= config.bin %> <%= command.id %> https://registry.example.org/artifact/0190f5d2-8a1b-7c3d-9e4f-0123456789ab --direction up --depth 4',
    '<%= config.bin %> <%= command.id %> 0190f5d2-8a1b-7c3d-9e4f-0123456789ab --json',
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
  };

  async run(): Promise<LineageJson> {
    const { args, flags } = await this.parse(Lineage);
    const client = await this.registry(flags);
    const lineage = await client.http.request<LineageJson>(
      'GET',
      `/api/v1/artifacts/${encodeURIComponent(args.artifact)}/lineage`,
      { query: { direction: flags.direction, depth: flags.depth } },
    );
    this.log(renderLineageTree(lineage));
    return lineage;
  }
}
