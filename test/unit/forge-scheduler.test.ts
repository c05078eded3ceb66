import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT_PRINCIPAL } from '../../src/core/access/principal.js';
import type { Core } from '../../src/core/core.js';
import { ForgePacer } from '../../src/core/forge/pacer.js';
import { createSoftware, getSoftware } from '../../src/core/catalogue/software.js';
import { ForgeScheduler } from '../../src/core/workers/forge-scheduler.js';
import { openTestCore, waitFor } from '../helpers.js';
import { startFakeForge, type FakeForge } from '../support/fake-forge.js';
import { actOf } from '../../src/core/stored/write-path.js';

/*
 * The scheduled sync on a real core, against the fake forge, with a clock and a sleeper the test controls:
 * pacing between requests, next-due times, waiting out a rate limit, and a prompt stop.
 */

let forge: FakeForge;
let core: Core;
let clock = new Date();
const HOUR = 3_600_000;

beforeAll(async () => {
  forge = await startFakeForge();
  core = await openTestCore(
    {
      REG_FORGE_GITHUB_API: forge.githubApi,
      REG_FORGE_GITLAB_API: forge.gitlabApi,
      REG_FORGE_POLL_INTERVAL: '24h',
    },
    true,
  );
});
afterAll(async () => {
  await core?.close();
  await forge?.stop();
});

async function connect(repo: string, enabled = true): Promise<string> {
  forge.github.set(repo, { repo: { description: `About ${repo}` } });
  const record = await createSoftware(core, actOf(ROOT_PRINCIPAL), {
    name: repo,
    sync: { source: 'github', repo, fields: ['tagline'], enabled },
  });
  return record.id as string;
}

const syncOf = async (id: string) => (await getSoftware(core, id)).sync as Record<string, unknown>;

describe('ForgePacer', () => {
  it('spaces requests 2 s apart with a token and 120 s without, per forge', async () => {
    const now = new Date(0);
    const waits: number[] = [];
    const pacer = new ForgePacer(
      () => now,
      (ms) => {
        waits.push(ms);
        return Promise.resolve();
      },
    );
    await pacer.pace('https://api.github.com', true);
    await pacer.pace('https://api.github.com', true);
    await pacer.pace('https://gitlab.com/api/v4', false);
    await pacer.pace('https://gitlab.com/api/v4', false);
    expect(waits).toEqual([2_000, 120_000]);
  });
});

describe('ForgeScheduler', () => {
  it('syncs due records with paced requests, waits out a rate limit, and stops promptly', async () => {
    const first = await connect('acme/one');
    const second = await connect('acme/two');
    const paused = await connect('acme/paused', false);
    const waits: number[] = [];
    const scheduler = new ForgeScheduler(core, {
      now: () => clock,
      sleep: (ms) => {
        waits.push(ms);
        return Promise.resolve();
      },
    });

    // Never synced: both enabled records are due; anonymous requests are 120 s apart.
    let before = forge.requests.length;
    expect(await scheduler.tick()).toBe(2);
    expect(forge.requests.length - before).toBe(2);
    expect(waits).toEqual([120_000]);
    expect(await syncOf(first)).toMatchObject({ last_status: 'ok', last_changed: ['tagline'] });
    expect(await syncOf(second)).toMatchObject({ last_status: 'ok' });
    expect(await syncOf(paused)).toMatchObject({ last_status: 'never', enabled: false });

    // Synced a moment ago: nothing is due until the poll interval has passed.
    before = forge.requests.length;
    expect(await scheduler.tick()).toBe(0);
    expect(forge.requests.length).toBe(before);

    // A day later the forge answers with a rate limit: the first record reports it, the second is not tried.
    clock = new Date(clock.getTime() + 24 * HOUR + 1000);
    const reset = Math.floor((clock.getTime() + HOUR) / 1000);
    forge.limit = {
      status: 403,
      headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(reset) },
    };
    before = forge.requests.length;
    expect(await scheduler.tick()).toBe(1);
    expect(forge.requests.length - before).toBe(1);
    const limited = [await syncOf(first), await syncOf(second)].find((s) => s.last_status === 'error');
    expect(limited?.last_error).toMatch(/GitHub rate limit reached/);
    forge.limit = undefined;

    // Until the reset the scheduler sends nothing.
    clock = new Date(clock.getTime() + HOUR / 2);
    before = forge.requests.length;
    expect(await scheduler.tick()).toBe(0);
    expect(forge.requests.length).toBe(before);

    // After it, both are synced again.
    clock = new Date(reset * 1000 + 1000);
    expect(await scheduler.tick()).toBe(2);
    expect(await syncOf(first)).toMatchObject({ last_status: 'ok' });
    expect(await syncOf(second)).toMatchObject({ last_status: 'ok' });

    // Stopping aborts the 120 s wait between two requests at once; the run it interrupted records nothing.
    clock = new Date(clock.getTime() + 25 * HOUR);
    const live = new ForgeScheduler(core, { now: () => clock, firstPassMs: 0 });
    const states = [await syncOf(first), await syncOf(second)];
    before = forge.requests.length;
    live.start();
    // The first run is recorded; the second waits 120 s before its request.
    await waitFor(async () => {
      const now = [await syncOf(first), await syncOf(second)];
      return now.some((s, at) => s.last_synced_at !== states[at]!.last_synced_at);
    }, 10_000);
    const started = Date.now();
    await live.stop();
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(forge.requests.length - before).toBe(1);
    const after = [await syncOf(first), await syncOf(second)];
    expect(after.filter((s, at) => s.last_synced_at !== states[at]!.last_synced_at).length).toBe(1);
  });
});
