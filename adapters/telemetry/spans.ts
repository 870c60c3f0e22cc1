import { SpanStatusCode, trace, type Attributes, type Span, type Tracer } from '@opentelemetry/api';

/** The name our own spans are made under, the requests' among them (pg's instrumentation names its own). */
export const TRACER_NAME = 'integration-api';

/** Attribute names of our own spans: ids and fixed values only, never a person's data. */
export const ATTRIBUTES = {
  companyId: 'app.company.id',
  region: 'app.region',
  useCase: 'app.use_case',
  route: 'http.route',
  lockMode: 'app.lock.mode',
} as const;

/** Runs `work` in an active span that ends with it; a failure sets the span's error status (its type, never its message). */
export async function inSpan<T>(tracer: Tracer, name: string, attributes: Attributes, work: (span: Span) => Promise<T>): Promise<T> {
  return tracer.startActiveSpan(name, { attributes }, async (span) => {
    try {
      return await work(span);
    } catch (error) {
      // Only the error's name: the message of an error from deep down may quote the data it was about.
      span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.name : typeof error });
      throw error;
    } finally {
      span.end();
    }
  });
}

/**
 * `work` in a child span of the active one, when there is one (a request or an event being traced); else
 * `work` alone, at no cost: with tracing off there never is an active span.
 */
export function inChildSpan<T>(name: string, attributes: Attributes, work: () => Promise<T>): Promise<T> {
  if (trace.getActiveSpan() === undefined) return work();
  return inSpan(trace.getTracer(TRACER_NAME), name, attributes, work);
}

/** The company lock's span (its wait, and the clock read sent with it): the company and the lock's mode. */
export function lockAttributes(companyId: string, mode: string): Attributes {
  return { [ATTRIBUTES.companyId]: companyId, [ATTRIBUTES.lockMode]: mode };
}
