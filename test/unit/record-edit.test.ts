import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT_PRINCIPAL } from '../../src/core/access/principal.js';
import type { Core } from '../../src/core/core.js';
import { SOFTWARE } from '../../src/core/records/specs.js';
import { underCondition } from '../../src/core/stored/record-version.js';
import { patchRecord, requireStored, type StoredRecord } from '../../src/core/stored/records.js';
import { createSoftware } from '../../src/core/catalogue/software.js';
import { actOf, writeRecord } from '../../src/core/stored/write-path.js';
import { openTestCore } from '../helpers.js';

// A writer that does not take the record's edit lock (as a forge sync or a health probe) may commit between an
// edit's read and its commit. The embedded store's record versions catch that inside the commit: an edit without
// If-Match is rebuilt on the newer record, one with If-Match is refused. (An external store keeps no record
// versions; there the lock alone orders the edits, so these cases are the embedded store's.)
let core: Core;

beforeAll(async () => {
  core = await openTestCore({}, true);
});
afterAll(async () => core.close());

async function storedSoftware(name: string): Promise<StoredRecord> {
  const created = await createSoftware(core, actOf(ROOT_PRINCIPAL), { name });
  return requireStored(core, SOFTWARE, created.iri as string);
}

/** Code rules that, the first time they run (after the edit read the record), let another writer change it. */
function interloper(stored: StoredRecord): () => Promise<[]> {
  let done = false;
  return async () => {
    if (!done) {
      done = true;
      await writeRecord(core, {
        spec: SOFTWARE,
        iri: stored.iri,
        candidate: { ...stored.json, tagline: 'written meanwhile' },
        action: 'software.sync',
        act: actOf(ROOT_PRINCIPAL),
        validate: false,
      });
    }
    return [];
  };
}

const edit = (stored: StoredRecord, codeRules: () => Promise<[]>) =>
  patchRecord(
    core,
    SOFTWARE,
    stored,
    { description: 'the edit' },
    {},
    {
      act: actOf(ROOT_PRINCIPAL),
      action: 'software.update',
      codeRules,
    },
  );

describe.skipIf(process.env.REG_TEST_GRAPH === 'sparql')('an edit racing a writer outside its lock', () => {
  it('without If-Match, is made again on the newer record, so both changes stay', async () => {
    const stored = await storedSoftware('raced');
    await edit(stored, interloper(stored));
    const now = await requireStored(core, SOFTWARE, stored.iri);
    expect(now.json).toMatchObject({ tagline: 'written meanwhile', description: 'the edit' });
  });

  it('with If-Match naming the version it read, is refused with 412 and the other change stays', async () => {
    const stored = await storedSoftware('raced conditionally');
    const condition = {
      iri: stored.iri,
      expected: [{ weak: false, opaque: stored.version }],
      checked: false,
    };
    await expect(underCondition(condition, () => edit(stored, interloper(stored)))).rejects.toMatchObject({
      code: 'precondition-failed',
      status: 412,
    });
    const now = await requireStored(core, SOFTWARE, stored.iri);
    expect(now.json.tagline).toBe('written meanwhile');
    expect(now.json.description).toBeUndefined();
  });
});
