/**
 * A ZIP archive of a few small files, written and read without a dependency: entries are written stored (no
 * compression, as a crate's metadata is small) and read stored or deflated. Archives that need ZIP64, that are
 * encrypted or split, are refused rather than half read.
 */
import zlib from 'node:zlib';
import { BadRequestError, PayloadTooLargeError } from '../errors.js';

/** One file of an archive. */
export interface ZipEntry {
  readonly name: string;
  readonly data: Buffer;
}

const LOCAL = 0x04034b50;
const CENTRAL = 0x02014b50;
const END = 0x06054b50;
/** Version 2.0: what stored and deflated entries need. */
const VERSION = 20;
/** General purpose flag bit 11: names are UTF-8. */
const UTF8 = 0x0800;

/** The MS-DOS time and date of an instant (UTC), as ZIP headers hold them. */
function dosTime(at: Date): { time: number; date: number } {
  const year = Math.max(1980, at.getUTCFullYear());
  return {
    time: (at.getUTCHours() << 11) | (at.getUTCMinutes() << 5) | Math.floor(at.getUTCSeconds() / 2),
    date: ((year - 1980) << 9) | ((at.getUTCMonth() + 1) << 5) | at.getUTCDate(),
  };
}

/** An archive holding the entries, stored, in the order given, each dated `at`. */
export function writeZip(entries: readonly ZipEntry[], at: Date): Buffer {
  const { time, date } = dosTime(at);
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name, 'utf8');
    const crc = zlib.crc32(entry.data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(LOCAL, 0);
    local.writeUInt16LE(VERSION, 4);
    local.writeUInt16LE(UTF8, 6);
    local.writeUInt16LE(0, 8);
    local.writeUInt16LE(time, 10);
    local.writeUInt16LE(date, 12);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(entry.data.length, 18);
    local.writeUInt32LE(entry.data.length, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(0, 28);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(CENTRAL, 0);
    central.writeUInt16LE(VERSION, 4);
    central.writeUInt16LE(VERSION, 6);
    central.writeUInt16LE(UTF8, 8);
    central.writeUInt16LE(0, 10);
    central.writeUInt16LE(time, 12);
    central.writeUInt16LE(date, 14);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(entry.data.length, 20);
    central.writeUInt32LE(entry.data.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, entry.data);
    centrals.push(central, name);
    offset += local.length + name.length + entry.data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(END, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/** How much an archive read in may hold. */
export interface ZipLimits {
  /** Most bytes all the entries read may expand to together. */
  readonly maxBytes: number;
  /** Most entries the archive may list. */
  readonly maxEntries: number;
}

/**
 * The entries of an archive whose names `wanted` accepts, decompressed (stored or deflated). An archive that is
 * not one, is encrypted or needs ZIP64 is a 400; entries expanding past `maxBytes` a 413.
 */
export function readZip(bytes: Buffer, wanted: (name: string) => boolean, limits: ZipLimits): ZipEntry[] {
  const bad = (why: string): never => {
    throw new BadRequestError(`the request body is not a ZIP archive this registry reads: ${why}`);
  };
  const endAt = findEnd(bytes) ?? bad('it has no end of central directory record');
  const count = bytes.readUInt16LE(endAt + 10);
  const size = bytes.readUInt32LE(endAt + 12);
  const start = bytes.readUInt32LE(endAt + 16);
  if (count === 0xffff || start === 0xffffffff) bad('it needs ZIP64');
  if (count > limits.maxEntries) bad(`it lists ${count} entries; at most ${limits.maxEntries} are read`);
  if (start + size > endAt) bad('its central directory lies outside the archive');
  const out: ZipEntry[] = [];
  let total = 0;
  let at = start;
  for (let index = 0; index < count; index += 1) {
    if (at + 46 > bytes.length || bytes.readUInt32LE(at) !== CENTRAL) bad('its central directory is damaged');
    const flags = bytes.readUInt16LE(at + 8);
    const method = bytes.readUInt16LE(at + 10);
    const crc = bytes.readUInt32LE(at + 16);
    const packed = bytes.readUInt32LE(at + 20);
    const plain = bytes.readUInt32LE(at + 24);
    const nameLength = bytes.readUInt16LE(at + 28);
    const skip = nameLength + bytes.readUInt16LE(at + 30) + bytes.readUInt16LE(at + 32);
    const localAt = bytes.readUInt32LE(at + 42);
    const name = bytes.subarray(at + 46, at + 46 + nameLength).toString('utf8');
    at += 46 + skip;
    if (!wanted(name)) continue;
    if ((flags & 0x1) !== 0) bad(`${name} is encrypted`);
    if (localAt + 30 > bytes.length || bytes.readUInt32LE(localAt) !== LOCAL)
      bad(`${name} has no local header`);
    const dataAt = localAt + 30 + bytes.readUInt16LE(localAt + 26) + bytes.readUInt16LE(localAt + 28);
    if (dataAt + packed > bytes.length) bad(`${name} runs past the end of the archive`);
    total += plain;
    if (total > limits.maxBytes) throw new PayloadTooLargeError(limits.maxBytes);
    const raw = bytes.subarray(dataAt, dataAt + packed);
    let data: Buffer;
    if (method === 0) data = Buffer.from(raw);
    else if (method === 8) data = inflate(raw, limits.maxBytes, name, bad);
    else return bad(`${name} is compressed with method ${method}; send it stored or deflated`);
    if (data.length !== plain || zlib.crc32(data) !== crc) bad(`${name} does not match its checksum`);
    out.push({ name, data });
  }
  return out;
}

function inflate(raw: Buffer, max: number, name: string, bad: (why: string) => never): Buffer {
  try {
    return zlib.inflateRawSync(raw, { maxOutputLength: max });
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw new PayloadTooLargeError(max);
    return bad(`${name} is not valid deflate data`);
  }
}

/** Where the end of central directory record starts (searched back over a comment of up to 64 KiB). */
function findEnd(bytes: Buffer): number | undefined {
  const stop = Math.max(0, bytes.length - 22 - 0xffff);
  for (let at = bytes.length - 22; at >= stop; at -= 1) if (bytes.readUInt32LE(at) === END) return at;
  return undefined;
}
