import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { MalformedInputError } from '../../core/errors.js';

/** The digest and size of a local file: what an advertisement sends instead of the bytes. */
export interface FileDigest {
  readonly algorithm: 'sha-256';
  /** Lower-case hex SHA-256 of the file's bytes. */
  readonly value: string;
  readonly byteSize: number;
}

/**
 * Reads a file as a stream and returns its SHA-256 and byte size; the bytes never leave this process, so a file
 * of any size costs constant memory. An unreadable file is malformed input (exit 5), named with the reason.
 */
export async function digestFile(file: string): Promise<FileDigest> {
  const hash = createHash('sha256');
  let byteSize = 0;
  try {
    const stat = await fs.promises.stat(file);
    if (!stat.isFile()) throw new Error('it is not a regular file');
    for await (const chunk of fs.createReadStream(file)) {
      const bytes = chunk as Buffer;
      byteSize += bytes.length;
      hash.update(bytes);
    }
  } catch (error) {
    const reason =
      (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message;
    throw new MalformedInputError(`the data file ${file} cannot be read: ${reason}`);
  }
  return { algorithm: 'sha-256', value: hash.digest('hex'), byteSize };
}
