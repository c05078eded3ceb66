import fs from 'node:fs';

/** About the chunk size oxigraph loads fastest (STACK.md §2). */
export const CHUNK_BYTES = 1 << 20;

/** Yields the text of a file in chunks of about `size` bytes that end on a line boundary. */
export async function* lineChunks(file: string, size = CHUNK_BYTES): AsyncGenerator<string> {
  let rest = '';
  for await (const piece of fs.createReadStream(file, { encoding: 'utf8', highWaterMark: size })) {
    const text = rest + (piece as string);
    const end = text.lastIndexOf('\n') + 1;
    rest = text.slice(end);
    if (end > 0) yield text.slice(0, end);
  }
  if (rest.length > 0) yield rest;
}

/** Counts the quad lines of a file (comments left out), and those whose text ends with `suffix`. */
export async function countLines(file: string, suffix: string): Promise<{ lines: number; matching: number }> {
  let lines = 0;
  let matching = 0;
  for await (const chunk of lineChunks(file)) {
    let start = 0;
    for (let end = chunk.indexOf('\n'); end >= 0; end = chunk.indexOf('\n', start)) {
      if (chunk.charAt(start) !== '#') lines++;
      if (chunk.startsWith(suffix, end - suffix.length)) matching++;
      start = end + 1;
    }
  }
  return { lines, matching };
}
