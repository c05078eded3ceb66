import fs from 'node:fs';
import { defineConfig } from 'vitest/config';

/**
 * The external graph store suite needs Debian's virtuoso-opensource and nginx-light (`.ci/run` installs them).
 * Without them `npm test` runs the embedded suite and says what it left out; with REG_TEST_REQUIRE_SPARQL=1 (as in
 * CI) a missing Virtuoso is an error instead, so the second back end is never skipped unnoticed.
 */
const VIRTUOSO = '/usr/bin/virtuoso-t';
const withVirtuoso = fs.existsSync(VIRTUOSO);
if (!withVirtuoso) {
  if (process.env.REG_TEST_REQUIRE_SPARQL === '1')
    throw new Error(`${VIRTUOSO} is missing: install virtuoso-opensource and nginx-light (see .ci/run)`);
  process.stderr.write(
    `\nnote: ${VIRTUOSO} is missing, so the external graph store suite (project sparql) is not run; install ` +
      'virtuoso-opensource and nginx-light to run it\n\n',
  );
}

/** The web page's end-to-end suite (test/ui) drives Debian's Chromium; CI requires it like Virtuoso. */
const CHROMIUM = '/usr/bin/chromium';
if (!fs.existsSync(CHROMIUM)) {
  if (process.env.REG_TEST_REQUIRE_CHROMIUM === '1')
    throw new Error(`${CHROMIUM} is missing: install chromium (see .ci/run)`);
  process.stderr.write(
    `\nnote: ${CHROMIUM} is missing, so the web page suite (test/ui) is skipped; install chromium\n\n`,
  );
}

/**
 * Test files that only make sense on the embedded store, left out of the `sparql` project:
 * - sparql-timeout: the time limit of the embedded query index, which is stopped and rebuilt (an external server
 *   applies its own limits, and REG_SPARQL_TIMEOUT bounds each request to it).
 * - query-index-on-demand: when the embedded store loads its query index (an external server has none to load);
 * - search-large-commits: the embedded store's search rows that follow a large commit (the external store's
 *   commits index their search rows inline).
 * - ci-action, ci-action-gitlab: the CI scripts are clients of the HTTP API, whose advertise, dry run and token
 *   paths the suite already runs on both stores; their slow part, installing the packed package, does not involve
 *   the store at all.
 */
const EMBEDDED_ONLY: string[] = [
  'test/http/sparql-timeout.test.ts',
  'test/http/query-index-on-demand.test.ts',
  'test/http/search-large-commits.test.ts',
  'test/e2e/ci-action.test.ts',
  'test/e2e/ci-action-gitlab.test.ts',
];

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Two files at a time even on two cores (vitest's default there is one): most tests wait on servers they
    // started (the registry, Virtuoso, Chromium, podman), so the suite takes about four fifths of the time.
    maxWorkers: 2,
    reporters: ['default', './test/summary-reporter.ts'],
    projects: [
      {
        extends: true,
        test: { name: 'embedded', include: ['test/**/*.test.ts'], exclude: ['test/external/**'] },
      },
      // One shared suite, two back ends: the HTTP and end-to-end tests again, each data directory with a
      // Virtuoso of its own as its graph store (test/support/virtuoso.ts).
      ...(withVirtuoso
        ? [
            {
              extends: true as const,
              test: {
                name: 'sparql',
                include: ['test/http/**/*.test.ts', 'test/e2e/**/*.test.ts', 'test/external/**/*.test.ts'],
                exclude: EMBEDDED_ONLY,
                env: { REG_TEST_GRAPH: 'sparql' },
                globalSetup: ['./test/support/virtuoso.ts'],
                setupFiles: ['./test/support/external-store-hooks.ts'],
              },
            },
          ]
        : []),
    ],
  },
});
