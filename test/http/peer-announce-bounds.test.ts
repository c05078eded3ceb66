import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Core } from '../../src/core/core.js';
import { clientNetwork } from '../../src/core/net/client-network.js';
import { ANNOUNCE_BOUNDS } from '../../src/core/federation/peer-announce.js';
import { MAX_SUGGESTIONS } from '../../src/core/federation/peers.js';
import { createApp } from '../../src/http/app.js';
import { apiOf, type Json } from '../support/api.js';
import { openTestCore } from '../helpers.js';

// Anyone may announce a registry, so announcements are bounded: per announcer (an address, an IPv6 /64), per
// host of the announced base IRI, and in time; and a newer announcement makes way for itself, so junk cannot
// keep a real registry out of the review queue.
type App = ReturnType<typeof createApp>;

async function openRegistry(settings: Record<string, string> = {}): Promise<{ core: Core; app: App }> {
  const core = await openTestCore(settings, true);
  return { core, app: createApp(core) };
}

/** Announces `base` anonymously over a connection from `address`, as the Node server hands requests over. */
async function announce(app: App, base: string, address: string, forwardedFor?: string): Promise<Json> {
  const response = await app.request(
    '/api/v1/peers/announce',
    {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor }),
      },
      body: JSON.stringify({ base_iri: base }),
    },
    { incoming: { socket: { remoteAddress: address } } },
  );
  expect(response.status).toBe(200);
  return (await response.json()) as Json;
}

async function suggested(app: App): Promise<string[]> {
  const listed = await apiOf(app).call('GET', '/api/v1/peers/suggested', 200);
  return (listed.items as Json[]).map((item) => item.base_iri as string);
}

describe('announcements from one announcer', () => {
  let core: Core;
  let app: App;
  beforeAll(async () => ({ core, app } = await openRegistry()));
  afterAll(async () => core.close());

  it('hold at most its bound; each newer one makes way for itself', async () => {
    const junk = Array.from({ length: 25 }, (_, n) => `https://junk-${n}.example`);
    for (const base of junk) expect((await announce(app, base, '203.0.113.66')).accepted).toBe(true);
    const held = await suggested(app);
    expect(held.sort()).toEqual(junk.slice(-ANNOUNCE_BOUNDS.perAnnouncer).sort());
  });

  it('count an IPv6 /64 as one announcer', async () => {
    for (let n = 0; n < 12; n++)
      await announce(app, `https://v6-${n}.example`, `2001:db8:7:7::${(n + 1).toString(16)}`);
    const held = (await suggested(app)).filter((base) => base.includes('v6-'));
    expect(held).toHaveLength(ANNOUNCE_BOUNDS.perAnnouncer);
    expect(clientNetwork('2001:db8:7:7:1:2:3:4')).toBe('2001:db8:7:7::/64');
    expect(clientNetwork('::ffff:198.51.100.7')).toBe('198.51.100.7');
  });
});

describe('a full review queue', () => {
  let core: Core;
  let app: App;
  beforeAll(async () => ({ core, app } = await openRegistry()));
  afterAll(async () => core.close());

  it('still takes a legitimate announcement: the busiest announcer makes way', async () => {
    const announcers = MAX_SUGGESTIONS / ANNOUNCE_BOUNDS.perAnnouncer;
    for (let a = 0; a < announcers; a++)
      for (let n = 0; n < ANNOUNCE_BOUNDS.perAnnouncer; n++)
        await announce(app, `https://flood-${a}-${n}.example`, `198.51.${Math.floor(a / 200)}.${a % 200}`);
    expect(await suggested(app)).toHaveLength(MAX_SUGGESTIONS);

    const answer = await announce(app, 'https://registry.university.example', '192.0.2.10');
    expect(answer).toEqual({ accepted: true, state: 'suggested', note: 'queued for admin review' });
    const held = await suggested(app);
    expect(held).toHaveLength(MAX_SUGGESTIONS);
    expect(held).toContain('https://registry.university.example');
  });
});

describe('announcements of one host', () => {
  let core: Core;
  let app: App;
  beforeAll(async () => ({ core, app } = await openRegistry()));
  afterAll(async () => core.close());

  it('hold at most its bound, whoever announced them; the newest stay', async () => {
    const bases = ['a', 'b', 'c', 'd', 'e'].map((path) => `https://shared.example/${path}`);
    for (const [n, base] of bases.entries()) await announce(app, base, `192.0.2.${n + 20}`);
    expect((await suggested(app)).sort()).toEqual(bases.slice(-ANNOUNCE_BOUNDS.perHost).sort());
  });
});

describe('unreviewed suggestions', () => {
  let core: Core;
  let app: App;
  beforeAll(async () => ({ core, app } = await openRegistry()));
  afterAll(async () => core.close());
  afterEach(() => vi.useRealTimers());

  it('are forgotten once they have waited longer than the expiry', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() - (ANNOUNCE_BOUNDS.ttlDays + 1) * 86_400_000);
    await announce(app, 'https://long-ago.example', '192.0.2.30');
    vi.useRealTimers();
    await announce(app, 'https://recently.example', '192.0.2.31');
    expect(await suggested(app)).toEqual(['https://recently.example']);
    // Forgotten, it may be announced again.
    expect((await announce(app, 'https://long-ago.example', '192.0.2.30')).note).toBe(
      'queued for admin review',
    );
  });
});

describe('announcers behind a trusted proxy', () => {
  let core: Core;
  let app: App;
  beforeAll(async () => ({ core, app } = await openRegistry({ REG_TRUSTED_PROXIES: '10.0.0.5' })));
  afterAll(async () => core.close());

  it('are told apart by X-Forwarded-For, which is not believed from anyone else', async () => {
    const count = ANNOUNCE_BOUNDS.perAnnouncer + 2;
    for (let n = 0; n < count; n++)
      await announce(app, `https://proxied-${n}.example`, '10.0.0.5', `1.2.3.4, 198.51.100.${n + 1}`);
    for (let n = 0; n < count; n++)
      await announce(app, `https://direct-${n}.example`, '203.0.113.9', `198.51.100.${n + 1}`);
    const held = await suggested(app);
    expect(held.filter((base) => base.includes('proxied-'))).toHaveLength(count);
    expect(held.filter((base) => base.includes('direct-'))).toHaveLength(ANNOUNCE_BOUNDS.perAnnouncer);
  });
});
