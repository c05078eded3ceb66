import { afterEach, describe, expect, it } from 'vitest';
import type { Core } from '../../src/core/core.js';
import { openCore } from '../../src/core/core.js';
import { silentLogger } from '../../src/core/log.js';
import { memoised } from '../../src/core/stored/memoised.js';
import { createApp } from '../../src/http/app.js';
import { openTestCore, testConfig, waitFor } from '../helpers.js';
import { apiOf, artifact, type Json } from '../support/api.js';

/*
 * A commit of many records (an advertisement of dozens of artifacts) lists its records for the search index
 * instead of indexing their text inside the commit; their rows follow right after. Nothing may be lost on the
 * way: every artifact becomes findable, a refused advertisement lists nothing, and rows still listed when the
 * registry stops are indexed at the next start.
 */

const cores: Core[] = [];
afterEach(async () => {
  for (const core of cores.splice(0)) await core.close();
});

async function start(dataDir?: string) {
  const core =
    dataDir === undefined
      ? await openTestCore({}, true)
      : await openCore(testConfig({ REG_DATA_DIR: dataDir }), silentLogger);
  if (dataDir !== undefined) await core.graph.open();
  cores.push(core);
  return { core, app: createApp(core), api: apiOf(createApp(core)) };
}

const bulk = (n: number, word: string): Json[] =>
  Array.from({ length: n }, (_, i) =>
    artifact(`${word} table ${i}`, { description: `rows of ${word} ${i}` }),
  );

const hits = async (app: ReturnType<typeof createApp>, q: string): Promise<Json> => {
  const response = await app.request(`/api/v1/search?q=${encodeURIComponent(q)}&kind=artifact&limit=100`);
  expect(response.status).toBe(200);
  return (await response.json()) as Json;
};

const pending = (core: Core): number =>
  (core.db.prepare('SELECT count(*) AS n FROM search_pending').get() as { n: number }).n;

describe('search rows of large commits', () => {
  it('makes every artifact of a large advertisement findable once its rows follow the commit', async () => {
    const { core, app, api } = await start();
    const { token } = await api.deployment(undefined, 'bulk loader');
    const answer = await api.advertise(token, 'produced', 'bulk-1', bulk(40, 'quokka'), 201);
    expect(answer.artifacts).toHaveLength(40);
    // The run is listed too, and the records are taken in no particular order: wait until none is left.
    await waitFor(() => pending(core) === 0);
    const found = await hits(app, 'quokka table');
    expect(found.hits).toHaveLength(40);
    expect(found.partial).toBe(false);
    // One record's own description is found too: the whole text was indexed, not only the title.
    expect((await hits(app, 'rows of quokka 39')).hits.map((hit: Json) => hit.title)).toContain(
      'quokka table 39',
    );
  });

  it('lists nothing for a refused large advertisement', async () => {
    const { core, api } = await start();
    const { token } = await api.deployment(undefined, 'careless loader');
    const artifacts = bulk(40, 'wombat');
    artifacts[39] = { ...artifacts[39], conforms_to: 'not an iri' };
    await api.advertise(token, 'produced', 'bulk-2', artifacts, 422);
    expect(pending(core)).toBe(0);
  });

  it('indexes rows still listed when the registry stopped at its next start', async () => {
    const { core, api } = await start();
    const { token } = await api.deployment(undefined, 'interrupted loader');
    await api.advertise(token, 'produced', 'bulk-3', bulk(40, 'numbat'), 201);
    await waitFor(() => pending(core) === 0);
    // As if the registry had stopped before the rows followed: the rows are gone, the records still listed.
    core.db.exec(`INSERT INTO search_pending (graph, subject)
      SELECT graph, iri FROM search_entry WHERE title LIKE 'numbat table %'`);
    core.db.exec(`DELETE FROM search_entry WHERE title LIKE 'numbat table %'`);
    expect(pending(core)).toBe(40);
    const dataDir = core.config.dataDir;
    await core.close();
    cores.splice(cores.indexOf(core), 1);
    const again = await start(dataDir);
    await waitFor(() => pending(again.core) === 0);
    expect((await hits(again.app, 'numbat table')).hits).toHaveLength(40);
  });
});

describe('reads under way', () => {
  it('callers asking for the same read before anything was committed share one computation', async () => {
    const { core, api } = await start();
    let reads = 0;
    const read = async () => {
      reads++;
      await new Promise((resolve) => setTimeout(resolve, 20));
      return { value: reads };
    };
    const [a, b, c] = await Promise.all([
      memoised(core, 'shared read', read),
      memoised(core, 'shared read', read),
      memoised(core, 'shared read', read),
    ]);
    expect(reads).toBe(1);
    expect(a).toBe(b);
    expect(b).toBe(c);
    // A commit makes the next read a new one.
    await api.call('POST', '/api/v1/software', 201, { name: 'a write between reads' });
    await memoised(core, 'shared read', read);
    expect(reads).toBe(2);
  });
});
