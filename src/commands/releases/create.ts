import { Args } from '@oclif/core';
import { ClientCommand } from '../../cli/client/client-command.js';
import { buildBody } from '../../cli/client/input.js';
import { createRelease, releaseBody, releaseFields, type ReleaseJson } from '../../cli/client/releases.js';

export default class ReleasesCreate extends ClientCommand {
  static override summary = 'Register a release of a software.';
  static override description = `Sends a new release of the software named by the argument: the JSON object of --file (or standard input with --file -), with the field flags laid over it. A version is required; versions may repeat. --download adds a download by URL (repeatable; give platforms, labels or sizes in the file), and --produces and --consumes declare the artifact types the release produces and consumes, which must be types the registry holds.

The registry validates the release and answers with the full record; a refusal lists every field at fault and exits 8, and an unknown software exits 7. Needs the curator role or the register:software scope.`;
  static override examples = [
    '<%= config.bin %> <%= command.id %> 0190f5d2-8a1b-7c3d-9e4f-0123456789ab --version 1.2.0 --date-published 2026-11-02',
    '<%= config.bin %> <%= command.id %> 0190f5d2-8a1b-7c3d-9e4f-0123456789ab --version 1.2.0 --container-image ghcr.io/org/tool:1.2.0 --produces http://edamontology.org/data_0006',
    '<%= config.bin %> <%= command.id %> 0190f5d2-8a1b-7c3d-9e4f-0123456789ab --file release.json --json',
  ];
  static override args = {
    software: Args.string({ description: 'software id or IRI', required: true }),
  };
  static override flags = releaseFields;

  async run(): Promise<ReleaseJson> {
    const { args, flags } = await this.parse(ReleasesCreate);
    const body = await buildBody(flags.file, releaseBody(flags));
    const release = await createRelease((await this.registry(flags)).http, args.software, body);
    this.log(
      `created release ${release.version} of ${release.software_name ?? release.software}: ${release.id} (${release.iri})`,
    );
    return release;
  }
}
