import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { RegError } from '../../core/errors.js';
import type { AdvertiseRole } from './advertise.js';
import type { JsonObject } from './http.js';

/** The version of the spool file format, so a later client can tell what it reads. */
const FORMAT = 1;

/** One advertisement kept in the spool: everything needed to send it again, and no credential. */
export interface SpooledCall {
  readonly format: number;
  readonly role: AdvertiseRole;
  /** The API path it is sent to, below the registry's URL. */
  readonly endpoint: string;
  /** The registry it was meant for (informational: a flush sends to the registry of its own profile). */
  readonly registry: string;
  /** The run's external key, which makes sending it again idempotent. */
  readonly run_key: string;
  readonly instance_key?: string;
  /** Type slugs of the body that are looked up at the registry when the call is sent. */
  readonly type_slugs?: string[];
  readonly body: JsonObject;
  readonly spooled_at: string;
  /** Why the call could not be sent. */
  readonly reason: string;
}

/** A spooled call as found in the spool: its file and what it holds (or why it cannot be read). */
export type SpoolEntry =
  | { readonly file: string; readonly call: SpooledCall }
  | { readonly file: string; readonly unreadable: string };

/** The spool cannot be written or read. */
export class SpoolError extends RegError {
  constructor(detail: string) {
    super('spool', detail);
  }
}

/** Where refused or unreadable calls are moved, inside the spool. */
export const REFUSED_DIR = 'refused';

/**
 * Writes a call to the spool durably: to a temporary file that is synced, then renamed into place (and the
 * directory synced), so a crash leaves either the whole call or nothing. Names sort in the order calls were
 * spooled. Returns the file's path.
 */
export function spoolCall(dir: string, call: Omit<SpooledCall, 'format'>, now = new Date()): string {
  const folder = path.resolve(dir);
  try {
    fs.mkdirSync(folder, { recursive: true });
  } catch (error) {
    throw new SpoolError(`the spool directory ${folder} cannot be created: ${firstLine(error)}`);
  }
  const stamp = now.toISOString().replace(/[-:.]/g, '');
  const name = `${stamp}-${process.pid}-${randomBytes(4).toString('hex')}.json`;
  const temporary = path.join(folder, `.${name}.tmp`);
  const target = path.join(folder, name);
  const text = `${JSON.stringify({ format: FORMAT, ...call }, null, 2)}\n`;
  try {
    const fd = fs.openSync(temporary, 'wx', 0o600);
    try {
      fs.writeFileSync(fd, text);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(temporary, target);
    syncDirectory(folder);
  } catch (error) {
    fs.rmSync(temporary, { force: true });
    throw new SpoolError(`the call cannot be written to the spool ${folder}: ${firstLine(error)}`);
  }
  return target;
}

/** The calls in the spool, oldest first; temporary files of writes in progress are left alone. */
export function spooledCalls(dir: string): SpoolEntry[] {
  const folder = path.resolve(dir);
  let names: string[];
  try {
    names = fs.readdirSync(folder);
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ENOENT') return [];
    throw new SpoolError(`the spool directory ${folder} cannot be read: ${firstLine(error)}`);
  }
  return names
    .filter((name) => name.endsWith('.json') && !name.startsWith('.'))
    .sort()
    .map((name) => readEntry(path.join(folder, name)));
}

function readEntry(file: string): SpoolEntry {
  let parsed: unknown;
  try {
    parsed = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (error) {
    return { file, unreadable: firstLine(error) };
  }
  const call = parsed as Partial<SpooledCall>;
  if (
    typeof parsed !== 'object' ||
    parsed === null ||
    call.format !== FORMAT ||
    (call.role !== 'produced' && call.role !== 'consumed') ||
    typeof call.run_key !== 'string' ||
    typeof call.body !== 'object' ||
    call.body === null
  ) {
    return { file, unreadable: `not a spooled advertisement of format ${FORMAT}` };
  }
  return { file, call: call as SpooledCall };
}

/** Removes a call the registry acknowledged. */
export function removeCall(file: string): void {
  fs.rmSync(file, { force: true });
  syncDirectory(path.dirname(file));
}

/**
 * Moves a call that can never be sent as it is (refused, or unreadable) to `refused/` in the spool, with the
 * reason beside it, so that it is kept for a person to look at and no longer replayed. Returns its new path.
 */
export function setAside(file: string, reason: string): string {
  const folder = path.join(path.dirname(file), REFUSED_DIR);
  fs.mkdirSync(folder, { recursive: true });
  const target = path.join(folder, path.basename(file));
  fs.renameSync(file, target);
  fs.writeFileSync(`${target}.reason.txt`, `${reason}\n`);
  syncDirectory(folder);
  syncDirectory(path.dirname(file));
  return target;
}

/** Makes a rename or removal in a directory durable (where the platform allows syncing a directory). */
function syncDirectory(folder: string): void {
  let fd: number | undefined;
  try {
    fd = fs.openSync(folder, 'r');
    fs.fsyncSync(fd);
  } catch {
    // Some platforms cannot sync a directory; the rename itself is still atomic.
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

const firstLine = (error: unknown): string =>
  (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
