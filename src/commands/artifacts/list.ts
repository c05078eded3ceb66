import { Flags } from '@oclif/core';
import { ARTIFACT_COLUMNS, listArtifacts, type ArtifactJson } from '../../cli/client/artifacts.js';
import { AVAILABILITY } from '../../cli/client/fields.js';
import { ClientCommand, listFlags } from '../../cli/client/client-command.js';
import type { ListPage } from '../../cli/client/registry.js';
import type { HttpClient } from '../../cli/client/http.js';
import { getRun, LookupError, readRun, RUN_COLUMNS } from '../../cli/client/runs.js';

export default class ArtifactsList extends ClientCommand {
  static override summary = 'List the artifacts a registry holds, newest first.';
  static override description = `Prints one page of artifacts as a table (title, type, availability, when issued, the run that generated it, id), or every page with --all. Withdrawn artifacts are left out.

The filters are the API's: --type (an artifact type IRI or the id of a type of this registry), --license (SPDX id or IRI), --availability (of the most open distribution), --keyword, --instance and --software (artifacts a deployment, or any deployment of a software, generated, used or registered), --run (artifacts a run generated or used; the run by id, IRI or external key, as reg runs get takes it), --content (an ni: content identifier or a bare digest; reg artifacts identify computes one from a file), --query (words in the title or description) and --registry. Under --json the API's list envelope is printed as it came.`;
  static override examples = [
    '<%= config.bin %> <%= command.id %>',
    '<%= config.bin %> <%= command.id %> --run 0190f5d2-8a1b-7c3d-9e4f-0123456789ab',
    '<%= config.bin %> <%= command.id %> --type http://edamontology.org/data_0006 --availability public --all --json',
  ];
  static override flags = {
    query: Flags.string({ char: 'q', description: 'words in the title or description' }),
    type: Flags.string({ description: 'only artifacts of this artifact type (IRI or type id)' }),
    license: Flags.string({ description: 'only artifacts under this licence (SPDX id or IRI)' }),
    availability: Flags.string({
      description: 'only artifacts this available (their most open distribution)',
      options: [...AVAILABILITY],
    }),
    keyword: Flags.string({ description: 'only artifacts with this keyword' }),
    instance: Flags.string({
      description: 'only artifacts this deployment generated, used or registered (id or IRI)',
      aliases: ['deployment'],
    }),
    software: Flags.string({
      description: 'only artifacts deployments of this software generated, used or registered (id or IRI)',
    }),
    run: Flags.string({ description: 'only artifacts this run generated or used (id, IRI or external key)' }),
    content: Flags.string({ description: 'only artifacts with this content (ni: name or digest)' }),
    registry: Flags.string({ description: '"local", or the id of a peer registry' }),
    ...listFlags,
  };

  async run(): Promise<ListPage<ArtifactJson>> {
    const { flags } = await this.parse(ArtifactsList);
    const {
      query: q,
      type,
      license,
      availability,
      keyword,
      instance,
      software,
      run,
      content,
      registry,
    } = flags;
    const { http } = await this.registry(flags);
    // The list filters by run IRI; an external key is turned into one first (among the deployment's runs, if given).
    const runIri = run === undefined ? undefined : await this.runIri(http, run, instance);
    const query = {
      q,
      conforms_to: type,
      license,
      availability,
      keyword,
      instance,
      software,
      run: runIri,
      content,
      registry,
      limit: flags.limit,
      cursor: flags.cursor,
    };
    const page = await listArtifacts(http, query, flags.all === true);
    this.printTable(page.items, ARTIFACT_COLUMNS, page);
    return page;
  }

  /** The IRI of the run named by id, IRI or external key; an ambiguous key prints its candidates. */
  private async runIri(http: HttpClient, ref: string, instance: string | undefined): Promise<string> {
    if (/^https?:\/\//.test(ref)) return ref;
    try {
      return await readRun(http, ref, async (id) => (await getRun(http, id)).iri, { instance });
    } catch (error) {
      if (error instanceof LookupError && error.candidates.length > 0)
        this.printTable(error.candidates, RUN_COLUMNS);
      throw error;
    }
  }
}
