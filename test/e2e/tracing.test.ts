import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOtlpCollector, type OtlpCollector, type ReceivedSpan } from '../support/otlp.js';
import { startReceiver, type Receiver } from '../support/receivers.js';
import { artifact, type Json } from '../support/api.js';
import { ROOT_TOKEN, startServe, testEnv, waitFor, type ServerProcess } from '../helpers.js';

/** A W3C trace context header: version, trace id, parent span id, flags. */
const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-0[01]$/;

describe('tracing over OTLP/HTTP', () => {
  let collector: OtlpCollector;
  let hook: Receiver;
  let server: ServerProcess;

  const api = async (method: string, path: string, body?: unknown, token = ROOT_TOKEN, headers = {}) => {
    const response = await fetch(`${server.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...headers },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    expect(response.status, `${method} ${path}: ${text}`).toBeLessThan(300);
    return JSON.parse(text) as Json;
  };
  const deployment = async (label: string) => {
    const software = await api('POST', '/api/v1/software', { name: `software of ${label}` });
    const instance = await api('POST', '/api/v1/instances', { software: software.id, label });
    const minted = await api('POST', `/api/v1/instances/${instance.id}/tokens`, {
      scopes: ['advertise:produce', 'subscribe:artifacts'],
    });
    return { instance, token: minted.token as string };
  };

  beforeAll(async () => {
    collector = await startOtlpCollector();
    hook = await startReceiver();
    server = await startServe(
      testEnv({
        OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
        OTEL_SERVICE_NAME: 'reg-under-test',
        OTEL_BSP_SCHEDULE_DELAY: '100',
        REG_SUBSCRIPTION_ALLOW_HTTP: 'true',
        REG_SUBSCRIPTION_ALLOW_PRIVATE_TARGETS: 'true',
        REG_SUBSCRIPTION_TICK: '200ms',
        REG_SUBSCRIPTION_WEBHOOKS: 'true',
      }),
    );
  });
  afterAll(async () => {
    await server.stop();
    await hook.close();
    await collector.close();
  });

  it('exports the spans of an advertisement, continuing the caller trace, and carries it on to a webhook', async () => {
    const producer = await deployment('traced producer');
    const subscriber = await deployment('traced subscriber');
    await api(
      'POST',
      `/api/v1/instances/${subscriber.instance.id}/subscriptions`,
      { webhook_url: hook.url('/hook') },
      subscriber.token,
    );
    // The caller's own trace: the registry's server span must be its child.
    const callerTrace = '4bf92f3577b34da6a3ce929d0e0e4736';
    const callerSpan = '00f067aa0ba902b7';
    await api(
      'POST',
      '/api/v1/advertise/produced',
      { run: { external_key: 'traced-1' }, artifacts: [artifact('traced output')] },
      producer.token,
      { traceparent: `00-${callerTrace}-${callerSpan}-01`, 'x-request-id': 'traced-advertise' },
    );

    const inTrace = (): ReceivedSpan[] => collector.spans.filter((span) => span.traceId === callerTrace);
    const named = (name: string): ReceivedSpan | undefined => inTrace().find((span) => span.name === name);
    // The embedded store's commit updates its query index in a span of its own; the external store's commit is
    // the update request to its server, so it has none.
    const embedded = process.env.REG_TEST_GRAPH !== 'sparql';
    const expected = ['POST /api/v1/advertise/produced', 'reg.validate', 'reg.commit'];
    if (embedded) expected.push('reg.index.update');
    await waitFor(() => expected.every((name) => named(name) !== undefined), 20_000);
    const root = named('POST /api/v1/advertise/produced');
    expect(root).toMatchObject({
      parentSpanId: callerSpan,
      kind: 2, // server
      service: 'reg-under-test',
      attributes: { 'http.route': '/api/v1/advertise/produced', 'http.response.status_code': 201 },
    });
    expect(named('reg.validate')?.parentSpanId).toBe(root?.spanId);
    const commits = inTrace().filter((span) => span.name === 'reg.commit');
    expect(commits.some((span) => span.parentSpanId === root?.spanId)).toBe(true);
    if (embedded) {
      const update = named('reg.index.update');
      expect(commits.map((span) => span.spanId)).toContain(update?.parentSpanId);
    } else {
      expect(named('reg.index.update')).toBeUndefined();
    }

    // The webhook delivery made for the advertisement carries a traceparent of the registry's.
    await waitFor(() => hook.received.length > 0, 20_000);
    const header = String(hook.received[0]?.headers.traceparent);
    const [, traceId, parentId] = TRACEPARENT.exec(header) ?? [];
    expect(traceId, header).toMatch(/^[0-9a-f]{32}$/);
    await waitFor(() => collector.spans.some((span) => span.spanId === parentId), 20_000);
    const outgoing = collector.spans.find((span) => span.spanId === parentId);
    expect(outgoing).toMatchObject({ kind: 3, name: 'POST', attributes: { 'url.path': '/hook' } });
  });

  it('answers without a traceparent as before, starting a trace of its own', async () => {
    const before = new Set(collector.spans.map((span) => span.traceId));
    const response = await fetch(`${server.url}/api/v1/software`, {
      headers: { authorization: `Bearer ${ROOT_TOKEN}` },
    });
    expect(response.status).toBe(200);
    await waitFor(
      () =>
        collector.spans.some(
          (span) =>
            span.name === 'GET /api/v1/software' &&
            !before.has(span.traceId) &&
            span.parentSpanId === undefined,
        ),
      20_000,
    );
  });
});
