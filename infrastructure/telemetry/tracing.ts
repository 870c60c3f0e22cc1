import { trace, type Tracer } from '@opentelemetry/api';
import type { TracingSettings } from '../../adapters/http/server-span.middleware.js';
import { TRACER_NAME } from '../../adapters/telemetry/spans.js';

/** What startTracing left running in this process: nothing when tracing is off. */
let running: { readonly tracer: Tracer; readonly shutdown: () => Promise<void> } | undefined;

/** Called once the SDK is registered (start-tracing.ts). */
export function tracingStarted(shutdown: () => Promise<void>): void {
  running = { tracer: trace.getTracer(TRACER_NAME), shutdown };
}

/**
 * The tracer for our own spans while tracing is on; undefined when it is off, so that callers skip span work
 * altogether rather than make no-op spans on every request.
 */
export function activeTracer(): Tracer | undefined {
  return running?.tracer;
}

/** What the HTTP listeners need to make each request's span, for the region they serve; undefined when tracing is off. */
export function requestTracing(region: string): TracingSettings | undefined {
  return running === undefined ? undefined : { tracer: running.tracer, region };
}

/**
 * Exports the spans still held, then stops the SDK: the last step of a stop, after the requests and events in
 * flight have ended. Bounded by the exporter's own timeout (OTEL_EXPORTER_OTLP_TIMEOUT); a collector away
 * loses those spans and never holds the exit, nor fails it.
 */
export async function stopTracing(): Promise<void> {
  const stopping = running;
  running = undefined;
  await stopping?.shutdown().catch(() => undefined);
}
