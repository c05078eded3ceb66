import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveCredential } from '../../src/core/auth/principal.js';
import { GRAPHS } from '../../src/core/ns.js';
import { restoreNQuads } from '../../src/core/services/restore.js';
import { createSoftware, withdrawSoftware } from '../../src/core/services/software.js';
import { openTestCore, ROOT_TOKEN, tempDir } from '../helpers.js';

describe('restore', () => {
  it('keeps record kinds, counting withdrawn records apart', async () => {
    const source = await openTestCore({}, true);
    const root = resolveCredential(source.config, `Bearer ${ROOT_TOKEN}`);
    await createSoftware(source, root, { name: 'kept' });
    const gone = await createSoftware(source, root, { name: 'withdrawn' });
    await withdrawSoftware(source, root, gone.id as string);
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
