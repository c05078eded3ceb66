import { ClientCommand, listFlags } from '../../cli/client/client-command.js';
import {
  LookupError,
  readRun,
  RUN_COLUMNS,
  RUN_EVENT_COLUMNS,
  runEvents,
  type RunEventsPage,
  runArgs,
  runLookupFlags,
} from '../../cli/client/runs.js';

export default class RunsEvents extends ClientCommand {
  static override summary = 'List the OpenLineage events a run was recorded from.';
  static override description = `Prints the events the registry kept for a run, in event time order, as a table (event time, event type, job, how many inputs and outputs it named, when it was received, its digest). A run advertised through the advertise endpoints and never through OpenLineage has none.

Under --json the API's page is printed as it came: each item carries the event itself, byte for byte as it was received, under event. The run is named by id, IRI or external key, as reg runs get takes it.`;
  static override examples = [
    '<%= config.bin %> <%= command.id %> ol-cd47c03ab30aeed0a5872f80f600a954',
    '<%= config.bin %> <%= command.id %> 0190f5d2-8a1b-7c3d-9e4f-0123456789ab --all --json',
  ];
  static override args = runArgs;
  static override flags = { ...runLookupFlags, ...listFlags };

  async run(): Promise<RunEventsPage> {
    const { args, flags } = await this.parse(RunsEvents);
    const { http } = await this.registry(flags);
    const query = { limit: flags.limit, cursor: flags.cursor };
    try {
      const page = await readRun(http, args.run, (id) => runEvents(http, id, query, flags.all === true), {
        instance: flags.instance,
      });
      this.printTable(page.items, RUN_EVENT_COLUMNS, page);
      return page;
    } catch (error) {
      if (error instanceof LookupError && error.candidates.length > 0) {
        this.printTable(error.candidates, RUN_COLUMNS);
      }
      throw error;
    }
  }
}
