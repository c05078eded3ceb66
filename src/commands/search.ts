import { Args, Flags } from '@oclif/core';
import { ClientCommand, tableFlags } from '../cli/client/client-command.js';
import { SEARCH_COLUMNS, SEARCH_TYPES, type SearchJson } from '../cli/client/search.js';

export default class Search extends ClientCommand {
  static override summary = 'Search the software, deployments, artifacts and runs a registry holds.';
  static override description = `Asks GET /api/v1/search and prints the hits best first as a table fitted to the terminal: kind,
title, id, score and a snippet of the text around the match. The words are matched, case and accents
ignored, against a software's name, tagline and description, a deployment's label and description, an
artifact's title and description, and a run's label and identifier: the whole title first (score 1.0),
then titles starting with the words (0.8), a word of the title starting with them (0.7), the words
anywhere in the title (0.6), and elsewhere (0.3). Withdrawn records are never found. --type narrows the
kinds (repeat it for several); --limit is the most hits (1-100, the registry defaults to 30). Under
--json the API's answer is printed as it came (query, hits, total, partial, peers).`;
  static override examples = [
    '<%= config.bin %> <%= command.id %> blast',
    '<%= config.bin %> <%= command.id %> "validation report" --type artifact --type run --limit 10',
    '<%= config.bin %> <%= command.id %> shacl --json',
  ];
  static override args = { q: Args.string({ description: 'words to look for', required: true }) };
  static override flags = {
    type: Flags.string({
      description: 'only records of this kind (repeat for several)',
      options: [...SEARCH_TYPES],
      multiple: true,
    }),
    limit: Flags.integer({
      description: 'most hits to show (1-100; the registry defaults to 30)',
      min: 1,
      max: 100,
    }),
    ...tableFlags,
  };

  async run(): Promise<SearchJson> {
    const { args, flags } = await this.parse(Search);
    const client = await this.registry(flags);
    const found = await client.http.request<SearchJson>('GET', '/api/v1/search', {
      query: { q: args.q, type: flags.type?.join(','), limit: flags.limit },
    });
    if (found.hits.length > 0) this.printTable(found.hits, SEARCH_COLUMNS);
    this.logToStderr(
      `${found.hits.length === 0 ? 'no hits' : `${found.hits.length} hit${found.hits.length === 1 ? '' : 's'}`}` +
        (found.partial ? ' (the registry is rebuilding its search index: some records may be missing)' : ''),
    );
    return found;
  }
}
