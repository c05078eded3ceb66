import fs from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { timed } from './stats.js';

/** Raw file I/O over the dump file, the floor of `reg dump`. */
export interface FsBaseline {
  /** Streaming the file through JS into a new file. */
  readonly copyMs: number;
  /** Streaming the file through JS and discarding it. */
  readonly readMs: number;
}

/** Copies `file` to `copyTo` with streams, then reads it once more; both through JS, as `reg dump` writes. */
export async function measureFsCopy(file: string, copyTo: string): Promise<FsBaseline> {
  const copy = await timed(() => pipeline(fs.createReadStream(file), fs.createWriteStream(copyTo)));
  const read = await timed(async () => {
    let bytes = 0;
    for await (const chunk of fs.createReadStream(file)) bytes += (chunk as Buffer).length;
    return bytes;
  });
  fs.rmSync(copyTo, { force: true });
  return { copyMs: copy.ms, readMs: read.ms };
}
