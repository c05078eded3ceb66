import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { type Readable, Transform, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import type { Config } from '../config/index.js';
import type { Core } from '../core.js';
import { BadRequestError, ConflictError } from '../errors.js';
import {
  checkGraphStore,
  graphStoreOf,
  installBackup,
  readBackup,
  stampBackup,
  type BackupGraphStore,
} from '../store/backup-file.js';
import { DATABASE_FILE } from '../store/database.js';

/** Media type of a backup: a gzip-compressed SQLite database. */
export const BACKUP_MEDIA_TYPE = 'application/gzip';

/** What a backup says about itself (its `reg_backup` manifest). */
export interface BackupManifest {
  readonly format: 'reg-backup';
  readonly created: string;
  readonly software_version: string;
  readonly base_iri: string;
  /** Where the graph lives: in the backup (embedded), or in an external store the backup does not hold. */
  readonly graph_store: BackupGraphStore;
  readonly schema_version: number;
  /** Rows of the main tables: records, tokens, subscriptions, deliveries, peers, audit entries, events. */
  readonly counts: Readonly<Record<string, number>>;
}

/** What a backup reads: the open database, the configuration and the running version (a core has them). */
export type BackupSource = Pick<Core, 'db' | 'config' | 'version'>;

/** A snapshot taken and waiting to be streamed; `discard` removes its file. */
export interface PreparedBackup {
  readonly manifest: BackupManifest;
  /**
   * The snapshot, gzip-compressed, as a stream; reading it to the end (or failing) discards the file. `onRead` is
   * told the bytes of the snapshot compressed so far and its size.
   */
  stream(onRead?: (read: number, size: number) => void): Readable;
  discard(): void;
}

/** The row counts of a manifest in words: `12 records, 2 api tokens, …`. */
export function describeCounts(counts: Readonly<Record<string, unknown>>): string {
  return Object.entries(counts)
    .map(([name, n]) => `${String(n)} ${name.replace(/_/g, ' ')}`)
    .join(', ');
}

/** Response header of `GET /admin/backup` carrying the backup's manifest as JSON. */
export const BACKUP_MANIFEST_HEADER = 'x-reg-backup-manifest';

/** The file name a backup taken at `created` is offered under: `reg-backup-20261126T193000Z.db.gz`. */
export function backupFileName(created: string): string {
  return `reg-backup-${created.replace(/[-:]/g, '').replace(/\.\d+/, '')}.db.gz`;
}

/** Prefix of the snapshot files a backup writes in the data directory while it runs. */
export const BACKUP_TEMP_PREFIX = '.backup-';

/**
 * Takes a consistent snapshot of the whole registry while it serves: every record and all operational data
 * (tokens, subscriptions with their cursors and queues, peers, audit, advertising keys, OpenLineage events),
 * as of the moment the copy completes. The copy is written beside the database (the one place a read-only
 * container can write) and stepped so that requests keep being answered. With the external graph store the
 * backup holds the operational data only, and its manifest names the store that holds the graph.
 */
export async function prepareBackup(
  core: BackupSource,
  progress?: (copied: number, total: number) => void,
): Promise<PreparedBackup> {
  const file = path.join(core.config.dataDir, `${BACKUP_TEMP_PREFIX}${randomUUID()}.db`);
  const discard = (): void => {
    for (const suffix of ['', '-journal', '-wal', '-shm']) fs.rmSync(`${file}${suffix}`, { force: true });
  };
  try {
    await core.db.backup(file, progress);
    const described = {
      format: 'reg-backup',
      created: new Date().toISOString(),
      software_version: core.version,
      base_iri: core.config.baseIri,
      graph_store: graphStoreOf(core.config.graph),
    } as const;
    const manifest: BackupManifest = { ...described, ...stampBackup(file, described) };
    return {
      manifest,
      discard,
      stream: (onRead) => {
        const snapshot = fs.createReadStream(file);
        if (onRead !== undefined) {
          const size = fs.statSync(file).size;
          snapshot.on('data', () => onRead(snapshot.bytesRead, size));
        }
        const compressed = snapshot.pipe(zlib.createGzip());
        compressed.once('close', discard);
        compressed.once('error', discard);
        return compressed;
      },
    };
  } catch (error) {
    discard();
    throw error;
  }
}

/**
 * Writes a snapshot of the registry, compressed, to `out`; returns its manifest and compressed size. `progress` is
 * told the pages copied of the total, then `compressing` the bytes of the snapshot compressed of its size.
 */
export async function writeBackup(
  core: BackupSource,
  out: Writable,
  progress?: (copied: number, total: number) => void,
  compressing?: (read: number, size: number) => void,
): Promise<{ manifest: BackupManifest; bytes: number }> {
  const prepared = await prepareBackup(core, progress);
  let bytes = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      bytes += chunk.length;
      done(null, chunk);
    },
  });
  try {
    await pipeline(prepared.stream(compressing), counter, out);
  } finally {
    prepared.discard();
  }
  return { manifest: prepared.manifest, bytes };
}

/** What a restore of a backup did. */
export interface BackupRestoreResult {
  readonly manifest: Record<string, unknown>;
  /** Size of the restored database in bytes. */
  readonly bytes: number;
}

/**
 * Restores a backup (as `prepareBackup` writes it, gzip-compressed) into an empty, stopped data directory: the
 * stream is unpacked beside the database, checked whole (integrity, manifest, a schema this reg can open, the
 * same kind of graph store as configured) and only then put in place, so a refused or broken backup leaves the
 * directory as it was. `named` is how errors name the source.
 */
export async function restoreBackup(
  config: Config,
  source: Readable,
  named: string,
): Promise<BackupRestoreResult> {
  fs.mkdirSync(config.dataDir, { recursive: true });
  const target = path.join(config.dataDir, DATABASE_FILE);
  const refuseOccupied = (): never => {
    throw new ConflictError(
      `${config.dataDir} already holds a registry (${DATABASE_FILE}): restore a backup into an empty data directory (stop the registry and move that one away first)`,
    );
  };
  if (fs.existsSync(target)) refuseOccupied();
  const file = path.join(config.dataDir, `${BACKUP_TEMP_PREFIX}restore-${randomUUID()}.db`);
  try {
    try {
      await pipeline(source, zlib.createGunzip(), fs.createWriteStream(file, { flags: 'wx' }));
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (code === 'Z_DATA_ERROR' || code === 'Z_BUF_ERROR')
        throw new BadRequestError(`${named} is not a reg backup: it is not gzip-compressed whole`);
      throw error;
    }
    const manifest = readBackup(file, named);
    checkGraphStore(manifest, config.graph, named);
    const bytes = fs.statSync(file).size;
    try {
      installBackup(file, config.dataDir);
    } catch (error) {
      // A registry started in the directory meanwhile keeps its database.
      if ((error as { code?: unknown }).code === 'EEXIST') refuseOccupied();
      throw error;
    }
    return { manifest, bytes };
  } finally {
    fs.rmSync(file, { force: true });
  }
}
