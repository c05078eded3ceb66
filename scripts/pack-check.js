#!/usr/bin/env node
// Runs before `npm pack` and `npm publish` (after scripts/build-if-changed.js): makes the built tree fit to ship.
// - Removes compiled files whose source is gone: tsc never deletes outputs, so a renamed or removed module would
//   otherwise still be packed.
// - Checks that everything `reg serve` reads at run time is built: the commands, the prebuilt bundles, the web page
//   and the command manifest.
// - Checks that package.json `man` lists exactly the pages in man/, so that a global install links every page.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = path.join(root, 'dist');
const problems = [];

/** The source a compiled file came from, or undefined when the file is not compiled from src/. */
function sourcesOf(relative) {
  const match = /^(.*)\.js(?:\.map)?$/.exec(relative);
  if (match === null) return undefined;
  return [`${match[1]}.ts`, `${match[1]}.tsx`].map((candidate) => path.join(root, 'src', candidate));
}

let pruned = 0;
for (const entry of fs.readdirSync(dist, { recursive: true, withFileTypes: true })) {
  if (!entry.isFile()) continue;
  const file = path.join(entry.parentPath, entry.name);
  const relative = path.relative(dist, file);
  if (relative.startsWith(`bundles${path.sep}`)) continue;
  const sources = sourcesOf(relative);
  if (sources === undefined || sources.some((source) => fs.existsSync(source))) continue;
  fs.rmSync(file);
  pruned += 1;
}
// Folders left empty by the removal go too (deepest first).
const folders = fs
  .readdirSync(dist, { recursive: true, withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => path.join(entry.parentPath, entry.name))
  .sort((a, b) => b.length - a.length);
for (const folder of folders) if (fs.readdirSync(folder).length === 0) fs.rmdirSync(folder);
// On stderr, so that `npm pack --json` prints only JSON.
if (pruned > 0) process.stderr.write(`removed ${pruned} compiled files whose source is gone from dist/\n`);

for (const required of [
  'dist/commands/serve.js',
  'dist/bundles/index.json',
  'ui/dist/index.html',
  'oclif.manifest.json',
  'concepts/tokens.md',
]) {
  if (!fs.existsSync(path.join(root, required))) problems.push(`${required} is missing: run npm run build`);
}

const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
const listed = new Set((pkg.man ?? []).map((page) => path.posix.normalize(page)));
const pages = fs
  .readdirSync(path.join(root, 'man'))
  .filter((name) => /\.\d$/.test(name))
  .map((name) => `man/${name}`);
for (const page of pages) if (!listed.has(page)) problems.push(`package.json "man" does not list ${page}`);
for (const page of listed)
  if (!pages.includes(page)) problems.push(`package.json "man" lists ${page}, which is missing`);

if (problems.length > 0) {
  for (const problem of problems) console.error(`pack: ${problem}`);
  process.exit(1);
}
