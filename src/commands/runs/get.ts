import { ClientCommand } from '../../cli/client/client-command.js';
import {
  getRun,
  LookupError,
  readRun,
  RUN_COLUMNS,
  type ArtifactRefJson,
  type RunJson,
  runArgs,
  runLookupFlags,
} from '../../cli/client/runs.js';

/** An artifact a run refers to, as one line: its title and IRI, or the IRI alone when nothing is known of it. */
const described = (ref: ArtifactRefJson): string =>
  ref.title === undefined ? ref.iri : `${ref.title} <${ref.iri}>`;

export default class RunsGet extends ClientCommand {
  static override summary = 'Show one run with what it used and generated.';
  static override description = `Prints the run as field and value lines: its status, times and deployment, then the artifacts it used and generated (title and IRI). Under --json the API's record is printed as it came, with the OpenLineage event it was made from, if any (reg runs events lists every event).

The run is named by its id, its IRI, or the external key its deployment advertised it with. A key is looked up among the runs the list finds for it (GET /api/v1/runs?q=<key>, keeping exact matches); since keys are chosen per deployment, one key may name runs of several deployments: the candidates are then printed and the command exits 13, and --instance narrows the lookup to one deployment. No run with that id or key exits 7.`;
  static override examples = [
    '<%= config.bin %> <%= command.id %> 0190f5d2-8a1b-7c3d-9e4f-0123456789ab',
    '<%= config.bin %> <%= command.id %> https://registry.example.org/run/0190f5d2-8a1b-7c3d-9e4f-0123456789ab --json',
    '<%= config.bin %> <%= command.id %> ci-4711 --instance 0190f5d2-8a1b-7c3d-9e4f-0123456789ab',
  ];
  static override args = runArgs;
  static override flags = runLookupFlags;

  async run(): Promise<RunJson> {
    const { args, flags } = await this.parse(RunsGet);
    const { http } = await this.registry(flags);
    try {
      const run = await readRun(http, args.run, (id) => getRun(http, id), { instance: flags.instance });
      // The OpenLineage payload is the event as received: --json and reg runs events show it whole.
      const { openlineage_payload: _payload, ...shown } = run as RunJson & { openlineage_payload?: unknown };
      this.printRecord({
        ...shown,
        used: run.used?.map(described),
        generated: run.generated?.map(described),
      });
      return run;
    } catch (error) {
      if (error instanceof LookupError && error.candidates.length > 0) {
        this.printTable(error.candidates, RUN_COLUMNS);
      }
      throw error;
    }
  }
}
