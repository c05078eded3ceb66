import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT_PRINCIPAL } from '../../src/core/access/principal.js';
import { GRAPHS } from '../../src/core/ns.js';
import { restoreNQuads } from '../../src/core/ops/restore.js';
import { createSoftware, getSoftware, withdrawSoftware } from '../../src/core/catalogue/software.js';
import { createType } from '../../src/core/catalogue/types.js';
import { openTestCore, tempDir } from '../helpers.js';
import { actOf } from '../../src/core/stored/write-path.js';

describe('restore', () => {
  it('keeps record kinds, counting withdrawn records apart', async () => {
    const source = await openTestCore({}, true);
    const root = ROOT_PRINCIPAL;
    await createSoftware(source, actOf(root), { name: 'kept' });
    const gone = await createSoftware(source, actOf(root), { name: 'withdrawn' });
    await withdrawSoftware(source, actOf(root), gone.id as string);
    const file = path.join(tempDir(), 'dump.nq');
    const chunks: string[] = [];
    for await (const chunk of source.graph.dump()) chunks.push(chunk);
    fs.writeFileSync(file, chunks.join(''));
    expect((await source.graph.countByKind(GRAPHS.local)).get('software')).toBe(1);
    await source.close();

    const target = await openTestCore();
    try {
      const result = await restoreNQuads(target, file);
      expect(result.records).toBeGreaterThanOrEqual(2);
      const kinds = await target.graph.countByKind(GRAPHS.local);
      expect(kinds.get('software')).toBe(1);
      expect(kinds.get('software:withdrawn')).toBe(1);
    } finally {
      await target.close();
    }
  });
});

describe('restore of records whose IRI has a fragment', () => {
  it('keeps an adopted term such as vocab#Thing as its own record', async () => {
    const source = await openTestCore({}, true);
    const root = ROOT_PRINCIPAL;
    const adopted = await createType(source, actOf(root), {
      iri: 'https://example.org/vocab#Thing',
      label: 'Thing',
    });
    const file = path.join(tempDir(), 'dump.nq');
    const chunks: string[] = [];
    for await (const chunk of source.graph.dump()) chunks.push(chunk);
    fs.writeFileSync(file, chunks.join(''));
    await source.close();

    const target = await openTestCore({}, true);
    try {
      await restoreNQuads(target, file);
      expect(await target.graph.readRecord(GRAPHS.local, 'https://example.org/vocab#Thing')).toContain(
        '"Thing"',
      );
      expect(await target.graph.readRecord(GRAPHS.local, 'https://example.org/vocab')).toBeUndefined();
      const created = await createSoftware(target, actOf(root), {
        name: 'uses it',
        capability: { produces: [adopted.iri as string] },
      });
      expect((created.capability as { produces: { iri: string }[] }).produces[0]!.iri).toBe(adopted.iri);
    } finally {
      await target.close();
    }
  });
});

describe('restore of records that hold quads about other IRIs', () => {
  it('puts an agent named by its identifier IRI back into each record that names it', async () => {
    const source = await openTestCore({}, true);
    const publisher = {
      name: 'Lab',
      kind: 'organization',
      identifier: 'https://ror.org/02jz4aj89',
      homepage: 'https://lab.example.org',
    };
    const one = await createSoftware(source, actOf(ROOT_PRINCIPAL), { name: 'one', publisher });
    const two = await createSoftware(source, actOf(ROOT_PRINCIPAL), { name: 'two', publisher });
    const file = path.join(tempDir(), 'dump.nq');
    const chunks: string[] = [];
    for await (const chunk of source.graph.dump()) chunks.push(chunk);
    fs.writeFileSync(file, chunks.join(''));
    const before = [
      await source.graph.readRecord(GRAPHS.local, one.iri as string),
      await source.graph.readRecord(GRAPHS.local, two.iri as string),
    ];
    await source.close();

    const target = await openTestCore({}, true);
    try {
      await restoreNQuads(target, file);
      expect(await target.graph.readRecord(GRAPHS.local, one.iri as string)).toBe(before[0]);
      expect(await target.graph.readRecord(GRAPHS.local, two.iri as string)).toBe(before[1]);
      expect(await target.graph.readRecord(GRAPHS.local, 'https://ror.org/02jz4aj89')).toBeUndefined();
      expect((await getSoftware(target, one.id as string)).publisher).toMatchObject({
        name: 'Lab',
        kind: 'organization',
      });
    } finally {
      await target.close();
    }
  });
});
