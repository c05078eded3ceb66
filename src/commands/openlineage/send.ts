import { Args, Flags } from '@oclif/core';
import { ClientCommand } from '../../cli/client/client-command.js';
import {
  MAX_BATCH,
  placeOf,
  readEventFile,
  sendEvents,
  type LineageEvent,
  type SendSummary,
} from '../../cli/client/openlineage.js';
import { EXIT } from '../../cli/exit-codes.js';
import { startProgress } from '../../cli/progress.js';

/** From how many events on progress is shown (a bar on a terminal, else a line every few seconds; never under --json). */
const PROGRESS_FROM = 20;

export default class OpenlineageSend extends ClientCommand {
  static override summary =
    "Send OpenLineage events (RunEvent, DatasetEvent, JobEvent) to the registry's OpenLineage endpoint.";
  static override description = `Reads every file given, in order: a file may hold one event (JSON), a JSON array of events, or JSON Lines (one event per line; blank lines are skipped); - reads standard input. A file that is none of these is refused before anything is sent, with its name and the line at fault (exit 5).

The events are posted to /api/v1/openlineage with the profile's token, which must be a deployment's token with advertise:produce (and advertise:consume for runs with inputs): each event is recorded as the deployment's run, dataset or job. Without --batch each event is one request; --batch N sends up to N events (at most 1000) per request as a JSON array, which the registry answers event by event.

A summary follows on standard error: events sent, accepted and refused, and for each refused event where it was read (file:line, or file item n for arrays) and the registry's reason. The exit code is 0 when every event was accepted and 8 when any was refused; a credential the registry does not accept stops the sending with exit 9. Under --json the summary is printed as an object (sent, accepted, refused, and each event's outcome with the registry's answer or its refusal).`;
  static override examples = [
    '<%= config.bin %> <%= command.id %> start.json complete.json',
    '<%= config.bin %> <%= command.id %> events.jsonl --batch 100',
    'cat events.jsonl | <%= config.bin %> <%= command.id %> - --json',
  ];
  static override strict = false;
  static override args = {
    file: Args.string({
      description: 'a file of events (JSON, JSON array or JSON Lines), or - for standard input; repeatable',
      required: true,
    }),
  };
  static override flags = {
    batch: Flags.integer({
      description: `events per request, sent as a JSON array (1–${MAX_BATCH}; default: one event per request)`,
      min: 1,
      max: MAX_BATCH,
    }),
  };

  async run(): Promise<SendSummary> {
    const { argv, flags } = await this.parse(OpenlineageSend);
    const files = argv.map(String);
    const events: LineageEvent[] = [];
    for (const file of files) events.push(...(await readEventFile(file)));
    const http = (await this.registry(flags)).http;
    const progress =
      events.length >= PROGRESS_FROM
        ? await startProgress('sending OpenLineage events', 'events', {
            total: events.length,
            json: this.jsonEnabled(),
            plain: true,
          })
        : undefined;
    let summary: SendSummary;
    try {
      summary = await sendEvents(http, events, flags.batch, (done) => progress?.update(done));
    } catch (error) {
      progress?.stop();
      throw error;
    }
    progress?.finish();
    if (!this.jsonEnabled()) this.printSummary(summary);
    if (summary.refused > 0) process.exitCode = EXIT.refused;
    return summary;
  }

  private printSummary(summary: SendSummary): void {
    this.logToStderr(
      `${summary.sent} ${summary.sent === 1 ? 'event' : 'events'} sent: ${summary.accepted} accepted, ${summary.refused} refused`,
    );
    for (const outcome of summary.events) {
      if (!outcome.accepted)
        this.logToStderr(
          `  ${placeOf(outcome)}: ${outcome.reason ?? 'refused'} (${outcome.code ?? outcome.status})`,
        );
    }
  }
}
