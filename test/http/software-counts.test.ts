/**
 * A software's counts (deployments, releases, the newest release, runs of the last 30 days) come from the lineage
 * index in registry.db: the same as the query index gives, filled again at a start when emptied, and answered
 * before the query index has loaded.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/core/core.js';
import { createApp } from '../../src/http/app.js';
import { openTestCore } from '../helpers.js';
import { apiOf, type Json } from '../support/api.js';
import { completeRunEvent } from '../support/openlineage.js';
import { lineageIndexReady, markLineageStale } from '../../src/core/store/lineage/lineage-index.js';

let core: Core;
let app: ReturnType<typeof createApp>;
let api: ReturnType<typeof apiOf>;
let busy: Json;
let quiet: Json;
let bare: Json;

const DAY = 86_400_000;
const COUNTED = ['instance_count', 'release_count', 'runs_30d', 'latest_release'] as const;

/** The counts of each software, read one by one and as a list page, and its releases. */
async function counts(): Promise<unknown[]> {
  const out: unknown[] = [];
  for (const software of [busy, quiet, bare]) {
    const read = await api.call('GET', `/api/v1/software/${software.id}`, 200);
    out.push(Object.fromEntries(COUNTED.map((name) => [name, read[name]])));
  }
  for (const software of [busy, quiet, bare]) {
    const releases = await api.call('GET', `/api/v1/software/${software.id}/releases`, 200);
    out.push([releases.total, ...(releases.items as Json[]).map((release) => release.version)]);
  }
  const page = await api.call('GET', '/api/v1/software?limit=200', 200);
  for (const item of page.items as Json[])
    out.push([item.id, ...COUNTED.map((name) => JSON.stringify(item[name]))]);
  return out;
}

/** Commits something unrelated, so no answer memoised before it is given again. */
const touch = () => api.call('POST', '/api/v1/software', 201, { name: `touch ${Date.now()}` });

async function openOn(dataDir: string, waitForQueryIndex: boolean): Promise<void> {
  core = await openTestCore({ REG_DATA_DIR: dataDir }, waitForQueryIndex);
  app = createApp(core);
  api = apiOf(app);
}

beforeAll(async () => {
  core = await openTestCore({}, true);
  app = createApp(core);
  api = apiOf(app);
  busy = await api.call('POST', '/api/v1/software', 201, { name: 'busy' });
  quiet = await api.call('POST', '/api/v1/software', 201, { name: 'quiet' });
  bare = await api.call('POST', '/api/v1/software', 201, { name: 'bare' });
  const release = (software: Json, body: Json) =>
    api.call('POST', `/api/v1/software/${software.id}/releases`, 201, body);
  await release(busy, { version: '1.0.0', date_published: '2026-01-01' });
  const second = await release(busy, { version: '2.0.0', date_published: '2026-02-01' });
  // Without a date it is not the newest (a release with no date sorts before every dated one).
  await release(busy, { version: '3.0.0-rc1' });
  await release(quiet, { version: '0.1.0' });
  const first = await api.deployment(busy, 'first');
  const second_ = await api.deployment(busy, 'second');
  await api.deployment(quiet, 'only');
  const now = Date.now();
  for (const [token, daysAgo, job] of [
    [first.token, 1, 'recent'],
    [first.token, 3, 'recent too'],
    [second_.token, 2, 'recent elsewhere'],
    [first.token, 45, 'old'],
  ] as const) {
    const event = completeRunEvent(job, new Date(now - daysAgo * DAY).toISOString(), [], []);
    await api.call('POST', '/api/v1/lineage', 202, event, token);
  }
  // Withdrawn records are not counted: the newest release and one deployment.
  await api.call('DELETE', `/api/v1/software/${busy.id}/releases/${second.id}`, 204);
  await api.call('DELETE', `/api/v1/instances/${second_.instance.id}`, 204);
});
afterAll(async () => core.close());

describe('software counts', () => {
  it('are read from the lineage index as the query index gives them, and filled again at a start', async () => {
    expect(lineageIndexReady(core.db)).toBe(true);
    const fromIndex = await counts();
    expect(fromIndex.slice(0, 3)).toEqual([
      {
        instance_count: 1,
        release_count: 2,
        // A withdrawn deployment's runs still count: they were runs of the software's deployments.
        runs_30d: 3,
        latest_release: expect.objectContaining({ version: '1.0.0', date_published: '2026-01-01' }),
      },
      {
        instance_count: 1,
        release_count: 1,
        runs_30d: 0,
        latest_release: expect.objectContaining({ version: '0.1.0' }),
      },
      { instance_count: 0, release_count: 0, runs_30d: 0, latest_release: undefined },
    ]);
    // Releases newest first (by IRI, minted in time order), the withdrawn one left out.
    expect(fromIndex.slice(3, 6)).toEqual([[2, '3.0.0-rc1', '1.0.0'], [1, '0.1.0'], [0]]);

    // Emptied, as in a database from before it: the query index answers, the same.
    core.db.transaction(() => markLineageStale(core.db, core.graph.kind));
    expect(lineageIndexReady(core.db)).toBe(false);
    await touch();
    const fromQueries = await counts();
    expect(fromQueries.slice(0, 6)).toEqual(fromIndex.slice(0, 6));
    const touched = fromQueries.length - fromIndex.length;
    expect(fromQueries.slice(6 + touched)).toEqual(fromIndex.slice(6));

    // The next start fills it from the records, and the counts are read from it again.
    const dataDir = core.config.dataDir;
    await core.close();
    await openOn(dataDir, true);
    for (let waited = 0; !lineageIndexReady(core.db); waited++) {
      expect(waited).toBeLessThan(500);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(await counts()).toEqual(fromQueries);
  });

  it('are given before the query index is loaded, as are the releases', async () => {
    const expected = await api.call('GET', `/api/v1/software/${busy.id}`, 200);
    const releases = await api.call('GET', `/api/v1/software/${busy.id}/releases`, 200);
    const dataDir = core.config.dataDir;
    await core.close();
    await openOn(dataDir, false);
    if (core.graph.kind === 'embedded') expect(core.graph.ready).toBe(false);
    const early = await api.call('GET', `/api/v1/software/${busy.id}`, 200);
    expect(Object.fromEntries(COUNTED.map((name) => [name, early[name]]))).toEqual(
      Object.fromEntries(COUNTED.map((name) => [name, expected[name]])),
    );
    expect(early.release_count).toBe(2);
    expect(await api.call('GET', `/api/v1/software/${busy.id}/releases`, 200)).toEqual(releases);
  });
});
