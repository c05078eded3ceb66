/**
 * The external store's read cache: a record read again without a write in between costs no request, and a write,
 * committed or undone, is seen by the next read.
 */
import { describe, expect, it } from 'vitest';
import type { Core } from '../../src/core/core.js';
import { GRAPHS } from '../../src/core/ns.js';
import type { ExternalGraphStore } from '../../src/core/store/graph/external/external.js';
import { openExternalCoreForFile } from '../support/external-core.js';
import { nameOnlyWrite } from '../support/stored-records.js';

let core: Core;
openExternalCoreForFile((opened) => (core = opened));
const queries = () => (core.graph as ExternalGraphStore).client.sent.queries;

const write = nameOnlyWrite;

/** The record's text and the queries its read sent. */
async function read(subject: string): Promise<{ text: string | undefined; queries: number }> {
  const before = queries();
  const text = await core.graph.readRecord(GRAPHS.local, subject);
  return { text, queries: queries() - before };
}

describe('the external store read cache', () => {
  const subject = 'http://registry.test/software/cached';

  it('answers a record read again from the cache, and a written one from the server', async () => {
    await core.graph.commit([write(subject, 'First')], () => undefined);
    const first = await read(subject);
    expect(first).toMatchObject({ queries: 1 });
    expect(first.text).toContain('"First"');
    expect(await read(subject)).toEqual({ text: first.text, queries: 0 });
    // A commit of other records leaves it kept.
    await core.graph.commit([write(`${subject}-other`, 'Other')], () => undefined);
    expect(await read(subject)).toEqual({ text: first.text, queries: 0 });
    await core.graph.commit([write(subject, 'Second')], () => undefined);
    const second = await read(subject);
    expect(second.queries).toBe(1);
    expect(second.text).toContain('"Second"');
    expect(second.text).not.toContain('"First"');
    expect(await read(subject)).toEqual({ text: second.text, queries: 0 });
  });

  it('keeps no read made while a commit that fails writes the record, and reads it again after the undo', async () => {
    const kept = (await read(subject)).text;
    expect(kept).toContain('"Second"');
    // A read made right after the server took the update, before the registry records the commit (which fails).
    const client = (core.graph as ExternalGraphStore).client;
    const update = client.update.bind(client);
    let during: string | undefined;
    client.update = async (...args: Parameters<typeof update>) => {
      await update(...args);
      client.update = update;
      during = await core.graph.readRecord(GRAPHS.local, subject);
    };
    try {
      await expect(
        core.graph.commit([write(subject, 'Undone')], () => {
          throw new Error('the act fails');
        }),
      ).rejects.toThrow('the act fails');
    } finally {
      client.update = update;
    }
    // The read saw the server's new lines for a moment; after the undo they are gone, and so is that read.
    expect(during).toContain('"Undone"');
    const after = await read(subject);
    expect(after).toEqual({ text: kept, queries: 1 });
    expect(await read(subject)).toEqual({ text: kept, queries: 0 });
  });
});
