#!/usr/bin/env node
// Builds the registry only when a source changed since the last build: `npm start` after a restart is then
// instant. The newest modification time of the sources is compared with the one the last build recorded.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const SOURCES = [
  'src',
  'ui/src',
  'ui/index.html',
  'ui/vite.config.ts',
  'shapes',
  'vocab',
  'scripts',
  'package.json',
  'package-lock.json',
  'tsconfig.json',
  'tsconfig.build.json',
];
const STAMP = path.join(root, 'dist', '.build-stamp');

/** The newest modification time under a file or folder, in milliseconds. */
function newest(target) {
  let stat;
  try {
    stat = fs.statSync(target);
  } catch {
    return 0;
  }
  if (!stat.isDirectory()) return stat.mtimeMs;
  let latest = stat.mtimeMs;
  for (const entry of fs.readdirSync(target)) latest = Math.max(latest, newest(path.join(target, entry)));
  return latest;
}

const sources = Math.max(...SOURCES.map((source) => newest(path.join(root, source))));
let built = 0;
try {
  built = Number(fs.readFileSync(STAMP, 'utf8'));
} catch {
  // Never built, or built before builds were recorded.
}
if (built >= sources && fs.existsSync(path.join(root, 'dist', 'commands', 'serve.js'))) process.exit(0);
process.stderr.write('building: the sources changed since the last build\n');
const result = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
if (result.status !== 0) process.exit(result.status ?? 1);
fs.writeFileSync(STAMP, String(sources));
