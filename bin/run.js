#!/usr/bin/env node
import { fileURLToPath } from 'node:url';
import { execute } from '@oclif/core';

// No user plugins: oclif would otherwise read <REG_DATA_DIR>/package.json (its data directory shares the
// registry's variable name) and load plugins named there.
await execute({ loadOptions: { root: fileURLToPath(new URL('..', import.meta.url)), userPlugins: false } });
