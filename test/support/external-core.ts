/** A registry core on a Virtuoso of its own, for the tests of one file of the external-store suite. */
import { afterAll, beforeAll, inject } from 'vitest';
import type { Core } from '../../src/core/core.js';
import { openTestCore } from '../helpers.js';
import { externalStoreEnv, startVirtuosoSync, type VirtuosoServer } from './virtuoso.js';

/**
 * Opens a core on a fresh server (from the suite's template database) before the file's tests and hands it to
 * `use`; closes both after them.
 */
export function openExternalCoreForFile(use: (core: Core) => void): void {
  let server: VirtuosoServer | undefined;
  let core: Core | undefined;
  beforeAll(async () => {
    server = startVirtuosoSync(inject('virtuosoTemplate'));
    core = await openTestCore(externalStoreEnv(server), true);
    use(core);
  });
  afterAll(async () => {
    await core?.close();
    await server?.dispose();
  });
}
