/**
 * One Virtuoso per test data directory, when the suite runs against the external graph store
 * (`REG_TEST_GRAPH=sparql`, set by the `sparql` vitest project). A server started while a test runs is stopped
 * after that test; one started in a `beforeAll` lives until the end of its file (see external-store-hooks.ts).
 */
import { inject } from 'vitest';
import { strictSparqlFailures } from './strict-sparql.js';
import { externalStoreEnv, sparqlLogOf, startVirtuosoSync, type VirtuosoServer } from './virtuoso.js';

const stores = new Map<string, { server: VirtuosoServer; perTest: boolean }>();
let inTest = false;

/** Settings a test sets itself when it wants its own graph store configuration (or a refusal of it). */
const OWN_GRAPH_SETTINGS = [
  'REG_SPARQL_ENDPOINT',
  'REG_SPARQL_UPDATE_ENDPOINT',
  'REG_SPARQL_GRAPH_STORE_ENDPOINT',
  'REG_SPARQL_BEARER_TOKEN',
  'REG_SPARQL_USERNAME',
  'REG_SPARQL_PASSWORD',
];

/** Whether this run tests the external graph store. */
export function externalGraphRun(): boolean {
  return process.env.REG_TEST_GRAPH === 'sparql';
}

/**
 * The REG_SPARQL_* settings for a registry on `dataDir` in an external-store run (a server of its own, started
 * on first use); nothing in an embedded run, or when the test configures the graph store itself.
 */
export function externalStoreSettings(
  dataDir: string,
  overrides: Readonly<Record<string, string>>,
): Record<string, string> {
  if (!externalGraphRun() || OWN_GRAPH_SETTINGS.some((name) => name in overrides)) return {};
  return externalStoreEnv(externalStoreOf(dataDir));
}

/** The server holding the graph of `dataDir`, started from the template on first use. */
export function externalStoreOf(dataDir: string): VirtuosoServer {
  let entry = stores.get(dataDir);
  if (entry === undefined) {
    entry = { server: startVirtuosoSync(inject('virtuosoTemplate')), perTest: inTest };
    stores.set(dataDir, entry);
  }
  return entry.server;
}

/** Marks the start of a test: servers started from now on are stopped when it ends. */
export function enterTest(): void {
  inTest = true;
}

/** Stops the servers started during the test that just ended. */
export async function leaveTest(): Promise<void> {
  inTest = false;
  await dispose(([, entry]) => entry.perTest);
}

/** Stops every server of this file. */
export async function leaveFile(): Promise<void> {
  await dispose(() => true);
}

/**
 * Stops the chosen servers, then fails when a registry sent one of them a query or update that is not SPARQL 1.1
 * (test/support/strict-sparql.ts): the test, or the file, that caused it fails with the requests named.
 */
async function dispose(which: (entry: [string, { server: VirtuosoServer; perTest: boolean }]) => boolean) {
  const chosen = [...stores.entries()].filter(which);
  for (const [dir] of chosen) stores.delete(dir);
  const failures = chosen.flatMap(([, entry]) => strictSparqlFailures(sparqlLogOf(entry.server)));
  await Promise.all(chosen.map(([, entry]) => entry.server.dispose()));
  if (failures.length > 0) {
    throw new Error(
      `${failures.length} request(s) to the graph store were not SPARQL 1.1:\n${failures.slice(0, 5).join('\n')}`,
    );
  }
}
