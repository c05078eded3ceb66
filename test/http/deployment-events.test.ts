import { readdirSync, readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/core/core.js';
import { lineageIndexReady, markLineageStale } from '../../src/core/store/lineage/lineage-index.js';
import { listAudit } from '../../src/core/store/audit.js';
import { createApp } from '../../src/http/app.js';
import { openTestCore, ROOT_TOKEN } from '../helpers.js';
import { apiOf, type Json } from '../support/api.js';

let core: Core;
let app: ReturnType<typeof createApp>;
let api: ReturnType<typeof apiOf>;

const FIXTURES = new URL('../fixtures/cdevents/', import.meta.url);
/** Every genuine CDEvents example, by version directory and file name. */
const fixtures = ['v0.4', 'v0.5'].flatMap((version) =>
  readdirSync(new URL(`${version}/`, FIXTURES))
    .filter((name) => name.endsWith('.json'))
    .map((name) => ({
      name: `${version}/${name}`,
      event: JSON.parse(readFileSync(new URL(`${version}/${name}`, FIXTURES), 'utf8')) as Json,
    })),
);

const DIGEST_1 = `sha256:${'1'.repeat(64)}`;
const DIGEST_2 = `sha256:${'2'.repeat(64)}`;
const DIGEST_3 = `sha256:${'3'.repeat(64)}`;
const image = (digest: string, tag?: string) =>
  `pkg:oci/shop@${digest.replace(':', '%3A')}?repository_url=ghcr.io/example/shop${tag === undefined ? '' : `&tag=${tag}`}`;

let sequence = 0;
/** A CDEvent of `kind` (service.deployed, …) about environment `environment`, at `timestamp`. */
function cdevent(
  kind: string,
  content: Json,
  options: { id?: string; timestamp?: string; subject?: string } = {},
) {
  sequence += 1;
  return {
    context: {
      specversion: '0.5.1',
      id: options.id ?? `event-${sequence}`,
      source: '/ci/deployer',
      type: `dev.cdevents.${kind}.0.3.0`,
      timestamp: options.timestamp ?? new Date(Date.UTC(2026, 0, 1, 0, 0, sequence)).toISOString(),
    },
    subject: { id: options.subject ?? 'shop', content },
  };
}

type Mode = 'cdevent' | 'structured' | 'binary';

/** Sends a CDEvent in one of the three ways the route reads. */
function send(event: Json, token: string | null, mode: Mode = 'cdevent', query = '') {
  const auth = token === null ? {} : { authorization: `Bearer ${token}` };
  const context = event.context as Json;
  if (mode === 'binary') {
    return app.request(`/api/v1/deployment-events${query}`, {
      method: 'POST',
      headers: {
        ...auth,
        'content-type': 'application/json',
        'ce-specversion': '1.0',
        'ce-id': String(context.id),
        'ce-source': String(context.source),
        'ce-type': String(context.type),
        'ce-time': String(context.timestamp),
      },
      body: JSON.stringify(event),
    });
  }
  const body =
    mode === 'structured'
      ? {
          specversion: '1.0',
          id: context.id,
          source: context.source,
          type: context.type,
          time: context.timestamp,
          datacontenttype: 'application/json',
          data: event,
        }
      : event;
  return app.request(`/api/v1/deployment-events${query}`, {
    method: 'POST',
    headers: {
      ...auth,
      'content-type': mode === 'structured' ? 'application/cloudevents+json' : 'application/json',
    },
    body: JSON.stringify(body),
  });
}

async function post(event: Json, token: string | null, status: number, mode: Mode = 'cdevent', query = '') {
  return api.expectStatus(await send(event, token, mode, query), status);
}

const history = (instance: Json) => api.call('GET', `/api/v1/instances/${instance.id}/history`, 200);
const instanceOf = (instance: Json) => api.call('GET', `/api/v1/instances/${instance.id}`, 200);

/** A software with two releases (1.0.0 and the latest, 2.0.0), each with its image digest. */
async function softwareWithReleases(name: string) {
  const software = await api.call('POST', '/api/v1/software', 201, { name });
  const r1 = await api.call('POST', `/api/v1/software/${software.id}/releases`, 201, {
    version: '1.0.0',
    image_digest: DIGEST_1,
    date_published: '2026-01-01',
  });
  const r2 = await api.call('POST', `/api/v1/software/${software.id}/releases`, 201, {
    version: '2.0.0',
    image_digest: DIGEST_2,
    date_published: '2026-02-01',
  });
  return { software, r1, r2 };
}

beforeAll(async () => {
  core = await openTestCore({}, true);
  app = createApp(core);
  api = apiOf(app);
});
afterAll(async () => core.close());

describe('POST /api/v1/deployment-events', () => {
  it('accepts every genuine CDEvents example in structured, plain and binary mode', async () => {
    expect(fixtures).toHaveLength(16);
    const software = await api.call('POST', '/api/v1/software', 201, { name: 'cdevents examples' });
    for (const mode of ['structured', 'cdevent', 'binary'] as const) {
      for (const { name, event } of fixtures) {
        const { instance, token } = await api.deployment(software, `${mode} ${name}`);
        const answer = await post(event, token, 201, mode);
        const kind = String(event.context.type)
          .replace(/^dev\.cdevents\./, '')
          .replace(/\.\d+\.\d+\.\d+$/, '');
        expect(answer, `${mode} ${name}`).toMatchObject({
          instance: instance.iri,
          replayed: false,
          entry: {
            type: kind,
            event_id: event.context.id,
            event_source: event.context.source,
            applied: true,
          },
        });
        const record = await instanceOf(instance);
        if (kind.startsWith('service.')) expect(record.environment, name).toBe('test123');
        if (kind === 'environment.created' || kind === 'environment.modified')
          expect(record.environment, name).toBe('mySubject123');
        if (kind === 'service.removed' || kind === 'environment.deleted')
          expect(record.removed_at, name).toBe('2023-03-20T14:27:05.315Z');
        if (kind === 'service.deployed') expect(record.artifact_id).toBe(event.subject.content.artifactId);
        if (kind === 'artifact.published')
          expect(answer.release).toMatchObject({ version: '234fd47e07d1004f0aed9c' });
        expect((await history(instance)).total, name).toBe(1);
      }
    }
    // The published artifact named one release of the software, registered once and found again afterwards.
    const releases = await api.call('GET', `/api/v1/software/${software.id}/releases`, 200);
    expect(releases.items.map((release: Json) => release.version)).toEqual(['234fd47e07d1004f0aed9c']);
  });

  it('keeps deployed → upgraded → rolled back in the history, the rollback restoring the earlier release', async () => {
    const { software, r1, r2 } = await softwareWithReleases('rollback shop');
    const { instance, token } = await api.deployment(software, 'shop eu');
    await post(
      cdevent('service.deployed', { environment: { id: 'prod' }, artifactId: image(DIGEST_1) }),
      token,
      201,
    );
    expect(await instanceOf(instance)).toMatchObject({
      release: r1.iri,
      version: '1.0.0',
      environment: 'prod',
    });
    await post(
      cdevent('service.upgraded', { environment: { id: 'prod' }, artifactId: image(DIGEST_2) }),
      token,
      201,
    );
    expect(await instanceOf(instance)).toMatchObject({ release: r2.iri, version: '2.0.0' });
    // The rollback names no artifact: the registry restores the release that ran before, from the history.
    const rolledBack = await post(cdevent('service.rolledback', { environment: { id: 'prod' } }), token, 201);
    expect(rolledBack.release).toEqual({ iri: r1.iri, version: '1.0.0', created: false });
    expect(await instanceOf(instance)).toMatchObject({
      release: r1.iri,
      version: '1.0.0',
      environment: 'prod',
    });

    const page = await history(instance);
    expect(page.total).toBe(3);
    expect(page.items.map((entry: Json) => entry.type)).toEqual([
      'service.rolledback',
      'service.upgraded',
      'service.deployed',
    ]);
    const [rollback, upgrade, deploy] = page.items as [Json, Json, Json];
    expect(rollback).toMatchObject({
      previous: { release: r2.iri, version: '2.0.0', environment: 'prod', running: true },
      current: { release: r1.iri, version: '1.0.0', environment: 'prod', running: true },
      changed: true,
      applied: true,
      sender: instance.iri,
    });
    expect(upgrade.current.release).toBe(r2.iri);
    expect(deploy.previous).toEqual({ release: null, version: null, environment: null, running: true });
    // Paged newest first: one entry per page, the cursor leading to the next.
    const first = await api.call('GET', `/api/v1/instances/${instance.id}/history?limit=1`, 200);
    expect(first.items[0].id).toBe(rollback.id);
    const second = await api.call(
      'GET',
      `/api/v1/instances/${instance.id}/history?limit=1&cursor=${first.next_cursor}`,
      200,
    );
    expect(second.items[0].id).toBe(upgrade.id);
    // Each change went through the write path of a deployment edit, audited as the deployment's own act.
    const audited = listAudit(core.db, { limit: 1000, action: 'instance.deployment-event' }).filter(
      (entry) => entry.target === instance.iri,
    );
    expect(audited).toHaveLength(3);
  });

  it('registers a release the event names by version and digest, and refuses to guess one from a digest alone', async () => {
    const { software } = await softwareWithReleases('new release shop');
    const { instance, token } = await api.deployment(software, 'shop us');
    const answer = await post(
      cdevent('service.upgraded', { environment: { id: 'prod' }, artifactId: image(DIGEST_3, '3.0.0') }),
      token,
      201,
    );
    expect(answer.release).toMatchObject({ version: '3.0.0', created: true });
    const listed = await api.call('GET', `/api/v1/software/${software.id}/releases`, 200);
    expect(listed.items.find((release: Json) => release.iri === answer.release.iri)).toMatchObject({
      version: '3.0.0',
      image_digest: DIGEST_3,
      container_image: 'ghcr.io/example/shop',
      software: software.iri,
    });
    expect(await instanceOf(instance)).toMatchObject({ release: answer.release.iri, version: '3.0.0' });
    // A digest no release carries, with no version: the deployment runs no known release, and none is invented.
    const unknown = `sha256:${'4'.repeat(64)}`;
    const bare = await post(
      cdevent('service.upgraded', { environment: { id: 'prod' }, artifactId: image(unknown) }),
      token,
      201,
    );
    expect(bare.release).toBeUndefined();
    const record = await instanceOf(instance);
    expect(record.release).toBeUndefined();
    expect(record.artifact_id).toBe(image(unknown));
    const releases = await api.call('GET', `/api/v1/software/${software.id}/releases`, 200);
    expect(releases.items).toHaveLength(3);
  });

  it('marks a removed deployment as not running without deleting it, and a new deployment brings it back', async () => {
    const { software } = await softwareWithReleases('removal shop');
    const { instance, token } = await api.deployment(software, 'shop asia');
    await post(
      cdevent('service.deployed', { environment: { id: 'prod' }, artifactId: image(DIGEST_2) }),
      token,
      201,
    );
    const removal = cdevent('service.removed', { environment: { id: 'prod' } });
    const removed = await post(removal, token, 201);
    expect(removed.entry.current).toMatchObject({ running: false, version: '2.0.0' });
    const record = await instanceOf(instance);
    expect(record.removed_at).toBe(removal.context.timestamp);
    expect(record.tombstoned).toBeUndefined();
    const view = await api.call('GET', `/api/v1/software/${software.id}/deployments`, 200);
    expect(view.items[0]).toMatchObject({
      iri: instance.iri,
      running: false,
      removed_at: removal.context.timestamp,
    });
    await post(
      cdevent('service.deployed', { environment: { id: 'prod' }, artifactId: image(DIGEST_2) }),
      token,
      201,
    );
    expect((await instanceOf(instance)).removed_at).toBeUndefined();
  });

  it('answers a replayed event with its first entry and changes nothing; an event older than the state is kept but not applied', async () => {
    const { software, r2 } = await softwareWithReleases('replay shop');
    const { instance, token } = await api.deployment(software, 'shop replay');
    const event = cdevent('service.deployed', { environment: { id: 'prod' }, artifactId: image(DIGEST_2) });
    const first = await post(event, token, 201);
    const again = await post(event, token, 200, 'binary');
    expect(again).toMatchObject({ replayed: true, instance: instance.iri });
    expect(again.entry).toEqual(first.entry);
    expect((await history(instance)).total).toBe(1);

    const late = await post(
      cdevent(
        'service.deployed',
        { environment: { id: 'staging' }, artifactId: image(DIGEST_1) },
        { timestamp: '2025-06-01T00:00:00Z' },
      ),
      token,
      201,
    );
    expect(late.entry).toMatchObject({ applied: false, changed: false });
    expect(await instanceOf(instance)).toMatchObject({ release: r2.iri, environment: 'prod' });
    expect((await history(instance)).items.map((entry: Json) => entry.applied)).toEqual([true, false]);
  });

  it('lets a curator name the deployment, and refuses a deployment naming another', async () => {
    const { software, r1 } = await softwareWithReleases('curated shop');
    const { instance } = await api.deployment(software, 'shop curated');
    const { instance: other, token: otherToken } = await api.deployment(software, 'shop other');
    const event = cdevent('service.deployed', { environment: { id: 'prod' }, artifactId: image(DIGEST_1) });
    const refused = await post(event, ROOT_TOKEN, 400);
    expect(refused.errors[0].field).toBe('instance');
    await post(event, ROOT_TOKEN, 201, 'cdevent', `?instance=${instance.id}`);
    const bySubject = cdevent(
      'service.upgraded',
      { environment: { id: 'prod' }, artifactId: image(DIGEST_1) },
      { subject: instance.iri },
    );
    await post(bySubject, ROOT_TOKEN, 201);
    expect((await instanceOf(instance)).release).toBe(r1.iri);

    const forbidden = await post(
      cdevent(
        'service.deployed',
        { environment: { id: 'prod' }, artifactId: image(DIGEST_1) },
        { subject: instance.iri },
      ),
      otherToken,
      403,
    );
    expect(forbidden).toMatchObject({ code: 'forbidden' });
    expect(forbidden.errors[0].field).toBe('subject.id');
    const byQuery = await post(event, otherToken, 403, 'cdevent', `?instance=${instance.id}`);
    expect(byQuery.errors[0].field).toBe('instance');
    await post(event, null, 401);
    expect((await history(other)).total).toBe(0);
  });

  it('refuses a bad event with the field it concerns and writes nothing', async () => {
    const { software } = await softwareWithReleases('refusal shop');
    const { instance, token } = await api.deployment(software, 'shop refusals');
    const good = () =>
      cdevent('service.deployed', { environment: { id: 'prod' }, artifactId: image(DIGEST_3, '9.9.9') });
    const expectField = async (response: Response, field: string) => {
      const problem = await api.expectStatus(response, 400);
      expect(problem.code, field).toBe('bad-request');
      expect(
        problem.errors.map((error: Json) => error.field),
        JSON.stringify(problem),
      ).toContain(field);
    };
    const unknownType = good();
    unknownType.context.type = 'dev.cdevents.pipelinerun.started.0.2.0';
    await expectField(await send(unknownType, token), 'context.type');
    const notPurl = cdevent('service.deployed', {
      environment: { id: 'prod' },
      artifactId: 'ghcr.io/example/shop:9.9.9',
    });
    await expectField(await send(notPurl, token), 'subject.content.artifactId');
    const old = good() as Json;
    old.context.specversion = '0.3.0';
    await expectField(await send(old, token), 'context.specversion');
    const noEnvironment = cdevent('service.deployed', { artifactId: image(DIGEST_3, '9.9.9') });
    await expectField(await send(noEnvironment, token), 'subject.content.environment.id');
    const badTime = good();
    badTime.context.timestamp = 'yesterday';
    await expectField(await send(badTime, token), 'context.timestamp');
    const event = good();
    const noId = await app.request('/api/v1/deployment-events', {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        'ce-specversion': '1.0',
        'ce-source': event.context.source,
        'ce-type': event.context.type,
      },
      body: JSON.stringify(event),
    });
    await expectField(noId, 'ce-id');
    const otherType = await app.request('/api/v1/deployment-events', {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        'ce-specversion': '1.0',
        'ce-id': event.context.id,
        'ce-source': event.context.source,
        'ce-type': 'dev.cdevents.service.removed.0.3.0',
      },
      body: JSON.stringify(event),
    });
    await expectField(otherType, 'ce-type');
    const noData = await app.request('/api/v1/deployment-events', {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/cloudevents+json' },
      body: JSON.stringify({ specversion: '1.0', id: 'x', source: '/s', type: event.context.type }),
    });
    await expectField(noData, 'data');
    // A rollback naming no artifact needs an earlier release in the history; this deployment has none.
    const rollback = await post(cdevent('service.rolledback', { environment: { id: 'prod' } }), token, 409);
    expect(rollback.errors[0].field).toBe('subject.content.artifactId');
    // Nothing was half-written: no history, no release for 9.9.9, the record untouched.
    expect((await history(instance)).total).toBe(0);
    const releases = await api.call('GET', `/api/v1/software/${software.id}/releases`, 200);
    expect(releases.items.map((release: Json) => release.version).sort()).toEqual(['1.0.0', '2.0.0']);
    expect((await instanceOf(instance)).environment).toBeUndefined();
  });
});

describe('deployment events from other senders and transports', () => {
  it('applies an event of a software token to the deployment it registered, read from a gzip body', async () => {
    const { software, r2 } = await softwareWithReleases('self-registered shop');
    const minted = await api.call('POST', `/api/v1/software/${software.id}/tokens`, 201, {
      scopes: ['register:instance'],
    });
    const token = minted.token as string;
    // The announcement is dated on receipt, after the event's own time: the event still applies.
    const announced = await api.call('PUT', '/api/v1/instances/self', 201, { version: '1.0.0' }, token);
    const event = cdevent('service.deployed', { environment: { id: 'edge' }, artifactId: image(DIGEST_2) });
    const response = await app.request('/api/v1/deployment-events', {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        'content-encoding': 'gzip',
      },
      body: gzipSync(JSON.stringify(event)),
    });
    const answer = await api.expectStatus(response, 201);
    expect(answer.instance).toBe(announced.iri);
    expect(await instanceOf(announced)).toMatchObject({
      release: r2.iri,
      environment: 'edge',
      version: '2.0.0',
    });
    expect((await history(announced)).items.map((entry: Json) => [entry.type, entry.applied])).toEqual([
      ['announced', true],
      ['service.deployed', true],
    ]);
  });

  it('applies one of two copies of an event sent at once; the other is answered as a replay', async () => {
    const { software } = await softwareWithReleases('concurrent shop');
    const { instance, token } = await api.deployment(software, 'shop concurrent');
    const event = cdevent('service.deployed', { environment: { id: 'prod' }, artifactId: image(DIGEST_1) });
    const answers = await Promise.all([send(event, token), send(event, token, 'structured')]);
    expect(answers.map((response) => response.status).sort()).toEqual([200, 201]);
    expect((await history(instance)).total).toBe(1);
  });

  it("refuses a credential that manages its deployment's subscriptions only", async () => {
    const { software } = await softwareWithReleases('subscriber shop');
    const { instance } = await api.deployment(software, 'shop subscriber');
    const minted = await api.call('POST', `/api/v1/instances/${instance.id}/tokens`, 201, {
      scopes: ['subscribe:artifacts'],
    });
    const event = cdevent('service.deployed', { environment: { id: 'prod' }, artifactId: image(DIGEST_1) });
    const refused = await post(event, minted.token as string, 403);
    expect(refused.code).toBe('forbidden');
    expect((await history(instance)).total).toBe(0);
  });
});

describe('GET /api/v1/software/{id}/deployments', () => {
  it('shows every deployment with its version, since when, health and last run, and flags drift', async () => {
    const { software, r1, r2 } = await softwareWithReleases('drift shop');
    const a = await api.deployment(software, 'prod a');
    const b = await api.deployment(software, 'prod b');
    const c = await api.deployment(software, 'staging c');
    const at = (minute: number) => `2026-03-01T10:${String(minute).padStart(2, '0')}:00.000Z`;
    await post(
      cdevent(
        'service.deployed',
        { environment: { id: 'prod' }, artifactId: image(DIGEST_2) },
        { timestamp: at(1) },
      ),
      a.token,
      201,
    );
    await post(
      cdevent(
        'service.deployed',
        { environment: { id: 'prod' }, artifactId: image(DIGEST_1) },
        { timestamp: at(2) },
      ),
      b.token,
      201,
    );
    await post(
      cdevent(
        'service.deployed',
        { environment: { id: 'staging' }, artifactId: image(DIGEST_1) },
        { timestamp: at(3) },
      ),
      c.token,
      201,
    );
    await api.advertise(a.token, 'produced', 'drift-run-1', []);

    const view = await api.call('GET', `/api/v1/software/${software.id}/deployments`, 200);
    expect(view).toMatchObject({
      software: software.iri,
      latest_release: { iri: r2.iri, version: '2.0.0' },
      total: 3,
    });
    const byLabel = Object.fromEntries((view.items as Json[]).map((row) => [row.label, row]));
    expect(byLabel['prod a']).toMatchObject({
      environment: 'prod',
      release: r2.iri,
      version: '2.0.0',
      since: at(1),
      health: 'unknown',
      running: true,
      behind_latest: false,
      versions_differ: true,
    });
    expect(byLabel['prod a'].last_run).toMatchObject({ iri: expect.any(String) });
    expect(byLabel['prod b']).toMatchObject({
      release: r1.iri,
      version: '1.0.0',
      since: at(2),
      behind_latest: true,
      versions_differ: true,
      last_run: null,
    });
    expect(byLabel['staging c']).toMatchObject({
      environment: 'staging',
      behind_latest: true,
      versions_differ: false,
    });
    expect(view.environments).toEqual([
      {
        environment: 'prod',
        versions: ['1.0.0', '2.0.0'],
        versions_differ: true,
        deployments: expect.any(Array),
      },
      { environment: 'staging', versions: ['1.0.0'], versions_differ: false, deployments: [c.instance.iri] },
    ]);
    expect(view.drift).toEqual({ behind_latest: 2, environments_with_differing_versions: ['prod'] });
    await api.call('GET', '/api/v1/software/0190aaaa-0000-7000-8000-000000000000/deployments', 404);
    // The last runs come from the lineage index; read by the query while it is filled, the view is the same.
    expect(lineageIndexReady(core.db)).toBe(true);
    core.db.transaction(() => markLineageStale(core.db, core.graph.kind));
    expect(await api.call('GET', `/api/v1/software/${software.id}/deployments`, 200)).toEqual(view);
  });
});

describe('PUT /api/v1/instances/self', () => {
  it('writes the same history when a deployment announces a new version', async () => {
    const { software, r1, r2 } = await softwareWithReleases('announcing shop');
    const minted = await api.call('POST', `/api/v1/software/${software.id}/tokens`, 201, {
      scopes: ['register:instance'],
    });
    const token = minted.token as string;
    const announce = (version: string, status: number) =>
      api.call('PUT', '/api/v1/instances/self', status, { instance_key: 'node-1', version }, token);
    const created = await announce('1.0.0', 201);
    expect(created).toMatchObject({ release: r1.iri, version: '1.0.0' });
    await announce('1.0.0', 200);
    await announce('2.0.0', 200);
    const page = await api.call('GET', `/api/v1/instances/${created.id}/history`, 200);
    expect(page.total).toBe(2);
    expect(
      page.items.map((entry: Json) => [entry.type, entry.current.version, entry.current.release]),
    ).toEqual([
      ['announced', '2.0.0', r2.iri],
      ['announced', '1.0.0', r1.iri],
    ]);
    expect(page.items[0]).toMatchObject({
      previous: { version: '1.0.0', release: r1.iri },
      sender: expect.stringMatching(/^urn:reg:token:/),
    });
  });
});
