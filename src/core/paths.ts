import { fileURLToPath } from 'node:url';
import path from 'node:path';

/** The package root: two levels above this file in both `src/core` and `dist/core`. */
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Absolute path of a file shipped in the package (shapes, vocab, ui, ...). */
export function packagePath(...parts: string[]): string {
  return path.join(ROOT, ...parts);
}
