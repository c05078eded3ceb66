import { Args } from '@oclif/core';
import { getArtifact, type ArtifactJson } from '../../cli/client/artifacts.js';
import { ClientCommand } from '../../cli/client/client-command.js';

export default class ArtifactsGet extends ClientCommand {
  static override summary = 'Show one artifact record.';
  static override description = `Prints the artifact as field and value lines: title, type, availability, content identifiers, the run that generated it and its distributions (nested objects as field.sub lines). Under --json the API's record is printed as it came. A withdrawn artifact still answers, marked tombstoned; an unknown one exits 7.`;
  static override examples = [
    '<%= config.bin %> <%= command.id %> 0190f5d2-8a1b-7c3d-9e4f-0123456789ab',
    '<%= config.bin %> <%= command.id %> https://registry.example.org/artifact/0190f5d2-8a1b-7c3d-9e4f-0123456789ab --json',
  ];
  static override args = { id: Args.string({ description: 'artifact id or IRI', required: true }) };

  async run(): Promise<ArtifactJson> {
    const { args, flags } = await this.parse(ArtifactsGet);
    const record = await getArtifact((await this.registry(flags)).http, args.id);
    this.printRecord(record);
    return record;
  }
}
