/**
 * A restore into the external store checks the records against today's shapes as each commit wrote them: the
 * same report as reading them back, without a request to read them back.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ROOT_PRINCIPAL } from '../../src/core/access/principal.js';
import { createSoftware, getSoftware } from '../../src/core/catalogue/software.js';
import { DCT, GRAPHS, SCHEMA } from '../../src/core/ns.js';
import { restoreNQuads } from '../../src/core/ops/restore.js';
import { actOf } from '../../src/core/stored/write-path.js';
import { openTestCore, tempDir } from '../helpers.js';
import { readSparqlLog } from '../support/strict-sparql.js';
import {
  externalStoreEnv,
  sparqlLogOf,
  startVirtuosoSync,
  type VirtuosoServer,
} from '../support/virtuoso.js';

const GONE_TOPIC = 'http://example.org/vocab/topic-dropped-by-a-vocabulary-change';
let server: VirtuosoServer;

beforeAll(() => {
  server = startVirtuosoSync(inject('virtuosoTemplate'));
});

afterAll(async () => {
  await server.dispose();
});

describe('restore into the external store of records today’s shapes or vocabulary would refuse', () => {
  it('reports each as stranded from what it wrote, reading none of them back', async () => {
    const source = await openTestCore({}, true);
    const act = actOf(ROOT_PRINCIPAL);
    const fine = await createSoftware(source, act, { name: 'fine' });
    const nameless = await createSoftware(source, act, { name: 'loses its name' });
    const citing = await createSoftware(source, act, { name: 'cites a dropped topic' });
    const chunks: string[] = [];
    for await (const chunk of source.graph.dump()) chunks.push(chunk);
    await source.close();
    const lines = chunks
      .join('')
      .split('\n')
      .filter((line) => !line.startsWith(`<${nameless.iri as string}> <${SCHEMA('name')}>`));
    // The citing record's new line comes last, apart from the rest of it: it is merged into the record again.
    lines.push(`<${citing.iri as string}> <${DCT('subject')}> <${GONE_TOPIC}> <${GRAPHS.local}> .`);
    const file = path.join(tempDir(), 'dump.nq');
    fs.writeFileSync(file, `${lines.filter((line) => line !== '').join('\n')}\n`);

    const target = await openTestCore(externalStoreEnv(server));
    try {
      const log = sparqlLogOf(server);
      const before = readSparqlLog(log).length;
      const phases: string[] = [];
      const result = await restoreNQuads(target, file, (progress) => {
        if (!phases.includes(progress.phase)) phases.push(progress.phase);
      });
      expect(phases).toEqual(['scan', 'read', 'write', 'check']);
      const reads = readSparqlLog(log)
        .slice(before)
        .filter(
          (request) =>
            request.kind === 'query' && request.text.startsWith('SELECT ?s ?p ?o WHERE { VALUES ?s'),
        );
      expect(reads).toEqual([]);
      expect(result.stranded.checked).toBeGreaterThanOrEqual(3);
      expect(result.stranded.records).toBe(2);
      const named = new Map(result.stranded.examples.map((entry) => [entry.record, entry.problems]));
      expect(named.get(nameless.iri as string)).toEqual(
        expect.arrayContaining([expect.objectContaining({ field: 'name' })]),
      );
      expect(named.get(citing.iri as string)).toEqual([
        expect.objectContaining({ field: 'topics', message: expect.stringContaining(GONE_TOPIC) }),
      ]);
      expect(named.has(fine.iri as string)).toBe(false);
      expect((await getSoftware(target, citing.id as string)).topics).toEqual(
        expect.arrayContaining([expect.objectContaining({ iri: GONE_TOPIC })]),
      );
      expect((await getSoftware(target, nameless.id as string)).name).toBeUndefined();
    } finally {
      await target.close();
    }
  });
});
