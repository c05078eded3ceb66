#!/usr/bin/env node
// Starts a registry on its embedded default with no configuration: http://localhost:8080, data under ./data.
// Any REG_* variable already set wins.
import { fileURLToPath } from 'node:url';
import { execute } from '@oclif/core';

const root = fileURLToPath(new URL('..', import.meta.url));
process.env.REG_BASE_IRI ??= 'http://localhost:8080';
process.env.REG_DATA_DIR ??= `${root}data`;
process.env.REG_LISTEN ??= '127.0.0.1:8080';
await execute({ dir: import.meta.url, args: ['serve', ...process.argv.slice(2)] });
