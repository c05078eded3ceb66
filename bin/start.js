#!/usr/bin/env node
// `npm start`: serves a registry with no settings at all, on the defaults every command shares:
// http://localhost:8080 (this machine only), data under ./data. Any REG_* variable set wins.
import { fileURLToPath } from 'node:url';
import { execute } from '@oclif/core';

await execute({
  args: ['serve', ...process.argv.slice(2)],
  loadOptions: { root: fileURLToPath(new URL('..', import.meta.url)), userPlugins: false },
});
