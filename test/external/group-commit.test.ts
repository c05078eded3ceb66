/**
 * Group commit on the external store: acts that arrive while one commits go together, as one request,
 * and an act that fails in a group fails alone.
 */
import { describe, expect, it } from 'vitest';
import type { Core } from '../../src/core/core.js';
import { GRAPHS, SCHEMA } from '../../src/core/ns.js';
import type { ExternalGraphStore } from '../../src/core/store/graph/external/external.js';
import { openExternalCoreForFile } from '../support/external-core.js';
import { nameOnlyWrite } from '../support/stored-records.js';

let core: Core;
openExternalCoreForFile((opened) => (core = opened));
const sent = () => ({ ...(core.graph as ExternalGraphStore).client.sent });

const write = nameOnlyWrite;

/** What the server itself holds as the name of a subject. */
async function nameOnServer(subject: string): Promise<string | undefined> {
  const rows = await core.graph.select(
    `SELECT ?n WHERE { GRAPH <${GRAPHS.local}> { <${subject}> <${SCHEMA('name')}> ?n } }`,
  );
  return rows[0]?.n?.value;
}

describe('group commit on the external store', () => {
  it('sends acts that arrive together as one request, each with its own result', async () => {
    const before = sent();
    const subjects = Array.from({ length: 12 }, (_, i) => `http://registry.test/software/group-${i}`);
    const acts = subjects.map((subject, i) => core.graph.commit([write(subject, `Member ${i}`)], () => i));
    expect(await Promise.all(acts)).toEqual(subjects.map((_, i) => i));
    // New records only: their lines go as one Graph Store Protocol POST.
    const after = sent();
    expect([after.updates - before.updates, after.graphPosts - before.graphPosts]).toEqual([0, 1]);
    for (const [i, subject] of subjects.entries()) {
      expect(await core.graph.readRecord(GRAPHS.local, subject)).toContain(`"Member ${i}"`);
      expect(await nameOnServer(subject)).toBe(`Member ${i}`);
    }
    // An act that arrives while a group commits waits for it, then goes in the next group.
    const first = core.graph.commit([write(subjects[0]!, 'Renamed')], () => 'first');
    await new Promise((resolve) => setTimeout(resolve, 0));
    const later = core.graph.commit([write(subjects[1]!, 'Renamed too')], () => 'later');
    expect([await first, await later]).toEqual(['first', 'later']);
    expect(await nameOnServer(subjects[0]!)).toBe('Renamed');
    expect(await nameOnServer(subjects[1]!)).toBe('Renamed too');
  });

  it('fails only the act whose work failed; the others of its group are committed', async () => {
    const good = ['http://registry.test/software/kept-1', 'http://registry.test/software/kept-2'];
    const bad = 'http://registry.test/software/refused-in-group';
    const first = core.graph.commit([write(good[0]!, 'Kept one')], () => 'one');
    const failing = core.graph.commit([write(bad, 'Refused')], () => {
      throw new Error('the operational rows of this act failed');
    });
    const second = core.graph.commit([write(good[1]!, 'Kept two')], () => 'two');
    await expect(failing).rejects.toThrow('the operational rows of this act failed');
    expect(await first).toBe('one');
    expect(await second).toBe('two');
    expect(await core.graph.readRecord(GRAPHS.local, bad)).toBeUndefined();
    expect(await nameOnServer(bad)).toBeUndefined();
    expect(await nameOnServer(good[0]!)).toBe('Kept one');
    expect(await nameOnServer(good[1]!)).toBe('Kept two');
    expect((core.db.prepare('SELECT count(*) AS n FROM external_intent').get() as { n: number }).n).toBe(0);
  });

  it('keeps the last of several writes of one record in a group', async () => {
    const subject = 'http://registry.test/software/written-thrice';
    const acts = ['First', 'Second', 'Third'].map((name) =>
      core.graph.commit([write(subject, name)], () => name),
    );
    expect(await Promise.all(acts)).toEqual(['First', 'Second', 'Third']);
    expect(await nameOnServer(subject)).toBe('Third');
    expect(await core.graph.readRecord(GRAPHS.local, subject)).toContain('"Third"');
  });
});
