import { Args, Flags } from '@oclif/core';
import { ClientCommand } from '../../cli/client/client-command.js';
import type { ListPage, VocabHit } from '../../cli/client/registry.js';
import { VOCAB_COLUMNS } from '../../cli/client/views.js';

export default class VocabSearch extends ClientCommand {
  static override summary = 'Search the vocabularies a registry holds for a term.';
  static override description = `Finds terms whose label or synonym contains the words, best match first: artifact types (branch data, including types minted or adopted here), research topics (topic) and the artifact keywords (keyword). Queries shorter than 2 characters find nothing. Prints label, branch, source, score and IRI; use the IRI in --topic, in capabilities, or adopt it with reg types create --iri.`;
  static override examples = [
    '<%= config.bin %> <%= command.id %> "sequence alignment"',
    '<%= config.bin %> <%= command.id %> rdf --branch data --json',
  ];
  static override args = { q: Args.string({ description: 'words to look for', required: true }) };
  static override flags = {
    branch: Flags.string({ description: 'only this branch: data, topic or keyword' }),
    limit: Flags.integer({ description: 'most hits to show (1–100; the registry defaults to 20)', min: 1, max: 100 }),
  };

  async run(): Promise<ListPage<VocabHit>> {
    const { args, flags } = await this.parse(VocabSearch);
    const client = await this.registry(flags);
    const hits = await client.searchVocab(args.q, { branch: flags.branch, limit: flags.limit });
    this.printTable(hits.items, VOCAB_COLUMNS, hits);
    return hits;
  }
}
