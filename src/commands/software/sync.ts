import { Args } from '@oclif/core';
import { ClientCommand } from '../../cli/client/client-command.js';
import type { SoftwareJson } from '../../cli/client/registry.js';
import { EXIT } from '../../cli/exit-codes.js';
import { startProgress } from '../../cli/progress.js';

/** The outcome of a sync as a software record reports it. */
interface SyncBlock {
  readonly last_status?: string;
  readonly last_error?: string;
  readonly last_changed?: readonly string[];
}

export default class SoftwareSync extends ClientCommand {
  static override summary = 'Sync a software record from its code forge now.';
  static override description = `Asks the registry to read the repository the record is connected to (sync.source github or
gitlab, sync.repo) and to overwrite the fields named in sync.fields with what the forge says: POST
/api/v1/software/{id}/sync. Fields not named are never touched; the values are validated like any edit, and
if one is refused (a licence the registry does not hold, say) nothing is changed. The run is recorded on the
record (sync.last_synced_at, last_status, last_error, last_changed). A record whose sync.enabled is false is
not synced (409). Prints the fields that changed, or the error the registry recorded; under --json the record as
the registry answers it. A run that ends in error exits 1. Needs the curator role.`;
  static override examples = [
    '<%= config.bin %> <%= command.id %> 0190f5d2-8a1b-7c3d-9e4f-0123456789ab',
    '<%= config.bin %> <%= command.id %> https://registry.example.org/software/0190f5d2-8a1b-7c3d-9e4f-0123456789ab --json',
  ];
  static override args = { id: Args.string({ description: 'software id or IRI', required: true }) };

  async run(): Promise<SoftwareJson> {
    const { args, flags } = await this.parse(SoftwareSync);
    const client = await this.registry(flags);
    const id = await client.names.software(args.id);
    // The registry reads the forge before it answers, which can take a while: the wait is shown meanwhile.
    const progress = await startProgress('sync', `waiting for ${client.http.profile.url} to read the forge`, {
      json: this.jsonEnabled(),
      plain: true,
      waiting: true,
    });
    let record: SoftwareJson;
    try {
      record = await client.http.request<SoftwareJson>(
        'POST',
        `/api/v1/software/${encodeURIComponent(id)}/sync`,
      );
      progress.finish('the registry answered');
    } finally {
      progress.stop();
    }
    const sync = (record.sync ?? {}) as SyncBlock;
    if (sync.last_status === 'error') {
      this.logToStderr(`reg: sync of software ${record.id} failed: ${sync.last_error ?? 'no reason given'}`);
      process.exitCode = EXIT.failure;
      return record;
    }
    const changed = sync.last_changed ?? [];
    this.log(
      changed.length === 0
        ? `synced software ${record.id}: nothing changed`
        : `synced software ${record.id}: changed ${changed.join(', ')}`,
    );
    return record;
  }
}
