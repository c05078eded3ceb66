import { Flags } from '@oclif/core';
import { ClientCommand } from '../cli/client/client-command.js';
import {
  AUDIT_COLUMNS,
  AuditClient,
  type AuditEntryJson,
  type AuditFilters,
  type AuditPageJson,
} from '../cli/client/audit.js';

export default class Audit extends ClientCommand {
  static override summary = "Read the registry's audit log (administrators only).";
  static override description = `Prints the audit log as a table, newest first as the registry answers it: when, the action (such as software.create or token.revoke), who did it and as what kind of actor, the record it concerned and the detail. The registry answers only administrators: any other credential exits 9.

--action keeps the entries of one action. --limit sets the page size (1–1000, the registry's default 100); --cursor continues after a page (its next_cursor, given on standard error) and --all reads every page.

--follow keeps watching: it prints the newest --limit entries (default 20) oldest first, then each new entry as it is written, one line each, asking the registry every --interval seconds, until interrupted (Ctrl-C ends it with exit 0). Under --json the page is printed as the API answers it (items, next_cursor); with --follow, one JSON object per entry and line.`;
  static override examples = [
    '<%= config.bin %> <%= command.id %>',
    '<%= config.bin %> <%= command.id %> --action token.create --limit 10',
    '<%= config.bin %> <%= command.id %> --all --json > audit.json',
    '<%= config.bin %> <%= command.id %> --follow --interval 5',
    '<%= config.bin %> <%= command.id %> --follow --json | jq -r .action',
  ];
  static override flags = {
    action: Flags.string({ description: 'only entries of this action (such as software.create)' }),
    limit: Flags.integer({ description: 'entries per page (1–1000)', min: 1, max: 1000 }),
    cursor: Flags.integer({
      description: 'start after this entry (the next_cursor of the page before)',
      min: 1,
      exclusive: ['all', 'follow'],
    }),
    all: Flags.boolean({ description: 'read every page', exclusive: ['follow'] }),
    follow: Flags.boolean({ description: 'keep printing new entries until interrupted' }),
    interval: Flags.integer({
      description: 'seconds between two looks for new entries under --follow (default 2)',
      min: 1,
      max: 3600,
      dependsOn: ['follow'],
    }),
  };

  async run(): Promise<AuditPageJson | undefined> {
    const { flags } = await this.parse(Audit);
    const client = new AuditClient((await this.registry(flags)).http);
    const filters: AuditFilters = { action: flags.action, limit: flags.limit };
    if (flags.follow) {
      await this.follow(client, { ...filters, limit: flags.limit ?? 20 }, (flags.interval ?? 2) * 1000);
      return undefined;
    }
    if (flags.all) {
      const every = await client.all(filters);
      this.printTable(every.items, AUDIT_COLUMNS);
      this.logToStderr(`${every.items.length} ${every.items.length === 1 ? 'entry' : 'entries'}`);
      return every;
    }
    const page = await client.page(filters, flags.cursor);
    this.printTable(page.items, AUDIT_COLUMNS);
    const shown = `${page.items.length} ${page.items.length === 1 ? 'entry' : 'entries'}`;
    this.logToStderr(
      page.next_cursor === undefined ? shown : `${shown}; older: --cursor ${page.next_cursor}`,
    );
    return page;
  }

  /** Prints the newest entries, then the new ones at every interval, until SIGINT. */
  private async follow(client: AuditClient, filters: AuditFilters, intervalMs: number): Promise<void> {
    const stopped = new AbortController();
    const stop = (): void => stopped.abort();
    process.once('SIGINT', stop);
    try {
      let seen = (await client.page(filters)).items;
      this.printEntries([...seen].reverse());
      while (!stopped.signal.aborted) {
        await pause(intervalMs, stopped.signal);
        if (stopped.signal.aborted) break;
        const fresh = await client.since(filters, seen);
        this.printEntries([...fresh].reverse());
        if (fresh.length > 0)
          seen = [...fresh, ...seen].slice(0, Math.max(filters.limit ?? 20, fresh.length));
      }
    } finally {
      process.removeListener('SIGINT', stop);
    }
  }

  /** Entries, oldest first, one line each: JSON under --json, else the table's cells apart by two spaces. */
  private printEntries(entries: readonly AuditEntryJson[]): void {
    for (const entry of entries) {
      if (this.jsonEnabled()) {
        process.stdout.write(`${JSON.stringify(entry)}\n`);
        continue;
      }
      const cells = AUDIT_COLUMNS.map((column) => column.value(entry) ?? '-');
      this.log(cells.map((cell) => cell.replace(/\s+/g, ' ')).join('  '));
    }
  }
}

/** Waits `ms`, or less when the signal is aborted. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}
