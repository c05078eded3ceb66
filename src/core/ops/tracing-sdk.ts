import { context, propagation, SpanStatusCode, trace, type Context } from '@opentelemetry/api';
import http, { type ClientRequest, type IncomingMessage, type RequestOptions } from 'node:http';
import https from 'node:https';
import type { Logger } from '../log.js';
import { startClientSpan } from './tracing.js';

/** The OpenTelemetry settings tracing starts from: the standard `OTEL_*` variables. */
export interface TracingSettings {
  /** `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` or `OTEL_EXPORTER_OTLP_ENDPOINT`: tracing is off without one. */
  readonly endpoint: string | undefined;
  /** `OTEL_SERVICE_NAME`, `reg` when unset. */
  readonly serviceName: string;
  readonly version: string;
  /** `OTEL_BSP_SCHEDULE_DELAY`: milliseconds between two exports of finished spans (5000 when unset). */
  readonly scheduleDelayMs: number;
}

/** Tracing as started in this process: flushes and stops the export. */
export interface Tracing {
  stop(): Promise<void>;
}

/** The OpenTelemetry settings named by the environment of the process. */
export function tracingSettings(
  env: Readonly<Record<string, string | undefined>>,
  version: string,
): TracingSettings {
  const named = (name: string): string | undefined => {
    const value = env[name]?.trim();
    return value === undefined || value === '' ? undefined : value;
  };
  return {
    endpoint: named('OTEL_EXPORTER_OTLP_TRACES_ENDPOINT') ?? named('OTEL_EXPORTER_OTLP_ENDPOINT'),
    serviceName: named('OTEL_SERVICE_NAME') ?? 'reg',
    version,
    scheduleDelayMs: Math.max(1, Number(named('OTEL_BSP_SCHEDULE_DELAY') ?? 5000) || 5000),
  };
}

/**
 * Starts exporting spans over OTLP/HTTP (JSON) when an endpoint is configured, and returns undefined, having
 * loaded nothing, when none is. The exporter reads the endpoint, headers and batch settings from the same
 * `OTEL_*` variables. The tracer provider, context manager and propagator of OpenTelemetry are global to a
 * process, so this is done once per process, by whoever serves.
 */
export async function startTracing(settings: TracingSettings, log: Logger): Promise<Tracing | undefined> {
  if (settings.endpoint === undefined) return undefined;
  const [
    { AsyncLocalStorageContextManager },
    { isTracingSuppressed, W3CTraceContextPropagator },
    { resourceFromAttributes },
  ] = await Promise.all([
    import('@opentelemetry/context-async-hooks'),
    import('@opentelemetry/core'),
    import('@opentelemetry/resources'),
  ]);
  const [{ BatchSpanProcessor, TracerProvider }, { OTLPTraceExporter }] = await Promise.all([
    import('@opentelemetry/sdk-trace'),
    import('@opentelemetry/exporter-trace-otlp-http'),
  ]);
  const provider = new TracerProvider({
    resource: resourceFromAttributes({
      'service.name': settings.serviceName,
      'service.version': settings.version,
    }),
    spanProcessors: [
      new BatchSpanProcessor({
        exporter: new OTLPTraceExporter(),
        scheduledDelayMillis: settings.scheduleDelayMs,
      }),
    ],
  });
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(provider);
  traceOutgoingCalls(isTracingSuppressed);
  log.info('tracing: spans are exported over OTLP/HTTP', { service: settings.serviceName });
  return {
    stop: async () => {
      await provider.shutdown();
    },
  };
}

/**
 * Gives every outgoing HTTP call (webhooks, peers, forges, an external SPARQL store) a client span and a
 * `traceparent` header. Every such call goes through `request` of `node:http` or `node:https` with an options
 * object, so those two functions are wrapped, as OpenTelemetry's own HTTP instrumentation does; only while
 * tracing runs.
 */
function traceOutgoingCalls(suppressed: (active: Context) => boolean): void {
  for (const module of [http, https]) {
    const original = module.request as (...args: unknown[]) => ClientRequest;
    const traced = function (this: unknown, ...args: unknown[]): ClientRequest {
      const [given] = args;
      // The exporter's own calls are made with tracing suppressed: tracing them would never end.
      if (typeof given !== 'object' || given === null || given instanceof URL || suppressed(context.active()))
        return original.apply(this, args);
      const options = given as RequestOptions;
      const target = targetOf(options, module === https ? 'https:' : 'http:');
      // Headers given as a flat list are left as they are: the call is still made, without a span.
      if (target === undefined || Array.isArray(options.headers)) return original.apply(this, args);
      const span = startClientSpan(options.method ?? 'GET', target);
      const carrier: Record<string, string> = {};
      propagation.inject(trace.setSpan(context.active(), span), carrier);
      args[0] = {
        ...options,
        headers: { ...options.headers, ...carrier },
      };
      let request: ClientRequest;
      try {
        request = original.apply(this, args);
      } catch (error) {
        span.end();
        throw error;
      }
      request.once('response', (response: IncomingMessage) => {
        span.setAttribute('http.response.status_code', response.statusCode ?? 0);
        if ((response.statusCode ?? 0) >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      });
      request.once('error', (error) =>
        span.setStatus({ code: SpanStatusCode.ERROR, message: error.message }),
      );
      request.once('close', () => span.end());
      return request;
    };
    module.request = traced;
  }
}

/** The URL a request's options name, or undefined when they name none that parses. */
function targetOf(options: RequestOptions, scheme: string): URL | undefined {
  const host = options.hostname ?? options.host ?? 'localhost';
  const port = options.port === undefined || options.port === null ? '' : `:${String(options.port)}`;
  const bracketed = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
  try {
    return new URL(`${options.protocol ?? scheme}//${bracketed}${port}${options.path ?? '/'}`);
  } catch {
    return undefined;
  }
}
