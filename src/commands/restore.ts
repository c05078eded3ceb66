import { Flags } from '@oclif/core';
import { openCore } from '../core/core.js';
import { silentLogger } from '../core/log.js';
import { restoreNQuads, type RestoreResult } from '../core/ops/restore.js';
import { RegCommand } from '../cli/base-command.js';
import { startProgress } from '../cli/progress.js';

export default class Restore extends RegCommand {
  static override summary = 'Load an N-Quads dump into a stopped registry.';
  static override description = `Merges the quads of an N-Quads file (as written by \`reg dump\`) into the data directory and prints
how many were new. The whole file is checked first: every line a strict parser refuses (malformed, not
UTF-8, or holding a string that is not an RFC 3987 IRI where an IRI belongs) is reported as file:line: reason
(the first 20, then a count), and nothing is written. The advertising keys and claims are rebuilt from the
restored records, so an advertisement retried afterwards finds its run instead of minting a new one. Reference bundle graphs in the file are skipped, since every start reloads them
from the package. Blank nodes are given IRIs under the record that refers to them.
The registry must be stopped (the data directory is single-writer).`;
  static override examples = [
    '<%= config.bin %> <%= command.id %> --nquads backup.nq',
    '<%= config.bin %> <%= command.id %> --nquads backup.nq --json',
  ];
  static override flags = {
    nquads: Flags.string({ description: 'N-Quads file to load', required: true }),
  };

  async run(): Promise<RestoreResult> {
    const { flags } = await this.parse(Restore);
    const config = this.loadConfig();
    const core = await openCore(config, silentLogger);
    const progress = await startProgress('restoring', 'quads read');
    try {
      const result = await restoreNQuads(core, flags.nquads, (read) => progress.update(read));
      progress.finish();
      this.log(`${result.new} new quads (read ${result.read}; ${result.reference} reference quads skipped)`);
      return result;
    } finally {
      progress.finish();
      await core.close();
    }
  }
}
