import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT_PRINCIPAL } from '../../src/core/access/principal.js';
import { createSoftware, getSoftware } from '../../src/core/catalogue/software.js';
import { DCT, GRAPHS, SCHEMA } from '../../src/core/ns.js';
import { restoreNQuads } from '../../src/core/ops/restore.js';
import { StrandedCheck } from '../../src/core/ops/restore-check.js';
import { actOf } from '../../src/core/stored/write-path.js';
import { openTestCore, tempDir } from '../helpers.js';

const GONE_TOPIC = 'http://example.org/vocab/topic-dropped-by-a-vocabulary-change';

describe('restore of records today’s shapes or vocabulary would refuse', () => {
  it('keeps them, reports each as stranded with the field an edit would name, and checks the rest', async () => {
    const source = await openTestCore({}, true);
    const act = actOf(ROOT_PRINCIPAL);
    const fine = await createSoftware(source, act, { name: 'fine' });
    const nameless = await createSoftware(source, act, { name: 'loses its name' });
    const citing = await createSoftware(source, act, { name: 'cites a dropped topic' });
    const chunks: string[] = [];
    for await (const chunk of source.graph.dump()) chunks.push(chunk);
    await source.close();
    // As a dump taken under older shapes or vocabulary would hold them: a software without the name today's
    // shapes require, and one citing a topic no bundle holds any more.
    const lines = chunks
      .join('')
      .split('\n')
      .filter((line) => !line.startsWith(`<${nameless.iri as string}> <${SCHEMA('name')}>`));
    lines.push(`<${citing.iri as string}> <${DCT('subject')}> <${GONE_TOPIC}> <${GRAPHS.local}> .`);
    const file = path.join(tempDir(), 'dump.nq');
    fs.writeFileSync(file, `${lines.filter((line) => line !== '').join('\n')}\n`);

    const target = await openTestCore();
    try {
      const phases: string[] = [];
      const result = await restoreNQuads(target, file, (progress) => {
        if (!phases.includes(progress.phase)) phases.push(progress.phase);
      });
      expect(phases).toEqual(['read', 'write', 'check']);
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
      // Kept and readable, as restored.
      expect((await getSoftware(target, citing.id as string)).topics).toEqual(
        expect.arrayContaining([expect.objectContaining({ iri: GONE_TOPIC })]),
      );
      expect((await getSoftware(target, nameless.id as string)).name).toBeUndefined();
    } finally {
      await target.close();
    }
  });

  it('keeps what the last check of a record found, when a load checks it again with its later text', async () => {
    const core = await openTestCore({}, true);
    try {
      const software = await createSoftware(core, actOf(ROOT_PRINCIPAL), { name: 'checked twice' });
      const text = (await core.graph.readRecord(GRAPHS.local, software.iri as string)) ?? '';
      const nameless = text
        .split('\n')
        .filter((line) => !line.startsWith(`<${software.iri as string}> <${SCHEMA('name')}>`))
        .join('\n');
      const check = new StrandedCheck(core);
      await check.check([{ record: software.iri as string, text: nameless }]);
      expect(check.count).toBe(1);
      await check.check([{ record: software.iri as string, text }]);
      const report = await check.report(new Set([software.iri as string]));
      expect(report).toEqual({ checked: 1, records: 0, examples: [] });
      // And the other way round: a later text an edit would refuse is reported.
      await check.check([{ record: software.iri as string, text: nameless }]);
      expect((await check.report(new Set([software.iri as string]))).records).toBe(1);
    } finally {
      await core.close();
    }
  });
});
