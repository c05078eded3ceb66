/**
 * A restore into the external store checks the records against today's shapes as each commit wrote them: the
 * same report as reading them back, without a request to read them back.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { restoreNQuads } from '../../src/core/ops/restore.js';
import { openTestCore } from '../helpers.js';
import { expectStrandedRestore, writeStrandedDump } from '../support/stored-records.js';
import { readSparqlLog } from '../support/strict-sparql.js';
import {
  externalStoreEnv,
  sparqlLogOf,
  startVirtuosoSync,
  type VirtuosoServer,
} from '../support/virtuoso.js';

let server: VirtuosoServer;

beforeAll(() => {
  server = startVirtuosoSync(inject('virtuosoTemplate'));
});

afterAll(async () => {
  await server.dispose();
});

describe('restore into the external store of records today’s shapes or vocabulary would refuse', () => {
  it('reports each as stranded from what it wrote, reading none of them back', async () => {
    const dump = await writeStrandedDump();
    const target = await openTestCore(externalStoreEnv(server));
    try {
      const log = sparqlLogOf(server);
      const before = readSparqlLog(log).length;
      const phases: string[] = [];
      const result = await restoreNQuads(target, dump.file, (progress) => {
        if (!phases.includes(progress.phase)) phases.push(progress.phase);
      });
      expect(phases).toEqual(['read', 'write', 'check']);
      const reads = readSparqlLog(log)
        .slice(before)
        .filter(
          (request) =>
            request.kind === 'query' && request.text.startsWith('SELECT ?s ?p ?o WHERE { VALUES ?s'),
        );
      expect(reads).toEqual([]);
      await expectStrandedRestore(target, dump, result);
    } finally {
      await target.close();
    }
  });
});
