import type { Core } from '../../core/core.js';
import { startTracing, tracingSettings, type Tracing } from '../../core/ops/tracing-sdk.js';

/**
 * Tracing as started for this process. OpenTelemetry's tracer provider, context manager and propagator are
 * process-wide, so the first application served starts it and the others share it.
 */
let started: Promise<Tracing | undefined> | undefined;

/**
 * Starts tracing when the environment names an OTLP endpoint (`OTEL_EXPORTER_OTLP_ENDPOINT` or
 * `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`); without one nothing is loaded. A failure to start is logged and the
 * registry serves untraced.
 */
export function ensureTracing(core: Core): Promise<Tracing | undefined> {
  started ??= startTracing(tracingSettings(process.env, core.version), core.log).catch((error: unknown) => {
    core.log.error('tracing could not start; serving without it', { detail: (error as Error).message });
    return undefined;
  });
  return started;
}

/** Flushes the spans not yet exported and stops tracing, at shutdown. */
export async function stopTracing(): Promise<void> {
  await (await started)?.stop();
}
