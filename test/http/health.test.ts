import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/core/core.js';
import { probeDue } from '../../src/core/catalogue/health-probe.js';
import { listAudit } from '../../src/core/store/audit.js';
import { lineageIndexReady, markLineageStale } from '../../src/core/store/lineage/lineage-index.js';
import { createApp } from '../../src/http/app.js';
import { freePort, openTestCore } from '../helpers.js';
import { apiOf, type Json } from '../support/api.js';
import { startFakeServer, startStatusServer, type FakeServer } from '../support/peers.js';

/*
 * Health probes of deployments against loopback servers that answer 200, 404 and 500, one that never answers,
 * and a closed port; the verdicts are read back through the API.
 */

let core: Core;
let api: ReturnType<typeof apiOf>;
let servers: FakeServer[] = [];
let ok: FakeServer;
let missing: FakeServer;
let failing: FakeServer;
let hanging: FakeServer;

beforeAll(async () => {
  [ok, missing, failing] = await Promise.all([
    startStatusServer(200),
    startStatusServer(404),
    startStatusServer(500),
  ]);
  hanging = await startFakeServer(() => undefined);
  servers = [ok, missing, failing, hanging];
});

afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()));
});

// Which deployments are due is read from the lineage index, or by a query while that index is being filled.
describe.each([
  ['the lineage index', false],
  ['the query index', true],
])('health probes, finding what is due in %s', (_, stale) => {
  beforeAll(async () => {
    core = await openTestCore({ REG_HEALTH_CHECK_TIMEOUT: '400ms', REG_HEALTH_CHECK_INTERVAL: '5m' }, true);
    api = apiOf(createApp(core));
    if (stale) core.db.transaction(() => markLineageStale(core.db, core.graph.kind));
    expect(lineageIndexReady(core.db)).toBe(!stale);
  });

  afterAll(async () => {
    await core.close();
  });

  it('probe endpoints on schedule and write up, down and unknown with a detail', async () => {
    const software = await api.call('POST', '/api/v1/software', 201, { name: 'probed service' });
    const closed = `http://127.0.0.1:${await freePort()}/`;
    const deploy = (label: string, fields: Json) =>
      api.call('POST', '/api/v1/instances', 201, { software: software.iri, label, ...fields });
    const cases = {
      healthy: await deploy('healthy', {
        endpoint_url: `${missing.url}/`,
        health_endpoint: `${ok.url}/health`,
      }),
      'health 404': await deploy('health 404', {
        endpoint_url: `${ok.url}/`,
        health_endpoint: `${missing.url}/health`,
      }),
      'root 404': await deploy('root 404', { endpoint_url: `${missing.url}/` }),
      'root 500': await deploy('root 500', { endpoint_url: `${failing.url}/` }),
      closed: await deploy('closed', { endpoint_url: closed }),
      hanging: await deploy('hanging', { endpoint_url: `${hanging.url}/` }),
      quiet: await deploy('quiet', {}),
    };
    // Callers cannot write health: it is a registry field.
    await api.call('PATCH', `/api/v1/instances/${cases.quiet.id}`, 200, {
      health: 'up',
      health_detail: 'trust me',
    });

    const now = new Date();
    const pass = await probeDue(core, now);
    expect(pass).toEqual({ probed: 6, up: 2, down: 4, cleared: 0 });
    const read = async (name: keyof typeof cases) =>
      api.call('GET', `/api/v1/instances/${cases[name].id}`, 200);
    const expected: Record<keyof typeof cases, [string, string | undefined]> = {
      healthy: ['up', 'responded 200'],
      'health 404': ['down', 'health endpoint responded 404, and a health endpoint must answer 2xx'],
      'root 404': ['up', 'responded 404 at the endpoint root — listening, so counted as up'],
      'root 500': ['down', 'responded 500, a server error'],
      closed: ['down', 'could not connect'],
      hanging: ['down', 'did not answer in time'],
      quiet: ['unknown', undefined],
    };
    for (const [name, [health, detail]] of Object.entries(expected)) {
      const record = await read(name as keyof typeof cases);
      expect({ name, health: record.health, detail: record.health_detail }).toEqual({ name, health, detail });
      if (health === 'unknown') expect(record.health_checked_at).toBeUndefined();
      else expect(record.health_checked_at).toBe(now.toISOString());
    }
    // The health endpoint is what is probed when there is one, never the endpoint itself.
    expect(ok.requests).toContain('/health');

    const up = await api.call('GET', '/api/v1/instances?health=up', 200);
    expect(up.items.map((item: Json) => item.label).sort()).toEqual(['healthy', 'root 404']);
    expect((await api.call('GET', '/api/v1/instances?health=down', 200)).total).toBe(4);
    expect(
      (await api.call('GET', '/api/v1/instances?health=unknown', 200)).items.map((i: Json) => i.label),
    ).toEqual(['quiet']);
    await api.call('GET', '/api/v1/instances?health=sideways', 400);

    // Transitions are audited, not every probe.
    const audited = listAudit(core.db, { limit: 20, action: 'instance.health' });
    expect(audited).toHaveLength(6);
    expect(audited.map((entry) => entry.detail)).toContain('unknown → up: responded 200');
    expect(audited[0]).toMatchObject({ actor: 'urn:reg:health-probe', actor_kind: 'system' });

    // Nothing is due again within the interval; after it, all six are probed again, with no new transitions.
    expect((await probeDue(core, new Date(now.getTime() + 60_000))).probed).toBe(0);
    const later = await probeDue(core, new Date(now.getTime() + 5 * 60_000 + 1));
    expect(later.probed).toBe(6);
    expect(listAudit(core.db, { limit: 20, action: 'instance.health' })).toHaveLength(6);

    // An endpoint removed by an edit takes the old verdict with it.
    await api.call('PATCH', `/api/v1/instances/${cases['root 500'].id}`, 200, { endpoint_url: null });
    expect((await probeDue(core, new Date(now.getTime() + 10 * 60_000))).cleared).toBe(1);
    const cleared = await read('root 500');
    expect(cleared).toMatchObject({
      health: 'unknown',
      health_detail: 'not probed: no endpoint_url or health_endpoint',
    });
    expect(cleared.health_checked_at).toBeUndefined();
  });
});
