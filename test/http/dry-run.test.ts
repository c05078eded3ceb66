import { Parser } from 'n3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/core/core.js';
import { createApp } from '../../src/http/app.js';
import { openTestCore, ROOT_TOKEN } from '../helpers.js';
import { apiOf, artifact, TYPE, type Json } from '../support/api.js';

/*
 * `?dry_run=true` on the advertise endpoints: the call is authorised, validated and mapped exactly as a real
 * one, the answer shows the records it would write (JSON and Turtle) or the violations, and nothing is written:
 * no records, no keys, no audit entries, no deliveries.
 */

let core: Core;
let api: ReturnType<typeof apiOf>;
let producer: { token: string; instance: Json };
let subscription: Json;
let subscriberToken: string;

/** Deliveries queued for the subscription and not yet taken. */
const pending = async (): Promise<number> => {
  const read = await api.call(
    'GET',
    `/api/v1/subscriptions/${subscription.id}`,
    200,
    undefined,
    subscriberToken,
  );
  return (read.subscription.pending_count as number) + (read.subscription.unacked_count as number);
};

beforeAll(async () => {
  core = await openTestCore({}, true);
  api = apiOf(createApp(core));
  producer = await api.deployment(undefined, 'dry-runner');
  // A subscription to everything produced: a real call queues a delivery for it, a dry run must not.
  const subscriber = await api.deployment(undefined, 'subscriber');
  subscription = (
    await api.call(
      'POST',
      `/api/v1/instances/${subscriber.instance.id}/subscriptions`,
      201,
      { label: 'everything produced' },
      subscriber.token,
    )
  ).subscription as Json;
  subscriberToken = subscriber.token;
});

afterAll(async () => {
  await core?.close();
});

/** Every row of every table of the operational database and every quad of the graph, counted. */
async function everything(): Promise<Record<string, number>> {
  const tables = core.db
    .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
    .all() as { name: string }[];
  const counts: Record<string, number> = {};
  for (const { name } of tables) {
    counts[name] = (core.db.prepare(`SELECT count(*) AS n FROM "${name}"`).get() as { n: number }).n;
  }
  const rows = await core.graph.select('SELECT (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } }');
  counts.quads = Number(rows[0]?.n?.value ?? -1);
  return counts;
}

const dryRun = (role: string, body: unknown, token: string | null = producer.token) =>
  api.send('POST', `/api/v1/advertise/${role}?dry_run=true`, body, token);

describe('?dry_run=true', () => {
  it('answers the mapped run and artifact as JSON and Turtle, and writes nothing', async () => {
    const before = await everything();
    const queued = await pending();
    const body = {
      run: { external_key: 'dry/1', label: 'nightly' },
      artifacts: [artifact('Dry report', { keywords: ['dry'] })],
    };
    const answer = await api.expectStatus(await dryRun('produced', body), 200);
    expect(await everything()).toEqual(before);
    expect(await pending()).toBe(queued);
    expect(answer.created).toBe(true);
    expect(answer.artifacts).toHaveLength(1);
    const records = answer.dry_run.records as Json[];
    expect(records.map((record) => record.kind)).toEqual(['run', 'artifact', 'artifact-series']);
    const [run, made] = records as [Json, Json];
    expect(run.iri).toBe(answer.run);
    expect(run.record).toMatchObject({
      external_key: 'dry/1',
      label: 'nightly',
      instance: producer.instance.iri,
    });
    expect(made.iri).toBe(answer.artifacts[0]);
    expect(made.record).toMatchObject({
      title: 'Dry report',
      conforms_to: TYPE,
      was_generated_by: answer.run,
    });
    // The Turtle holds the quads that would be written: both subjects, the title.
    const triples = new Parser().parse(answer.dry_run.turtle as string);
    const subjects = new Set(triples.map((triple) => triple.subject.value));
    expect(subjects.has(answer.run as string)).toBe(true);
    expect(subjects.has(answer.artifacts[0] as string)).toBe(true);
    expect(triples.some((triple) => triple.object.value === 'Dry report')).toBe(true);
    // Nothing of it can be read afterwards.
    await api.call('GET', `/api/v1/runs/${(answer.run as string).split('/').pop()}`, 404);

    // The same call for real is recorded as new, under freshly minted IRIs.
    const real = await api.advertise(producer.token, 'produced', 'dry/1', body.artifacts, 201);
    expect(real.created).toBe(true);
    const after = await everything();
    expect(after.quads).toBeGreaterThan(before.quads ?? 0);
    expect(await pending()).toBeGreaterThan(queued);
    const changed = Object.keys(after).filter((table) => after[table] !== before[table]);
    expect(changed.length).toBeGreaterThan(1);
  });

  it('a repeat of a recorded call would write nothing, and says so', async () => {
    const artifacts = [artifact('Repeated')];
    await api.advertise(producer.token, 'produced', 'dry/repeat', artifacts, 201);
    const before = await everything();
    const answer = await api.expectStatus(
      await dryRun('produced', { run: { external_key: 'dry/repeat' }, artifacts }),
      200,
    );
    expect(await everything()).toEqual(before);
    expect(answer.created).toBe(false);
    expect(answer.dry_run.records).toEqual([]);
  });

  it('reports the violations a real call would, with the same fields, and writes nothing', async () => {
    const bad = {
      run: { external_key: 'dry/bad', status: 'sideways' },
      artifacts: [{ title: 'Bad', conforms_to: 'not an iri', distributions: [{ download_url: 'nowhere' }] }],
    };
    const before = await everything();
    const dry = await api.expectStatus(await dryRun('produced', bad), 422);
    expect(await everything()).toEqual(before);
    const real = await api.expectStatus(
      await api.send('POST', '/api/v1/advertise/produced', bad, producer.token),
      422,
    );
    expect(dry.code).toBe(real.code);
    const fields = (problem: Json): string[] => (problem.errors as Json[]).map((error) => error.field).sort();
    expect(fields(dry)).toEqual(fields(real));
    expect(fields(dry).length).toBeGreaterThan(0);
  });

  it('checks the credential as a real call does', async () => {
    const body = { run: { external_key: 'dry/auth' }, artifacts: [artifact('Unauthorised')] };
    const before = await everything();
    await api.expectStatus(await dryRun('produced', body, null), 401);
    // The root token is an administrator, not a deployment: it cannot advertise.
    await api.expectStatus(await dryRun('produced', body, ROOT_TOKEN), 403);
    const consumer = await api.call('POST', `/api/v1/instances/${producer.instance.id}/tokens`, 201, {
      scopes: ['advertise:consume'],
    });
    const after = await everything();
    await api.expectStatus(await dryRun('produced', body, consumer.token as string), 403);
    expect(await everything()).toEqual(after);
    expect(after.quads).toBe(before.quads);
  });

  it('is documented on both endpoints of the OpenAPI description', async () => {
    const document = await api.call('GET', '/api/v1/openapi.json', 200);
    for (const role of ['produced', 'consumed']) {
      const parameters = document.paths[`/api/v1/advertise/${role}`].post.parameters as Json[];
      expect(parameters).toContainEqual(expect.objectContaining({ name: 'dry_run', in: 'query' }));
    }
  });

  it('refuses a dry_run that is neither true nor false', async () => {
    const answer = await api.expectStatus(
      await api.send('POST', '/api/v1/advertise/consumed?dry_run=yes', { artifacts: [] }, producer.token),
      400,
    );
    expect(answer.detail).toContain('dry_run');
  });
});
