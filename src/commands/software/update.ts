import { Args } from '@oclif/core';
import { ClientCommand } from '../../cli/client/client-command.js';
import { softwareBody, softwareFields, unsetFlag } from '../../cli/client/fields.js';
import { buildBody } from '../../cli/client/input.js';
import type { SoftwareJson } from '../../cli/client/registry.js';

export default class SoftwareUpdate extends ClientCommand {
  static override summary = 'Edit a software record with a JSON merge patch.';
  static override description = `Sends the changes as a JSON merge patch (PATCH): fields given by --file or the field flags are
replaced (a list such as --kind replaces the whole list), fields named by --unset are cleared, and every
other field is kept. Needs the curator role.`;
  static override examples = [
    '<%= config.bin %> <%= command.id %> 0190f5d2-8a1b-7c3d-9e4f-0123456789ab --tagline "Validates RDF graphs"',
    '<%= config.bin %> <%= command.id %> 0190f5d2-8a1b-7c3d-9e4f-0123456789ab --unset homepage --json',
    'echo \'{"maturity":"active"}\' | <%= config.bin %> <%= command.id %> 0190f5d2-8a1b-7c3d-9e4f-0123456789ab --file -',
  ];
  static override args = { id: Args.string({ description: 'software id or IRI', required: true }) };
  static override flags = {
    ...softwareFields,
    ...unsetFlag,
  };

  async run(): Promise<SoftwareJson> {
    const { args, flags } = await this.parse(SoftwareUpdate);
    const patch = await buildBody(flags.file, softwareBody(flags), flags.unset);
    const record = await (await this.registry(flags)).update<SoftwareJson>('software', args.id, patch);
    this.log(`updated software ${record.id}`);
    return record;
  }
}
