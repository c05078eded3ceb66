import { Flags } from '@oclif/core';
import { RegCommand } from '../cli/base-command.js';
import { formatNumber, startProgress, type ProgressLine } from '../cli/progress.js';
import { RestoreSteps } from '../cli/restore-steps.js';
import { readConfig } from '../core/config/index.js';
import { openCore } from '../core/core.js';
import { BadRequestError } from '../core/errors.js';
import { silentLogger } from '../core/log.js';
import { showEndpoint } from '../core/net/http-client.js';
import { migrateGraph, type MigrateProgress, type MigrateResult } from '../core/ops/migrate-graph.js';

export default class MigrateGraph extends RegCommand {
  static override summary =
    "Move a stopped registry's graph from the embedded store to an external SPARQL store.";
  static override description = `Copies every record of the embedded store in the data directory into the external SPARQL 1.1 store named
by --to (default REG_SPARQL_ENDPOINT), through the same write path as reg restore: the whole export is checked
first, large inserts are posted to the Graph Store Protocol endpoint when one is given
(--graph-store-endpoint or REG_SPARQL_GRAPH_STORE_ENDPOINT, much faster than INSERT DATA), the reference
bundles are written, and the records are then counted on both sides. Credentials come from
REG_SPARQL_USERNAME/REG_SPARQL_PASSWORD or REG_SPARQL_BEARER_TOKEN.

Operational data (tokens, subscriptions and their queued deliveries, the audit log, advertising keys, deployment
history) lives in registry.db beside the records and is left as it is. The embedded copy stays too: serve with
the same REG_SPARQL_* settings afterwards to use the external store, or without them to go back. Running it again
merges (a second run finds nothing new).

The registry must be stopped (the data directory is single-writer).`;
  static override examples = [
    'REG_SPARQL_USERNAME=dba REG_SPARQL_PASSWORD=… <%= config.bin %> <%= command.id %> --to http://127.0.0.1:8890/sparql-auth --graph-store-endpoint http://127.0.0.1:8890/sparql-graph-crud-auth',
    '<%= config.bin %> <%= command.id %> --json',
  ];
  static override flags = {
    to: Flags.string({ description: 'query endpoint of the external store (default: REG_SPARQL_ENDPOINT)' }),
    'update-endpoint': Flags.string({
      description: 'its update endpoint (default: REG_SPARQL_UPDATE_ENDPOINT, else --to)',
    }),
    'graph-store-endpoint': Flags.string({
      description: 'its Graph Store Protocol endpoint (default: REG_SPARQL_GRAPH_STORE_ENDPOINT)',
    }),
  };

  async run(): Promise<MigrateResult> {
    const { flags } = await this.parse(MigrateGraph);
    const env = { ...process.env };
    if (flags.to !== undefined) {
      env.REG_SPARQL_ENDPOINT = flags.to;
      // An update endpoint set for another query endpoint is not this one's.
      if (process.env.REG_SPARQL_ENDPOINT !== flags.to) delete env.REG_SPARQL_UPDATE_ENDPOINT;
    }
    if (flags['update-endpoint'] !== undefined) env.REG_SPARQL_UPDATE_ENDPOINT = flags['update-endpoint'];
    if (flags['graph-store-endpoint'] !== undefined)
      env.REG_SPARQL_GRAPH_STORE_ENDPOINT = flags['graph-store-endpoint'];
    if (env.REG_SPARQL_ENDPOINT === undefined || env.REG_SPARQL_ENDPOINT === '')
      throw new BadRequestError('give the external store to move to: --to <endpoint> or REG_SPARQL_ENDPOINT');
    const config = readConfig(env);
    // The records moved are validated in worker threads while the next batch is merged and posted.
    const core = await openCore(config, silentLogger, { validationWorkers: 2 });
    const shown = { json: this.jsonEnabled(), plain: true };
    const steps = new RestoreSteps(shown);
    let exporting: ProgressLine | undefined;
    const show = async (report: MigrateProgress): Promise<void> => {
      if (report.phase !== 'export') {
        exporting?.finish();
        exporting = undefined;
        return steps.show(report);
      }
      exporting ??= await startProgress('migrate-graph', 'records exported', shown);
      exporting.update(report.records);
    };
    try {
      const result = await migrateGraph(core, show);
      steps.end();
      const kinds = result.kinds
        .filter((entry) => entry.graph === 'urn:reg:local')
        .map((entry) => `${formatNumber(entry.external)} ${entry.kind}`)
        .join(', ');
      this.log(
        `moved ${formatNumber(result.records)} records (${formatNumber(result.quads)} quads, ${formatNumber(result.new)} new) to ${showEndpoint(env.REG_SPARQL_ENDPOINT)} in ${(result.ms / 1000).toFixed(1)} s${kinds === '' ? '' : `: ${kinds}`}`,
      );
      this.log('serve with the same REG_SPARQL_* settings to use it');
      return result;
    } finally {
      exporting?.stop();
      steps.stop();
      await core.close();
    }
  }
}
