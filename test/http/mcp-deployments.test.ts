import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/core/core.js';
import { WebhookSender } from '../../src/core/subscriptions/webhook-sender.js';
import { createApp } from '../../src/http/app.js';
import { openTestCore, ROOT_TOKEN } from '../helpers.js';
import { apiOf, artifact, type Json } from '../support/api.js';
import { callTool, connectMcp } from '../support/mcp.js';
import { startReceiver, type Receiver } from '../support/receivers.js';

/*
 * The MCP tools of deployments and impact, with the official client against the application in process. A
 * software "shop" declares it produces data; its releases 1.0.0 and 2.0.0 are known by image digest. CDEvents put
 * deployments "eu" and "us" on 1.0.0 in prod; eu's run used A0 and generated A1 (identifiers, never declared),
 * us's run used A1 and generated A2; then us was upgraded to 2.0.0. Every tool answers as the REST API does.
 */

const DATA = 'http://edamontology.org/data_0006';
const IDENTIFIER = 'http://edamontology.org/data_0842';
const DIGEST_1 = `sha256:${'1'.repeat(64)}`;
const DIGEST_2 = `sha256:${'2'.repeat(64)}`;
const LOOPBACK = { REG_SUBSCRIPTION_ALLOW_HTTP: 'true', REG_SUBSCRIPTION_ALLOW_PRIVATE_TARGETS: 'true' };

let core: Core;
let app: ReturnType<typeof createApp>;
let api: ReturnType<typeof apiOf>;
let receiver: Receiver;
let software: Json;
let r1: Json;
let r2: Json;
let eu: Json;
let us: Json;
let a: string[];

const image = (digest: string) =>
  `pkg:oci/shop@${digest.replace(':', '%3A')}?repository_url=ghcr.io/example/shop`;

let sequence = 0;
/** Sends one CDEvent of `kind` from a deployment's own credential. */
async function deploymentEvent(token: string, kind: string, digest: string): Promise<void> {
  sequence += 1;
  const event = {
    context: {
      specversion: '0.4.1',
      id: `mcp-event-${sequence}`,
      source: '/ci/deployer',
      type: `dev.cdevents.${kind}.0.1.1`,
      timestamp: new Date(Date.UTC(2026, 0, 1, 0, 0, sequence)).toISOString(),
    },
    subject: { id: 'shop', content: { environment: { id: 'prod' }, artifactId: image(digest) } },
  };
  await api.call('POST', '/api/v1/deployment-events', 201, event, token);
}

/** One step of a pipeline: a run of the deployment used `input` and generated an artifact of `type`. */
async function step(token: string, key: string, input: string, title: string, type = DATA) {
  await api.advertise(token, 'consumed', key, [{ iri: input }]);
  const made = await api.advertise(token, 'produced', key, [artifact(title, { conforms_to: type })]);
  return made.artifacts[0] as string;
}

/** Calls a tool as `token` (anonymous when absent) and expects a result that is not an error. */
async function tool(name: string, args: Json, token?: string): Promise<Json> {
  const result = await callTool(await connectMcp({ app }, '2026-07-28', token), name, args);
  expect(result.isError, `${name}: ${result.text}`).toBe(false);
  expect(JSON.parse(result.text)).toEqual(result.content);
  return result.content;
}

/** Expects a tool to answer exactly what a GET of `path` answers the same caller. */
async function same(name: string, args: Json, path: string, token?: string): Promise<Json> {
  const answer = await tool(name, args, token);
  expect(answer, name).toEqual(await api.call('GET', path, 200, undefined, token ?? null));
  return answer;
}

beforeAll(async () => {
  core = await openTestCore(LOOPBACK, true);
  app = createApp(core);
  api = apiOf(app);
  receiver = await startReceiver();
  software = await api.call('POST', '/api/v1/software', 201, {
    name: 'shop',
    capability: { produces: [DATA] },
  });
  r1 = await api.call('POST', `/api/v1/software/${software.id}/releases`, 201, {
    version: '1.0.0',
    image_digest: DIGEST_1,
    date_published: '2026-01-01',
  });
  r2 = await api.call('POST', `/api/v1/software/${software.id}/releases`, 201, {
    version: '2.0.0',
    image_digest: DIGEST_2,
    date_published: '2026-02-01',
  });
  eu = await api.deployment(software, 'eu');
  us = await api.deployment(software, 'us');
  await deploymentEvent(eu.token, 'service.deployed', DIGEST_1);
  await deploymentEvent(us.token, 'service.deployed', DIGEST_1);
  const a0 = await api.call('POST', '/api/v1/artifacts', 201, artifact('A0'));
  const a1 = await step(eu.token, 'eu-1', a0.iri, 'A1', IDENTIFIER);
  const a2 = await step(us.token, 'us-1', a1, 'A2');
  a = [a0.iri, a1, a2];
  await deploymentEvent(us.token, 'service.upgraded', DIGEST_2);
});
afterAll(async () => {
  await receiver?.close();
  await core?.close();
});

describe('the MCP tools of deployments and impact', () => {
  it('offers the four reads to anyone, each read-only and taking what its API operation declares', async () => {
    const tools = (await (await connectMcp({ app }, '2025-11-25')).listTools()).tools;
    const offered = new Map(tools.map((one) => [one.name, one]));
    for (const name of ['impact', 'deployment_history', 'software_deployments', 'observed_capability']) {
      expect(offered.get(name)?.annotations, name).toMatchObject({
        readOnlyHint: true,
        idempotentHint: true,
      });
    }
    const impact = offered.get('impact')!;
    expect(impact.inputSchema.required).toEqual(['of']);
    expect(Object.keys(impact.inputSchema.properties ?? {})).toEqual([
      'of',
      'depth',
      'max_nodes',
      'max_edges',
      'time_budget_ms',
      'as_of',
      'cursor',
    ]);
    const matchmaking = offered.get('find_capable_software')!.inputSchema.properties as Json;
    expect(matchmaking.basis.enum).toEqual(['declared', 'observed', 'both']);
    expect(matchmaking.artifact.type).toBe('string');
    const observed = offered.get('observed_capability')!.inputSchema.properties as Json;
    expect(Object.keys(observed)).toEqual(['software', 'instance', 'days']);
  });

  it('answers the impact of a release: both deployments ran it, one has moved off it since', async () => {
    const answer = await same('impact', { of: r1.iri }, `/api/v1/impact?of=${encodeURIComponent(r1.iri)}`);
    expect(answer.subject).toMatchObject({ kind: 'release' });
    const byLabel = Object.fromEntries(answer.deployments.map((d: Json) => [d.label, d]));
    expect(byLabel.eu).toMatchObject({ iri: eu.instance.iri, still_on_release: true, release: r1.iri });
    expect(byLabel.us).toMatchObject({ iri: us.instance.iri, still_on_release: false, release: r2.iri });
    expect(answer.runs.length).toBeGreaterThanOrEqual(2);
    // The same release named by its image digest.
    const digest = await same(
      'impact',
      { of: DIGEST_1 },
      `/api/v1/impact?of=${encodeURIComponent(DIGEST_1)}`,
    );
    expect(digest.subject.releases).toEqual([r1.iri]);
  });

  it('answers the impact of an artifact down the lineage, in pages that a cursor continues', async () => {
    const whole = await same('impact', { of: a[0] }, `/api/v1/impact?of=${encodeURIComponent(a[0]!)}`);
    expect(whole.artifacts.map((item: Json) => item.iri)).toEqual(expect.arrayContaining(a));
    expect(whole.runs.filter((run: Json) => run.direct)).toHaveLength(1);
    expect(whole.partial).toBe(false);
    const shallow = await same(
      'impact',
      { of: a[0], depth: 1 },
      `/api/v1/impact?of=${encodeURIComponent(a[0]!)}&depth=1`,
    );
    expect(shallow.artifacts.map((item: Json) => item.iri)).not.toContain(a[2]);
    const first = await tool('impact', { of: a[0], max_nodes: 2 });
    expect(first).toMatchObject({ partial: true, cursor: expect.any(String) });
    const next = await tool('impact', { of: a[0], max_nodes: 2, cursor: first.cursor });
    const direct = await api.call(
      'GET',
      `/api/v1/impact?of=${encodeURIComponent(a[0]!)}&max_nodes=2&cursor=${encodeURIComponent(first.cursor)}`,
      200,
      undefined,
      null,
    );
    // Each answer that stops early mints its own cursor; everything else is the same.
    const withoutCursor = ({ cursor: _cursor, ...rest }: Json) => rest;
    expect(withoutCursor(next)).toEqual(withoutCursor(direct));
    expect(next.runs.map((run: Json) => run.iri)).not.toEqual(first.runs.map((run: Json) => run.iri));
  });

  it('refuses an impact without its subject, and passes on the problem of one the registry does not know', async () => {
    const client = await connectMcp({ app }, '2026-07-28');
    expect(await callTool(client, 'impact', {})).toMatchObject({
      isError: true,
      text: 'Bad request: of is required',
    });
    const unknown = await callTool(client, 'impact', { of: 'http://registry.test/artifact/nothing-here' });
    const direct = await api.send(
      'GET',
      `/api/v1/impact?of=${encodeURIComponent('http://registry.test/artifact/nothing-here')}`,
    );
    expect(unknown.isError).toBe(true);
    expect(unknown.content).toMatchObject({
      status: direct.status,
      type: ((await direct.json()) as Json).type,
    });
    const depth = await callTool(client, 'impact', { of: a[0], depth: 'deep' });
    expect(depth.isError).toBe(true);
    expect(depth.content).toMatchObject({
      status: 400,
      errors: [expect.objectContaining({ field: 'depth' })],
    });
  });

  it("reads a deployment's history a page at a time, the upgrade first", async () => {
    const page = await same(
      'deployment_history',
      { instance: us.instance.id },
      `/api/v1/instances/${us.instance.id}/history`,
    );
    expect(page.total).toBe(2);
    expect(page.items.map((entry: Json) => entry.type)).toEqual(['service.upgraded', 'service.deployed']);
    expect(page.items[0]).toMatchObject({
      previous: { release: r1.iri, version: '1.0.0', environment: 'prod' },
      current: { release: r2.iri, version: '2.0.0', environment: 'prod' },
    });
    const first = await tool('deployment_history', { instance: us.instance.iri, limit: 1 });
    expect(first.items).toHaveLength(1);
    const second = await same(
      'deployment_history',
      { instance: us.instance.id, limit: '1', cursor: first.next_cursor },
      `/api/v1/instances/${us.instance.id}/history?limit=1&cursor=${encodeURIComponent(first.next_cursor)}`,
    );
    expect(second.items.map((entry: Json) => entry.type)).toEqual(['service.deployed']);
    const missing = await callTool(await connectMcp({ app }, '2026-07-28'), 'deployment_history', {});
    expect(missing).toMatchObject({ isError: true, text: 'Bad request: instance is required' });
  });

  it('shows what runs where, flagging the deployment behind the latest release and the environment that differs', async () => {
    const view = await same(
      'software_deployments',
      { software: software.iri },
      `/api/v1/software/${software.id}/deployments`,
    );
    const byLabel = Object.fromEntries(view.items.map((d: Json) => [d.label, d]));
    expect(byLabel.eu).toMatchObject({ version: '1.0.0', environment: 'prod', behind_latest: true });
    expect(byLabel.us).toMatchObject({ version: '2.0.0', environment: 'prod', behind_latest: false });
    expect(view.environments).toEqual([
      expect.objectContaining({ environment: 'prod', versions_differ: true }),
    ]);
    const unknown = await callTool(await connectMcp({ app }, '2026-07-28'), 'software_deployments', {
      software: 'no-such-software',
    });
    expect(unknown).toMatchObject({ isError: true, content: { status: 404 } });
  });

  it('shows observed beside declared capability, for a deployment and for its software', async () => {
    const deployment = await same(
      'observed_capability',
      { instance: eu.instance.id },
      `/api/v1/instances/${eu.instance.id}/observed-capability`,
    );
    expect(deployment.observed_undeclared.produces).toEqual([IDENTIFIER]);
    const decade = await same(
      'observed_capability',
      { software: software.id, days: 3650 },
      `/api/v1/software/${software.id}/observed-capability?days=3650`,
    );
    expect(decade).toMatchObject({ entity_type: 'software', days: 3650 });
    expect(decade.observed_undeclared.produces).toEqual([IDENTIFIER]);
    const client = await connectMcp({ app }, '2026-07-28');
    for (const args of [{}, { software: software.id, instance: eu.instance.id }])
      expect(await callTool(client, 'observed_capability', args)).toMatchObject({
        isError: true,
        text: 'Bad request: give either software or instance (id or IRI), not both',
      });
  });

  it('matches on what runs did when asked, and answers what can consume an artifact and what already did', async () => {
    const declared = await tool('find_capable_software', { produces: [IDENTIFIER] });
    expect(JSON.stringify(declared)).not.toContain(eu.instance.iri);
    const observed = await same(
      'find_capable_software',
      { produces: [IDENTIFIER], basis: 'observed' },
      `/api/v1/capabilities?produces=${encodeURIComponent(IDENTIFIER)}&basis=observed`,
    );
    expect(observed.basis).toBe('observed');
    expect(observed.items.map((item: Json) => item.iri)).toContain(eu.instance.iri);
    const consumers = await same(
      'find_capable_software',
      { artifact: a[1], basis: 'both' },
      `/api/v1/capabilities?basis=both&artifact=${encodeURIComponent(a[1]!)}`,
    );
    expect(consumers.consumed_by.map((entry: Json) => entry.instance)).toEqual([us.instance.iri]);
    const refused = await callTool(await connectMcp({ app }, '2026-07-28'), 'find_capable_software', {
      basis: 'guessed',
    });
    expect(refused).toMatchObject({
      isError: true,
      text: 'Bad request: basis must be one of declared, observed, both, got "guessed"',
    });
  });

  it('subscribes with a CloudEvents body signed by Standard Webhooks, which impact then names as notified', async () => {
    const producer = await api.deployment(undefined, 'producer');
    const subscriber = await api.deployment(undefined, 'subscriber');
    const created = await tool(
      'create_subscription',
      {
        label: 'cloud events over mcp',
        webhook_url: receiver.url('/mcp-hook'),
        format: 'cloudevents',
        signature: 'standard-webhooks',
        filter: { instance: [producer.instance.iri] },
      },
      subscriber.token,
    );
    expect(created.subscription).toMatchObject({ format: 'cloudevents', signature: 'standard-webhooks' });
    expect(created.secret).toMatch(/^whsec_/);
    const made = await api.advertise(producer.token, 'produced', 'notify-1', [artifact('Announced')]);
    const announced = made.artifacts[0] as string;
    await new WebhookSender(core, { now: () => new Date() }).tick();
    const request = receiver.received.find((entry) => entry.path === '/mcp-hook');
    expect(request).toBeDefined();
    const headers = Object.fromEntries(
      ['webhook-id', 'webhook-timestamp', 'webhook-signature'].map((name) => [
        name,
        String(request!.headers[name]),
      ]),
    );
    const event = new Webhook(created.secret as string).verify(request!.body, headers) as Json;
    expect(event).toMatchObject({
      specversion: '1.0',
      type: 'org.reg.artifact.advertised',
      subject: announced,
      data: { artifact: { title: 'Announced' } },
    });
    const impact = await same(
      'impact',
      { of: announced },
      `/api/v1/impact?of=${encodeURIComponent(announced)}`,
      ROOT_TOKEN,
    );
    expect(impact.subscriptions).toEqual([
      expect.objectContaining({ id: created.subscription.id, instance: subscriber.instance.iri }),
    ]);
    const refused = await callTool(
      await connectMcp({ app }, '2026-07-28', subscriber.token),
      'create_subscription',
      { webhook_url: receiver.url('/never'), format: 'xml' },
    );
    expect(refused).toMatchObject({
      isError: true,
      text: 'Bad request: format must be one of reg, cloudevents, cdevents, got "xml"',
    });
  });
});
