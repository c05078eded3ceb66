import { describe, expect, it } from 'vitest';
import { ROOT_PRINCIPAL } from '../../src/core/access/principal.js';
import { createSoftware } from '../../src/core/catalogue/software.js';
import { GRAPHS, SCHEMA } from '../../src/core/ns.js';
import { restoreNQuads } from '../../src/core/ops/restore.js';
import { StrandedCheck } from '../../src/core/ops/restore-check.js';
import { actOf } from '../../src/core/stored/write-path.js';
import { openTestCore } from '../helpers.js';
import { expectStrandedRestore, writeStrandedDump } from '../support/stored-records.js';

describe('restore of records today’s shapes or vocabulary would refuse', () => {
  it('keeps them, reports each as stranded with the field an edit would name, and checks the rest', async () => {
    const dump = await writeStrandedDump();
    const target = await openTestCore();
    try {
      const phases: string[] = [];
      const result = await restoreNQuads(target, dump.file, (progress) => {
        if (!phases.includes(progress.phase)) phases.push(progress.phase);
      });
      expect(phases).toEqual(['read', 'write', 'check']);
      await expectStrandedRestore(target, dump, result);
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
