import { context, SpanKind, SpanStatusCode, trace, type Attributes, type Span } from '@opentelemetry/api';

/** The name the registry's spans are made under. */
const TRACER = 'reg';

/**
 * Runs `run` in a span of its own, a child of the span active in the caller. While no tracing is set up (no OTLP
 * endpoint configured) the OpenTelemetry API hands out spans that record nothing, so this costs next to nothing.
 */
export async function traced<T>(name: string, run: () => Promise<T>, attributes?: Attributes): Promise<T> {
  return trace
    .getTracer(TRACER)
    .startActiveSpan(name, attributes === undefined ? {} : { attributes }, async (span) => {
      try {
        return await run();
      } catch (error) {
        failed(span, error);
        throw error;
      } finally {
        span.end();
      }
    });
}

/** Marks a span failed with the error's message (never a payload: messages are the public details). */
export function failed(span: Span, error: unknown): void {
  span.setStatus({
    code: SpanStatusCode.ERROR,
    message: error instanceof Error ? error.message : String(error),
  });
}

/** Starts the span of an outgoing HTTP call, a child of the active span; the caller ends it. */
export function startClientSpan(method: string, url: URL): Span {
  return trace.getTracer(TRACER).startSpan(
    method,
    {
      kind: SpanKind.CLIENT,
      attributes: {
        'http.request.method': method,
        'server.address': url.hostname,
        'server.port': Number(url.port || (url.protocol === 'https:' ? 443 : 80)),
        // The path alone: a query string may carry a caller's search terms or a credential.
        'url.path': url.pathname,
      },
    },
    context.active(),
  );
}
