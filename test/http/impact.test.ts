import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/core/core.js';
import { createApp } from '../../src/http/app.js';
import { apiOf, artifact, type Json } from '../support/api.js';
import { openTestCore } from '../helpers.js';

/**
 * Impact over a lineage of three generations: A0 (registered, with a checksum) was used by a run of deployment
 * one, which generated A1; a run of deployment two used A1 and generated A2; a run of deployment one used A2 and
 * generated A3. Both deployments ran release 1.0 then; deployment two has moved to 2.0 since. A third deployment
 * subscribes to everything advertised.
 */
let core: Core;
let api: ReturnType<typeof apiOf>;
const HEX = 'a1'.repeat(32);
const IMAGE = 'b2'.repeat(32);
let a: string[];
let runs: string[];
let one: Json;
let two: Json;
let subscriber: Json;
let r1: Json;
let r2: Json;
let later: string;
let laterRun: string;
let subscription: string;
/** A time after the first step was recorded and before the second. */
let betweenSteps: string;
let foreignRun: string;
const FOREIGN = 'https://elsewhere.example.org/artifact/raw-7';

async function step(token: string, key: string, input: string, title: string) {
  await api.advertise(token, 'consumed', key, [{ iri: input }]);
  const made = await api.advertise(token, 'produced', key, [artifact(title)]);
  return { run: made.run as string, artifact: made.artifacts[0] as string };
}

const impactOf = (query: string, token?: string | null) =>
  api.send('GET', `/api/v1/impact?${query}`, undefined, token === undefined ? undefined : token);

beforeAll(async () => {
  core = await openTestCore({}, true);
  api = apiOf(createApp(core));
  const software = await api.call('POST', '/api/v1/software', 201, { name: 'tabulate' });
  r1 = await api.call('POST', `/api/v1/software/${software.id}/releases`, 201, {
    version: '1.0',
    image_digest: `sha256:${IMAGE}`,
  });
  r2 = await api.call('POST', `/api/v1/software/${software.id}/releases`, 201, { version: '2.0' });
  one = await api.deployment(software, 'one');
  two = await api.deployment(software, 'two');
  subscriber = await api.deployment(undefined, 'subscriber');
  for (const d of [one, two])
    await api.call('PATCH', `/api/v1/instances/${d.instance.id}`, 200, { release: r1.iri });
  subscription = (
    await api.call(
      'POST',
      `/api/v1/instances/${subscriber.instance.id}/subscriptions`,
      201,
      { filter: { roles: ['produced'] } },
      subscriber.token,
    )
  ).subscription.id;
  const a0 = await api.call(
    'POST',
    '/api/v1/artifacts',
    201,
    artifact('A0', {
      distributions: [
        { download_url: 'https://data.example.org/a0.tsv', checksum: { algorithm: 'sha256', value: HEX } },
      ],
    }),
  );
  const s1 = await step(one.token, 'k1', a0.iri, 'A1');
  await new Promise((resolve) => setTimeout(resolve, 5));
  betweenSteps = new Date().toISOString();
  await new Promise((resolve) => setTimeout(resolve, 5));
  const s2 = await step(two.token, 'k2', s1.artifact, 'A2');
  const s3 = await step(one.token, 'k3', s2.artifact, 'A3');
  a = [a0.iri, s1.artifact, s2.artifact, s3.artifact];
  runs = [s1.run, s2.run, s3.run];
  const made = await api.advertise(one.token, 'produced', 'k4', [artifact('Later')]);
  later = made.artifacts[0];
  laterRun = made.run;
  foreignRun = (await api.advertise(two.token, 'consumed', 'k5', [{ iri: FOREIGN }])).run;
  await api.call('PATCH', `/api/v1/instances/${two.instance.id}`, 200, { release: r2.iri });
});
afterAll(async () => core.close());

describe('GET /api/v1/impact', () => {
  it('follows an artifact three generations down, to the deployments and what they made since', async () => {
    const body = await api.expectStatus(await impactOf(`of=${encodeURIComponent(a[0]!)}`), 200);
    expect(body.subject).toEqual({ kind: 'artifact', artifacts: [a[0]], releases: [] });
    expect(body.depth).toBe(6);
    expect(body.partial).toBe(false);
    expect(body.runs.map((run: Json) => [run.iri, run.depth, run.direct])).toEqual([
      [runs[0], 1, true],
      [runs[1], 2, false],
      [runs[2], 3, false],
    ]);
    expect(body.runs[0]).toMatchObject({
      instance: one.instance.iri,
      release: r1.iri,
      status: expect.any(String),
    });
    expect(body.artifacts.map((x: Json) => [x.iri, x.depth])).toEqual(a.map((iri, depth) => [iri, depth]));
    const byIri = new Map((body.deployments as Json[]).map((d) => [d.iri, d]));
    expect(byIri.get(one.instance.iri)).toMatchObject({
      release: r1.iri,
      release_version: '1.0',
      releases_involved: [r1.iri],
      still_on_release: true,
      runs: 2,
      health: 'unknown',
    });
    expect(byIri.get(two.instance.iri)).toMatchObject({
      release: r2.iri,
      release_version: '2.0',
      releases_involved: [r1.iri],
      still_on_release: false,
      runs: 1,
    });
    // Deployment one made A1 and A3 in the runs that used the subject, and Later after them.
    expect(byIri.get(one.instance.iri)!.produced_since.count).toBe(3);
    expect(byIri.get(one.instance.iri)!.produced_since.artifacts).toContain(later);
    expect(byIri.get(two.instance.iri)!.produced_since).toEqual({ count: 1, artifacts: [a[2]] });
    expect(body.summary).toEqual({
      runs: 3,
      direct_runs: 1,
      artifacts: 4,
      deployments: 2,
      deployments_still_on_release: 1,
      subscriptions: 1,
    });
    expect(body.subscriptions_scope).toBe('all');
    expect(body.subscriptions).toEqual([
      expect.objectContaining({
        id: subscription,
        instance: subscriber.instance.iri,
        // A0 was registered after the subscription too, so it was queued like the artifacts the runs made.
        artifacts: [...a].sort(),
        artifact_count: 4,
        deliveries: 4,
      }),
    ]);
  });

  it('stops at the depth asked for', async () => {
    const body = await api.expectStatus(await impactOf(`of=${encodeURIComponent(a[0]!)}&depth=1`), 200);
    expect(body.runs.map((run: Json) => run.iri)).toEqual([runs[0]]);
    expect(body.artifacts.map((x: Json) => x.iri)).toEqual([a[0], a[1]]);
    expect(body.deployments.map((d: Json) => d.iri)).toEqual([one.instance.iri]);
  });

  it('finds the artifact by a content identifier of its bytes', async () => {
    const body = await api.expectStatus(await impactOf(`of=sha256:${HEX}`), 200);
    expect(body.subject).toEqual({ kind: 'content', artifacts: [a[0]], releases: [] });
    expect(body.runs).toHaveLength(3);
  });

  it('answers for a release and for its image digest: every run made with it first, and who still runs it', async () => {
    for (const of of [r1.iri, `sha256:${IMAGE}`]) {
      const body = await api.expectStatus(await impactOf(`of=${encodeURIComponent(of)}`), 200);
      expect(body.subject.releases).toEqual([r1.iri]);
      expect(
        body.runs
          .filter((run: Json) => run.direct)
          .map((run: Json) => run.iri)
          .sort(),
      ).toEqual([...runs, laterRun, foreignRun].sort());
      expect(body.artifacts.map((x: Json) => x.iri)).toEqual(expect.arrayContaining([...a.slice(1), later]));
      expect(body.edges).toContainEqual({ from: runs[0], to: r1.iri, predicate: 'used' });
      const still = Object.fromEntries((body.deployments as Json[]).map((d) => [d.iri, d.still_on_release]));
      expect(still).toEqual({ [one.instance.iri]: true, [two.instance.iri]: false });
    }
  });

  it('answers as recorded at a time with as_of', async () => {
    const body = await api.expectStatus(
      await impactOf(`of=${encodeURIComponent(a[0]!)}&as_of=${encodeURIComponent(betweenSteps)}`),
      200,
    );
    expect(body.as_of).toBe(betweenSteps);
    expect(body.runs.map((run: Json) => run.iri)).toEqual([runs[0]]);
    expect(body.artifacts.map((x: Json) => x.iri)).toEqual([a[0], a[1]]);
  });

  it('follows an artifact of another registry that a run here used', async () => {
    const body = await api.expectStatus(await impactOf(`of=${encodeURIComponent(FOREIGN)}`), 200);
    expect(body.subject).toEqual({ kind: 'artifact', artifacts: [FOREIGN], releases: [] });
    expect(body.runs.map((run: Json) => [run.iri, run.direct])).toEqual([[foreignRun, true]]);
    expect(body.artifacts[0]).toMatchObject({ iri: FOREIGN, unresolved: true });
    expect(body.deployments.map((d: Json) => [d.iri, d.still_on_release])).toEqual([
      [two.instance.iri, false],
    ]);
  });

  it('names the deployments whose history shows they ran the release, and when they moved off it', async () => {
    const software = await api.call('POST', '/api/v1/software', 201, { name: 'announcer' });
    const v1 = await api.call('POST', `/api/v1/software/${software.id}/releases`, 201, { version: '1.0' });
    await api.call('POST', `/api/v1/software/${software.id}/releases`, 201, { version: '2.0' });
    const { token } = await api.call('POST', `/api/v1/software/${software.id}/tokens`, 201, {});
    const first = await api.call(
      'PUT',
      '/api/v1/instances/self',
      201,
      { instance_key: 'node', version: '1.0' },
      token,
    );
    expect(first.release).toBe(v1.iri);
    const running = await api.expectStatus(await impactOf(`of=${encodeURIComponent(v1.iri)}`), 200);
    expect(running.deployments).toEqual([
      expect.objectContaining({
        iri: first.iri,
        still_on_release: true,
        runs: 0,
        on_release_since: expect.any(String),
      }),
    ]);
    expect(running.deployments[0].left_release_at).toBeUndefined();
    await api.call('PUT', '/api/v1/instances/self', 200, { instance_key: 'node', version: '2.0' }, token);
    const moved = await api.expectStatus(await impactOf(`of=${encodeURIComponent(v1.iri)}`), 200);
    expect(moved.deployments).toEqual([
      expect.objectContaining({ iri: first.iri, still_on_release: false, release_version: '2.0' }),
    ]);
    expect(moved.deployments[0].left_release_at >= moved.deployments[0].on_release_since).toBe(true);
  });

  it('shows subscriptions only to those who may manage them', async () => {
    const anonymous = await api.expectStatus(await impactOf(`of=${encodeURIComponent(a[0]!)}`, null), 200);
    expect(anonymous.subscriptions_scope).toBe('none');
    expect(anonymous.subscriptions).toEqual([]);
    const own = await api.expectStatus(
      await impactOf(`of=${encodeURIComponent(a[0]!)}`, subscriber.token),
      200,
    );
    expect(own.subscriptions_scope).toBe('own');
    expect(own.subscriptions.map((s: Json) => s.id)).toEqual([subscription]);
    const other = await api.expectStatus(await impactOf(`of=${encodeURIComponent(a[0]!)}`, two.token), 200);
    expect(other.subscriptions).toEqual([]);
  });

  it('pages a large answer with a cursor, the pages together holding the whole', async () => {
    const seen = new Set<string>();
    let query = `of=${encodeURIComponent(a[0]!)}&max_nodes=2`;
    let pages = 0;
    for (;;) {
      const body = await api.expectStatus(await impactOf(query), 200);
      pages++;
      for (const node of [...body.runs, ...body.artifacts]) seen.add(node.iri);
      if (body.cursor === undefined) break;
      expect(body.partial).toBe(true);
      query = `of=${encodeURIComponent(a[0]!)}&max_nodes=2&cursor=${body.cursor}`;
    }
    expect(pages).toBeGreaterThan(1);
    expect(seen).toEqual(new Set([...a, ...runs]));
  });

  it('refuses a missing or malformed of with a 400 naming it, and answers 404 for what it does not hold', async () => {
    for (const query of ['', 'of=', 'of=not%20a%20name', 'of=ni%3A%2F%2F%2Fsha-256%3Bshort']) {
      const body = await api.expectStatus(await impactOf(query), 400);
      expect(body.errors?.[0]?.field ?? body.field, query).toBe('of');
    }
    const depth = await api.expectStatus(await impactOf(`of=${encodeURIComponent(a[0]!)}&depth=x`), 400);
    expect(depth.errors[0].field).toBe('depth');
    await api.expectStatus(
      await impactOf(`of=${encodeURIComponent('http://registry.test/artifact/nothing')}`),
      404,
    );
    await api.expectStatus(await impactOf(`of=sha256:${'c3'.repeat(32)}`), 404);
    await api.expectStatus(await impactOf(`of=${encodeURIComponent(one.instance.iri)}`), 400);
    const cursor = await api.expectStatus(await impactOf(`of=${encodeURIComponent(a[0]!)}&cursor=nope`), 400);
    expect(cursor.errors[0].field).toBe('cursor');
  });
});
