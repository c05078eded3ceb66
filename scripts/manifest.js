// Writes oclif.manifest.json from the built commands, so that running one command imports only that command
// instead of every command module (which costs hundreds of milliseconds of module loading at each start).
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Config } from '@oclif/core';

const root = fileURLToPath(new URL('..', import.meta.url));
const target = `${root}oclif.manifest.json`;
fs.rmSync(target, { force: true });
const config = await Config.load(root);
const plugin = config.getPluginsList().find((candidate) => candidate.root === config.root);
if (plugin === undefined) throw new Error('the root plugin was not found');
fs.writeFileSync(target, `${JSON.stringify(plugin.manifest, null, 2)}\n`);
console.log(`wrote oclif.manifest.json (${Object.keys(plugin.manifest.commands).length} commands)`);
