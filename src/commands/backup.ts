import fs from 'node:fs';
import path from 'node:path';
import { Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebStream } from 'node:stream/web';
import { Flags } from '@oclif/core';
import { ClientCommand } from '../cli/client/client-command.js';
import { HttpClient } from '../cli/client/http.js';
import { resolveProfile } from '../cli/client/profile.js';
import { localUrl } from '../cli/local-registry.js';
import { formatBytes, startProgress, type ProgressLine, type ProgressOptions } from '../cli/progress.js';
import { REG_VERSION } from '../core/core.js';
import { BadRequestError, ConflictError, DataDirLockedError } from '../core/errors.js';
import {
  BACKUP_MANIFEST_HEADER,
  BACKUP_MEDIA_TYPE,
  backupFileName,
  describeCounts,
  writeBackup,
  type BackupManifest,
} from '../core/ops/backup.js';
import { DATABASE_FILE, openDatabase } from '../core/store/database.js';

/** What `reg backup` printed under --json. */
export interface BackupResult {
  /** The file written, or "-" for standard output. */
  readonly file: string;
  /** Compressed bytes written. */
  readonly bytes: number;
  /** Where the snapshot was taken: the stopped registry's data directory, or a running registry over HTTP. */
  readonly from: 'data-directory' | 'server';
  readonly manifest: BackupManifest | undefined;
}

export default class Backup extends ClientCommand {
  static override summary = 'Write a consistent snapshot of the whole registry, compressed.';
  static override description = `Copies everything the registry holds into one gzip-compressed file: every record, and the operational
data reg dump leaves out (API tokens, subscriptions with their cursors and queued deliveries, peers, the audit
log, advertising keys, OpenLineage events). The copy is taken with SQLite's online backup, so it is
consistent, and it can be taken while the registry serves: if the data directory (REG_DATA_DIR) is in use, the
snapshot is asked of the running registry (GET /admin/backup, with an administrator's token: the profile's
token, else REG_ROOT_TOKEN), at --url or at the address REG_LISTEN names; with --url, REG_URL or a profile the
registry named there is asked. Restore it with reg restore --backup into a stopped, empty data directory.

With the external graph store the backup holds the operational data only; the graph is backed up by its own
server. reg dump remains the graph export (N-Quads) for moving records between registries.`;
  static override examples = [
    '<%= config.bin %> <%= command.id %>',
    '<%= config.bin %> <%= command.id %> --output /backups/reg-$(date +%F).db.gz',
    '<%= config.bin %> <%= command.id %> --output - | ssh backup-host "cat > reg.db.gz"',
    '<%= config.bin %> <%= command.id %> --url https://registry.example.org --token-file admin.token',
  ];
  static override flags = {
    output: Flags.string({
      char: 'o',
      description: 'file to write ("-" for standard output; default reg-backup-<time>.db.gz here)',
    }),
    force: Flags.boolean({ description: 'replace the output file if it exists' }),
  };

  async run(): Promise<BackupResult> {
    const { flags } = await this.parse(Backup);
    const output = flags.output ?? backupFileName(new Date().toISOString());
    if (output === '-' && this.jsonEnabled())
      throw new BadRequestError(
        '--json and --output - would share standard output: write the backup to a file',
      );
    if (output !== '-' && fs.existsSync(output) && flags.force !== true)
      throw new ConflictError(`${output} exists: choose another --output, or add --force to replace it`);
    const profile = await resolveProfile(flags, process.env);
    const remote = profile.sources.url !== 'default';
    if (!remote) {
      const local = await this.fromDataDirectory(output);
      if (local !== undefined) return local;
    }
    const config = remote ? undefined : this.loadConfig();
    const client = new HttpClient(
      remote
        ? profile
        : {
            ...profile,
            url: localUrl(process.env.REG_LISTEN),
            token: profile.token ?? config?.secrets.rootToken,
          },
    );
    // The registry takes its snapshot before it answers: the wait is shown until the first byte comes.
    const waiting = await startProgress('backup', `waiting for ${client.profile.url} to take the snapshot`, {
      ...this.shown(output),
      waiting: true,
    });
    let response: Response;
    try {
      response = await client.download('/admin/backup', BACKUP_MEDIA_TYPE);
      waiting.finish('snapshot taken');
    } finally {
      waiting.stop();
    }
    const header = response.headers.get(BACKUP_MANIFEST_HEADER);
    const manifest = header === null ? undefined : (JSON.parse(header) as BackupManifest);
    if (response.body === null) throw new BadRequestError(`${client.profile.url} answered no backup`);
    const length = Number(response.headers.get('content-length') ?? Number.NaN);
    const progress = await startProgress('backup', 'bytes', {
      ...this.shown(output),
      total: Number.isFinite(length) ? length : undefined,
    });
    let bytes = 0;
    const body = Readable.fromWeb(response.body as WebStream<Uint8Array>);
    body.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
      progress.update(bytes);
    });
    try {
      await this.writeTo(output, (out) => pipeline(body, out));
      progress.finish(`${formatBytes(bytes)} received`);
    } finally {
      progress.stop();
    }
    this.report(output, bytes, manifest);
    return { file: output, bytes, from: 'server', manifest };
  }

  /** Backs up a stopped registry straight from its data directory; undefined when a running one holds it. */
  private async fromDataDirectory(output: string): Promise<BackupResult | undefined> {
    const config = this.loadConfig();
    if (!fs.existsSync(path.join(config.dataDir, DATABASE_FILE)))
      throw new BadRequestError(
        `${config.dataDir} holds no registry (REG_DATA_DIR): set REG_DATA_DIR, or --url to back up a running one`,
      );
    let db: ReturnType<typeof openDatabase>;
    try {
      db = openDatabase(config.dataDir);
    } catch (error) {
      if (error instanceof DataDirLockedError) return undefined;
      throw error;
    }
    const steps = new BackupSteps(this.shown(output));
    try {
      let result: { manifest: BackupManifest; bytes: number } | undefined;
      await this.writeTo(output, async (out) => {
        result = await writeBackup(
          { db, config, version: REG_VERSION },
          out,
          (copied, total) => void steps.show('pages copied', copied, total),
          (read, size) => void steps.show('bytes', read, size),
        );
      });
      await steps.end();
      if (result === undefined) throw new Error('the backup ended without a result');
      this.report(output, result.bytes, result.manifest);
      return { file: output, bytes: result.bytes, from: 'data-directory', manifest: result.manifest };
    } finally {
      await steps.stop();
      db.close();
    }
  }

  /** How progress is shown: not under --json, nor when the backup itself goes to a terminal. */
  private shown(output: string): ProgressOptions {
    return { json: this.jsonEnabled() || (output === '-' && process.stdout.isTTY === true), plain: true };
  }

  /** Writes to standard output, or to `<file>.partial` renamed to `file` once whole (never a truncated file). */
  private async writeTo(output: string, write: (out: Writable) => Promise<void>): Promise<void> {
    if (output === '-') return write(process.stdout);
    const partial = `${output}.partial`;
    try {
      await write(fs.createWriteStream(partial));
      fs.renameSync(partial, output);
    } finally {
      fs.rmSync(partial, { force: true });
    }
  }

  /** Says what was written, on stderr (standard output may carry the backup); under --json the result says it. */
  private report(output: string, bytes: number, manifest: BackupManifest | undefined): void {
    if (this.jsonEnabled()) return;
    const counts = manifest === undefined ? '' : ` (${describeCounts(manifest.counts)})`;
    const where = output === '-' ? 'standard output' : output;
    process.stderr.write(`backup: ${bytes} bytes to ${where}${counts}\n`);
    if (manifest?.graph_store.kind === 'sparql')
      process.stderr.write(
        `note: the graph is in the external store ${manifest.graph_store.endpoint}; back it up with that server's own tools\n`,
      );
  }
}

/** The two steps of a local backup, a line each: the pages copied by SQLite's backup, then the copy compressed. */
class BackupSteps {
  private current: { unit: string; line: Promise<ProgressLine>; total: number } | undefined;

  constructor(private readonly shown: ProgressOptions) {}

  async show(unit: string, done: number, total: number): Promise<void> {
    if (this.current?.unit !== unit) {
      // The step before ends (its line stays) before the next one's line is drawn.
      const before = this.end();
      const label = unit === 'bytes' ? 'backup compress' : 'backup';
      const line = before.then(() => startProgress(label, unit, { ...this.shown, total }));
      this.current = { unit, line, total };
    }
    this.current.total = total;
    (await this.current.line).update(done, total);
  }

  /** Ends the current step with its summary. */
  async end(): Promise<void> {
    const current = this.current;
    this.current = undefined;
    if (current === undefined) return;
    // A step that ended went all the way (SQLite's last step is not always reported).
    const line = await current.line;
    line.update(current.total, current.total);
    line.finish();
  }

  /** Ends the current step quietly (the backup failed). */
  async stop(): Promise<void> {
    const line = this.current?.line;
    this.current = undefined;
    (await line)?.stop();
  }
}
