import { diag, DiagConsoleLogger, DiagLogLevel, SpanStatusCode, type Context } from '@opentelemetry/api';
import { OTLPTraceExporter as OtlpJsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as OtlpProtobufExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { defaultResource, detectResources, envDetector, resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, NodeTracerProvider, type ReadableSpan, type Span, type SpanProcessor } from '@opentelemetry/sdk-trace-node';
import { mainOperation, sqlWithoutValues } from './sql-text.js';
import type { OtlpHttpProtocol } from './tracing-settings.js';

/**
 * The SDK, loaded only when tracing is on (start-tracing.ts). Everything the standard variables say is read by
 * the SDK's own parts: the endpoint, headers, timeout and compression by the exporter; OTEL_TRACES_SAMPLER and
 * its argument by the provider; OTEL_BSP_* by the batch processor; OTEL_SERVICE_NAME and
 * OTEL_RESOURCE_ATTRIBUTES by the resource detector (over `defaultServiceName`). W3C trace context is the
 * propagator (the HTTP listeners' request spans continue a caller's trace with it: server-span.middleware.ts);
 * pg's instrumentation makes the statements' spans. Returns the shutdown, which exports what is still held.
 */
export function startTracingSdk(protocol: OtlpHttpProtocol, defaultServiceName: string): () => Promise<void> {
  // The SDK's own warnings and errors (a collector that refuses or cannot be reached) on stderr, beside the log.
  diag.setLogger(new DiagConsoleLogger(), DiagLogLevel.WARN);
  const exporter = protocol === 'http/json' ? new OtlpJsonExporter() : new OtlpProtobufExporter();
  const resource = defaultResource()
    .merge(resourceFromAttributes({ 'service.name': defaultServiceName }))
    .merge(detectResources({ detectors: [envDetector] }));
  const provider = new NodeTracerProvider({ resource, spanProcessors: [new NoValuesInSpans(new BatchSpanProcessor(exporter))] });
  provider.register();
  registerInstrumentations({
    tracerProvider: provider,
    instrumentations: [
      new PgInstrumentation({
        // A statement outside any request or event (a purge, a pool's housekeeping) makes no trace of its own.
        requireParentSpan: true,
        // The wait for a connection is no statement; the company lock's wait has a span of its own.
        ignoreConnectSpans: true,
        requestHook: (span, { query, connection }) => {
          const text = sqlWithoutValues(query.text);
          span.setAttribute('db.query.text', text);
          // Named as the instrumentation does (pg.query:<operation> <database>), by the statement after the bounds.
          const operation = query.name === undefined ? mainOperation(text) : undefined;
          if (operation !== undefined) span.updateName(`pg.query:${operation}${connection.database === undefined ? '' : ` ${connection.database}`}`);
        },
      }),
    ],
  });
  return () => provider.shutdown();
}

/**
 * The last guard before export: a PostgreSQL error's message may quote a value of the statement (an invalid
 * input, say), so a statement span keeps its error status and its error.type but never that message.
 * (onEnding: the SDK's hook while the span can still be changed.)
 */
class NoValuesInSpans implements SpanProcessor {
  constructor(private readonly next: SpanProcessor) {}

  onStart(span: Span, parentContext: Context): void {
    this.next.onStart(span, parentContext);
  }

  onEnding(span: Span): void {
    if (span.status.message !== undefined && span.attributes['db.system.name'] !== undefined) span.setStatus({ code: SpanStatusCode.ERROR });
  }

  onEnd(span: ReadableSpan): void {
    this.next.onEnd(span);
  }

  forceFlush(): Promise<void> {
    return this.next.forceFlush();
  }

  shutdown(): Promise<void> {
    return this.next.shutdown();
  }
}
