import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { Context, MiddlewareHandler } from 'hono';
import type { Core } from '../../core/core.js';
import { coreMetrics } from '../../core/ops/metrics.js';
import type { AppEnv } from '../env.js';
import { countIngestion } from './ingestion.js';
import { principalKind, routeTemplate, statusClass } from './route-label.js';
import { ensureTracing } from './tracing.js';

/** Paths polled by orchestrators and scrapers: their lines go to the debug level, so they do not drown the rest. */
const PROBES = new Set(['/healthz', '/readyz', '/metrics']);

/** Whether each request is logged (`REG_ACCESS_LOG`, on unless set to false). */
function accessLogOn(core: Core): boolean {
  return core.config.accessLog;
}

/**
 * Observes each request: a server span (continuing the caller's `traceparent`), the request counters and
 * latency histograms by route template, in-flight requests, ingestion outcomes, and one access-log line. It runs
 * first, so that requests refused by any later middleware are observed too.
 */
export function observeRequests(core: Core): MiddlewareHandler<AppEnv> {
  const metrics = coreMetrics(core);
  void ensureTracing(core);
  const logging = accessLogOn(core);
  const tracer = trace.getTracer('reg');
  return async (c, next) => {
    const started = performance.now();
    metrics.httpInFlight.inc();
    const parent = propagation.extract(ROOT_CONTEXT, c.req.header());
    const span = tracer.startSpan(c.req.method, { kind: SpanKind.SERVER }, parent);
    try {
      await context.with(trace.setSpan(parent, span), next);
    } finally {
      metrics.httpInFlight.dec();
    }
    const seconds = (performance.now() - started) / 1000;
    const route = routeTemplate(c);
    const status = c.res.status;
    metrics.httpRequests.inc({ method: c.req.method, route, status: String(status) });
    metrics.httpDuration.observe({ method: c.req.method, route, status_class: statusClass(status) }, seconds);
    span.updateName(`${c.req.method} ${route}`);
    span.setAttributes({
      'http.request.method': c.req.method,
      'http.route': route,
      'http.response.status_code': status,
      'reg.request_id': c.get('requestId'),
    });
    if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
    span.end();
    await countIngestion(c, route, metrics);
    if (logging) logRequest(core, c, route, seconds);
  };
}

/** The access-log line of a request: what was asked and answered, and by what kind of caller, never who. */
function logRequest(core: Core, c: Context<AppEnv>, route: string, seconds: number): void {
  const length = c.res.headers.get('content-length');
  const fields = {
    method: c.req.method,
    route,
    path: c.req.path,
    status: c.res.status,
    bytes: length === null ? null : Number(length),
    duration_ms: Math.round(seconds * 1e6) / 1000,
    principal: principalKind(c),
    request_id: c.get('requestId'),
  };
  if (PROBES.has(c.req.path)) core.log.debug('request', fields);
  else core.log.info('request', fields);
}
