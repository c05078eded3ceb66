import { Flags } from '@oclif/core';
import { withCiToken } from '../../cli/client/ci-token.js';
import { ClientCommand } from '../../cli/client/client-command.js';
import { UsageError } from '../../cli/client/errors.js';
import { resolveProfile } from '../../cli/client/profile.js';
import {
  flushSpool,
  refusedFolder,
  type FlushedCall,
  type FlushSummary,
} from '../../cli/client/spool-flush.js';

export default class AdvertiseFlush extends ClientCommand {
  static override summary =
    'Send the advertisements reg advertise --spool kept while the registry could not take them.';
  static override description = `Reads the spool directory (--spool, or REG_SPOOL_DIR) and sends each call in it to the registry of the connection profile, in the order they were spooled, with the same run key and artifacts as the first attempt: a call the registry recorded before its answer was lost is recorded once, and reported as already recorded. Each call the registry acknowledges is removed from the spool. The credential is the profile's, or the CI job's identity token as for reg advertise produced; spooled calls never hold one.

A call the registry refuses (a 4xx other than 401 and 403), or a file that is not a spooled call, is moved to the refused/ folder of the spool with a file giving the reason, and the others are still sent; the command then exits 8. When the registry is unreachable, fails (5xx, 429, after the retries) or does not accept the credential, the flush stops there and keeps that call and the ones after it for the next flush, exiting 10, 12 or 9. An empty or missing spool sends nothing and exits 0.

Prints one line per call and the counts (sent, already recorded, refused, kept) on standard error; under --json the counts and every call's outcome.`;
  static override examples = [
    '<%= config.bin %> <%= command.id %> --spool .reg-spool',
    'REG_SPOOL_DIR=/var/spool/reg <%= config.bin %> <%= command.id %> --json',
  ];
  static override flags = {
    spool: Flags.string({
      description: 'the spool directory reg advertise --spool wrote to',
      env: 'REG_SPOOL_DIR',
    }),
    retries: Flags.integer({
      description: 'retries of each call on network failures, 429 and 5xx, with exponential backoff',
      min: 0,
      max: 10,
      default: 4,
    }),
  };

  async run(): Promise<FlushSummary> {
    const { flags } = await this.parse(AdvertiseFlush);
    if (flags.spool === undefined || flags.spool.trim() === '') {
      throw new UsageError('name the spool directory with --spool or REG_SPOOL_DIR');
    }
    const profile = await withCiToken(await resolveProfile(flags, process.env), process.env);
    const summary = await flushSpool(
      profile,
      flags.spool,
      {
        retries: flags.retries,
        onRetry: (attempt, delay, reason) =>
          this.logToStderr(
            `reg: ${reason}; retry ${attempt} of ${flags.retries} in ${(delay / 1000).toFixed(1)} s`,
          ),
      },
      (call) => this.log(describeCall(call)),
    );
    this.logToStderr(describeSummary(summary));
    process.exitCode = summary.exit_code;
    return summary;
  }
}

function describeCall(call: FlushedCall): string {
  switch (call.outcome) {
    case 'sent':
      return `sent ${call.file}: ${call.created === true ? 'created' : 'already recorded'}: run ${call.run ?? ''}`;
    case 'kept':
      return `kept ${call.file}${call.reason === undefined ? '' : `: ${call.reason}`}`;
    default:
      return `${call.outcome} ${call.file}: ${call.reason ?? ''}; moved to ${call.moved_to ?? ''}`;
  }
}

function describeSummary(summary: FlushSummary): string {
  if (summary.found === 0) return `reg: the spool ${summary.spool} holds no calls`;
  const counts =
    `${summary.found} spooled ${summary.found === 1 ? 'call' : 'calls'}: ${summary.sent} sent` +
    ` (${summary.already_recorded} already recorded), ${summary.refused} refused` +
    `${summary.refused > 0 ? ` (moved to ${refusedFolder(summary.spool)})` : ''}, ${summary.kept} kept`;
  return `reg: ${counts}${summary.stopped === undefined ? '' : `; stopped: ${summary.stopped}`}`;
}
