import {
  AdvertiseCommand,
  advertiseFlags,
  type AdvertiseOutcome,
} from '../../cli/client/advertise-command.js';

export default class AdvertiseConsumed extends AdvertiseCommand {
  static override summary = 'Advertise the artifacts a run of this deployment consumed.';
  static override description = `Sends POST /api/v1/advertise/consumed with a deployment's credential (the advertise:consume scope): the run, created when the registry does not know it yet, and the artifacts it used. Name artifacts already registered, here or at another registry, with --artifact-iri (a foreign IRI is stored as it is and queued for resolution); describe new ones as for reg advertise produced. A job that consumes and produces makes two calls with the same run key and gets one run.

The run key, --instance-key, retries, data files, the CI identity token, --spool, --dry-run and output are those of reg advertise produced: see reg-advertise-produced(1).`;
  static override examples = [
    '<%= config.bin %> <%= command.id %> --artifact-iri https://other-registry.example.org/artifact/01J7ZQK8W0RXAB3M2C7YQ1V4TD',
    '<%= config.bin %> <%= command.id %> --artifact "title=input graph,type=rdf-graph,file=input.ttl" --status running',
    '<%= config.bin %> <%= command.id %> --artifact-iri https://other-registry.example.org/artifact/01J7ZQK8W0RXAB3M2C7YQ1V4TD --dry-run --json',
  ];
  static override flags = advertiseFlags;

  async run(): Promise<AdvertiseOutcome> {
    const { flags } = await this.parse(AdvertiseConsumed);
    return this.advertise('consumed', flags);
  }
}
