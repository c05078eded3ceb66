#!/usr/bin/env node
import { fileURLToPath } from 'node:url';
import { execute } from '@oclif/core';

// reg --version and reg -v print what reg version prints (it also asks the registry for its version).
const argv = process.argv.slice(2);
const args = argv[0] === '--version' || argv[0] === '-v' ? ['version', ...argv.slice(1)] : argv;

// No user plugins: oclif would otherwise read <REG_DATA_DIR>/package.json (its data directory shares the
// registry's variable name) and load plugins named there. The core plugins of package.json still load.
await execute({
  args,
  loadOptions: { root: fileURLToPath(new URL('..', import.meta.url)), userPlugins: false },
});
