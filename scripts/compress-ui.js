// Writes Brotli and gzip copies next to each compressible file of the built web page, so that `reg serve`
// sends them precompressed to browsers that accept them (the shell, index.html, is sent as it is).
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

const root = path.resolve(process.argv[2] ?? 'ui/dist');
const COMPRESSIBLE = /\.(?:js|css|svg|json|txt|webmanifest)$/;
let files = 0;
let raw = 0;
let brotli = 0;
for (const entry of fs.readdirSync(root, { recursive: true, withFileTypes: true })) {
  if (!entry.isFile() || !COMPRESSIBLE.test(entry.name)) continue;
  const file = path.join(entry.parentPath, entry.name);
  const bytes = fs.readFileSync(file);
  const br = zlib.brotliCompressSync(bytes, {
    params: {
      [zlib.constants.BROTLI_PARAM_QUALITY]: 11,
      [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
    },
  });
  fs.writeFileSync(`${file}.br`, br);
  fs.writeFileSync(`${file}.gz`, zlib.gzipSync(bytes, { level: 9 }));
  files += 1;
  raw += bytes.length;
  brotli += br.length;
}
console.log(
  `web page: ${files} files, ${(raw / 1024).toFixed(1)} KiB, ${(brotli / 1024).toFixed(1)} KiB with Brotli`,
);
