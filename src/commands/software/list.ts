import { Flags } from '@oclif/core';
import { ClientCommand, listFlags } from '../../cli/client/client-command.js';
import { KINDS } from '../../cli/client/fields.js';
import type { ListPage, SoftwareJson } from '../../cli/client/registry.js';
import { SOFTWARE_COLUMNS } from '../../cli/client/views.js';

export default class SoftwareList extends ClientCommand {
  static override summary = 'List the software a registry holds, newest first.';
  static override description = `Prints one page of software as a table (name, kinds, licence, tagline, id; columns that do not fit the terminal are left out, least important first), or every page with --all.

The filters are the API's: --kind, --topic, --keyword, --license, --publisher, --produces, --consumes and
--registry narrow the list, --query matches words in the name, tagline or description. Under --json the
API's list envelope is printed as it came (items, total, next_cursor, facets).`;
  static override examples = [
    '<%= config.bin %> <%= command.id %>',
    '<%= config.bin %> <%= command.id %> --kind service --license Apache-2.0',
    '<%= config.bin %> <%= command.id %> --all --json',
  ];
  static override flags = {
    query: Flags.string({ char: 'q', description: 'words in the name, tagline or description' }),
    kind: Flags.string({ description: 'only software of this kind', options: [...KINDS] }),
    topic: Flags.string({ description: 'only software about this research topic (IRI)' }),
    keyword: Flags.string({ description: 'only software with this keyword' }),
    license: Flags.string({ description: 'only software under this licence (SPDX id or IRI)' }),
    publisher: Flags.string({ description: 'only software of this publisher (name or IRI)' }),
    produces: Flags.string({
      description:
        'only software that produces this artifact type (IRI, or a slug or label of reg types list)',
    }),
    consumes: Flags.string({
      description:
        'only software that consumes this artifact type (IRI, or a slug or label of reg types list)',
    }),
    registry: Flags.string({ description: '"local", or the id of a peer registry' }),
    ...listFlags,
  };

  async run(): Promise<ListPage<SoftwareJson>> {
    const { flags } = await this.parse(SoftwareList);
    const { query: q, kind, topic, keyword, license, publisher, produces, consumes, registry } = flags;
    return this.listRecords(
      flags,
      'software',
      async (client) => ({
        q,
        kind,
        topic,
        keyword,
        license,
        publisher,
        produces: await client.typeIri(produces),
        consumes: await client.typeIri(consumes),
        registry,
      }),
      SOFTWARE_COLUMNS,
    );
  }
}
