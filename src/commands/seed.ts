import { Flags } from '@oclif/core';
import { openCore } from '../core/core.js';
import { silentLogger } from '../core/log.js';
import { SEED_EXAMPLES, seedExample, type SeedResult } from '../core/ops/seed.js';
import { RegCommand } from '../cli/base-command.js';
import { startProgress } from '../cli/progress.js';

export default class Seed extends RegCommand {
  static override summary = 'Load the worked example into a stopped registry.';
  static override description = `Loads the ids-examples worked example through the normal write path (every record validated and
audited, attributed to urn:reg:seed): 16 artifact types minted at <base>/type/<slug>, 4 software of the
Institute of Data Science with one release each (published 60 days before seeding) and a declared
capability, and 5 deployments. With runs (the default), the first four deployments each advertise 3 runs
with their own deployment identity: 12 runs (one failed) that consume a foreign artifact or a local input
graph and produce validation reports, 19 artifacts in all. Prints the counts as JSON.

A registry that already holds the example is refused (exit 1) rather than seeded twice.

The registry must be stopped: the data directory is single-writer, so this fails at once (exit 4) while a
server holds it.`;
  static override examples = [
    '<%= config.bin %> <%= command.id %>',
    '<%= config.bin %> <%= command.id %> --from ids-examples --with-runs=false',
  ];
  static override flags = {
    from: Flags.string({
      description: 'the worked example to load',
      options: [...SEED_EXAMPLES],
      default: SEED_EXAMPLES[0],
    }),
    'with-runs': Flags.string({
      description: 'advertise the example runs and artifacts too',
      options: ['true', 'false'],
      default: 'true',
    }),
  };

  async run(): Promise<SeedResult> {
    const { flags } = await this.parse(Seed);
    const config = this.loadConfig();
    const core = await openCore(config, silentLogger, { index: true });
    const progress = await startProgress('seed', 'writes', { json: this.jsonEnabled(), plain: true });
    try {
      await core.graph.open();
      const result = await seedExample(core, {
        from: flags.from,
        withRuns: flags['with-runs'] === 'true',
        onProgress: (done, total) => progress.update(done, total),
      });
      progress.finish();
      this.log(JSON.stringify(result, null, 2));
      return result;
    } finally {
      progress.stop();
      await core.close();
    }
  }
}
