import fs from 'node:fs';
import { Transform, type Readable } from 'node:stream';
import { Flags } from '@oclif/core';
import { openCore } from '../core/core.js';
import { silentLogger } from '../core/log.js';
import { restoreNQuads, type RestoreResult } from '../core/ops/restore.js';
import { BadRequestError } from '../core/errors.js';
import { describeCounts, restoreBackup, type BackupRestoreResult } from '../core/ops/backup.js';
import { RegCommand } from '../cli/base-command.js';
import { startProgress, type Progress } from '../cli/progress.js';
import { RestoreSteps } from '../cli/restore-steps.js';
import type { StrandedReport } from '../core/ops/restore-check.js';

/** Stranded records named on stderr; `--json` names more. */
const SHOWN_STRANDED = 5;

export default class Restore extends RegCommand {
  static override summary = 'Restore a backup, or load an N-Quads dump, into a stopped registry.';
  static override description = `With --backup, restores a backup written by reg backup (or GET /admin/backup) into a stopped, empty data
directory: records, API tokens, subscriptions with their cursors and queued deliveries, peers, the audit log
and advertising keys come back as they were when it was taken. The file is unpacked and checked whole first
(integrity, a backup this reg can open, the same kind of graph store as configured); a refused file leaves the
directory untouched. "-" reads the backup from standard input.

With --nquads, merges the quads of an N-Quads file (as written by \`reg dump\`) into the data directory and prints
how many were new. The whole file is checked first: every line a strict parser refuses (malformed, not
UTF-8, or holding a string that is not an RFC 3987 IRI where an IRI belongs) is reported as file:line: reason
(the first 20, then a count), and nothing is written. The advertising keys and claims are rebuilt from the
restored records, so an advertisement retried afterwards finds its run instead of minting a new one. Reference bundle graphs in the file are skipped, since every start reloads them
from the package. Blank nodes are given IRIs under the record that refers to them.

A backup is never refused for what today's shapes say: the restored records are then checked against today's
shapes and vocabulary, and those an edit would now refuse are kept, reported as stranded (a warning on stderr
naming the first ones and the fields an edit would name; under --json in "stranded"), and stay readable.

The registry must be stopped (the data directory is single-writer).`;
  static override examples = [
    '<%= config.bin %> <%= command.id %> --backup reg-backup-20261126T020000Z.db.gz',
    '<%= config.bin %> <%= command.id %> --nquads backup.nq',
    '<%= config.bin %> <%= command.id %> --nquads backup.nq --json',
  ];
  static override flags = {
    nquads: Flags.string({
      description: 'N-Quads file to load (as reg dump writes it)',
      exactlyOne: ['nquads', 'backup'],
    }),
    backup: Flags.string({
      description: 'backup file to restore (as reg backup writes it; "-" for standard input)',
      exactlyOne: ['nquads', 'backup'],
    }),
  };

  async run(): Promise<RestoreResult | BackupRestoreResult> {
    const { flags } = await this.parse(Restore);
    const config = this.loadConfig();
    const shown = { json: this.jsonEnabled(), plain: true };
    if (flags.backup !== undefined) {
      const named = flags.backup === '-' ? 'standard input' : flags.backup;
      if (flags.backup !== '-' && !fs.existsSync(flags.backup))
        throw new BadRequestError(`cannot read ${flags.backup}: there is no such file`);
      const total = flags.backup === '-' ? undefined : fs.statSync(flags.backup).size;
      const progress = await startProgress('restore', 'bytes', { ...shown, total });
      try {
        const source = flags.backup === '-' ? process.stdin : fs.createReadStream(flags.backup);
        const result = await restoreBackup(config, counted(source, progress), named);
        progress.finish();
        const counts = (result.manifest.counts ?? {}) as Record<string, number>;
        this.log(`restored ${named} (taken ${String(result.manifest.created)}): ${describeCounts(counts)}`);
        return result;
      } finally {
        progress.stop();
      }
    }
    const nquads = flags.nquads ?? '';
    // The query index is not loaded for a restore: what it reads afterwards comes from the lineage index, and
    // the restored records are validated in worker threads beside the rest of its work.
    const core = await openCore({ ...config, queryIndex: 'on-demand' }, silentLogger, {
      validationWorkers: 2,
    });
    const steps = new RestoreSteps(shown);
    try {
      // Under --json nothing is shown, so nothing is counted for it either.
      const result = await restoreNQuads(
        core,
        nquads,
        shown.json ? undefined : (progress) => steps.show(progress),
      );
      steps.end();
      this.log(`${result.new} new quads (read ${result.read}; ${result.reference} reference quads skipped)`);
      this.reportStranded(result.stranded);
      return result;
    } finally {
      steps.stop();
      await core.close();
    }
  }

  /** Names the restored records an edit would refuse today, on stderr (they were kept). */
  private reportStranded(stranded: StrandedReport): void {
    if (stranded.records === 0) return;
    const shown = stranded.examples.slice(0, SHOWN_STRANDED);
    process.stderr.write(
      `warning: ${stranded.records} of ${stranded.checked} restored records fail today's shapes or vocabulary; they were kept and stay readable, but each is refused on its next edit until fixed\n`,
    );
    for (const { record, problems } of shown) {
      const first = problems[0];
      process.stderr.write(`  ${record}: ${first === undefined ? '' : first.message}\n`);
    }
    if (stranded.records > shown.length) {
      process.stderr.write(
        `  and ${stranded.records - shown.length} more (--json names ${stranded.examples.length})\n`,
      );
    }
  }
}

/** Counts the bytes flowing out of `source` into `progress`. */
function counted(source: Readable, progress: Progress): Readable {
  let bytes = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      bytes += chunk.length;
      progress.update(bytes);
      done(null, chunk);
    },
  });
  source.once('error', (error) => counter.destroy(error));
  return source.pipe(counter);
}
