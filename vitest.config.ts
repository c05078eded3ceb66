import { defineConfig } from 'vitest/config';

/**
 * Test files that only make sense on the embedded store, left out of the `sparql` project:
 * - sparql-timeout: the time limit of the embedded query index, which is stopped and rebuilt (an external server
 *   applies its own limits, and REG_SPARQL_TIMEOUT bounds each request to it).
 */
const EMBEDDED_ONLY: string[] = ['test/http/sparql-timeout.test.ts'];

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    reporters: ['default', './test/summary-reporter.ts'],
    projects: [
      {
        extends: true,
        test: { name: 'embedded', include: ['test/**/*.test.ts'], exclude: ['test/external/**'] },
      },
      {
        // One shared suite, two back ends: the HTTP and end-to-end tests again, each data directory with a
        // Virtuoso of its own as its graph store (test/support/virtuoso.ts).
        extends: true,
        test: {
          name: 'sparql',
          include: ['test/http/**/*.test.ts', 'test/e2e/**/*.test.ts', 'test/external/**/*.test.ts'],
          exclude: EMBEDDED_ONLY,
          env: { REG_TEST_GRAPH: 'sparql' },
          globalSetup: ['./test/support/virtuoso.ts'],
          setupFiles: ['./test/support/external-store-hooks.ts'],
        },
      },
    ],
  },
});
