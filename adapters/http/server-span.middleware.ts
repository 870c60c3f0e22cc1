import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Attributes, type Tracer } from '@opentelemetry/api';
import type { Middleware, ParameterizedContext } from 'koa';
import { ATTRIBUTES } from '../telemetry/spans.js';
import type { RouteResolver } from './access-log.middleware.js';

/** With tracing on: the tracer of the request spans and the region this listener serves. */
export interface TracingSettings {
  readonly tracer: Tracer;
  readonly region: string;
}

/** Asked every few seconds by balancers and Prometheus: a trace each would bury the requests. */
const UNTRACED_PATHS: ReadonlySet<string> = new Set(['/healthz', '/readyz', '/metrics']);

/**
 * The request's span (kind SERVER, OpenTelemetry's HTTP conventions), the parent of everything the request does: it
 * continues the caller's trace when a W3C `traceparent` comes with the request (the propagator the SDK registers),
 * and ends when the response has been written, body included. Named by the route's template, never the URL (no
 * `url.path`, no `user_agent.original`: the caller's text, which the access log never writes); the query's
 * parameter names only, never their values; the region and the company the request is for: fixed values and ids
 * only, as in the access log. The outermost middleware, so that the log lines of the request carry its trace_id and
 * span_id. Our own rather than the node:http instrumentation's, which cost more than half of tracing's CPU a
 * request (ADR 28).
 */
export function serverSpanMiddleware<S>(
  tracing: TracingSettings,
  routeOf: RouteResolver,
  companyOf: (ctx: ParameterizedContext<S>) => string | undefined,
): Middleware<S> {
  return (ctx, next) => {
    if (UNTRACED_PATHS.has(ctx.path)) return next();
    const parent = propagation.extract(ROOT_CONTEXT, ctx.headers);
    const attributes: Attributes = {
      'http.request.method': ctx.method,
      'url.scheme': ctx.protocol,
      'network.protocol.version': ctx.req.httpVersion,
      [ATTRIBUTES.region]: tracing.region,
    };
    if (ctx.querystring !== '') attributes['url.query'] = queryNamesOnly(ctx.querystring);
    const span = tracing.tracer.startSpan(ctx.method, { kind: SpanKind.SERVER, attributes }, parent);
    // Named once the request has been handled, or when the connection closes first (a caller that hung up):
    // whichever comes first, so that an ended span is never changed.
    let named = false;
    const name = () => {
      if (named) return;
      named = true;
      const route = routeOf(ctx.path, ctx.method);
      const companyId = companyOf(ctx);
      if (companyId !== undefined) span.setAttribute(ATTRIBUTES.companyId, companyId);
      if (route !== null) {
        span.setAttribute(ATTRIBUTES.route, route);
        span.updateName(`${ctx.method} ${route}`);
      }
    };
    // Ended once the response is written or the connection closed under it: a list page is written after the
    // middleware has returned.
    ctx.res.once('close', () => {
      name();
      const status = ctx.res.headersSent ? ctx.res.statusCode : 0;
      if (status > 0) span.setAttribute('http.response.status_code', status);
      if (status >= 500 || !ctx.res.writableFinished) {
        span.setAttribute('error.type', status >= 500 ? String(status) : 'aborted');
        span.setStatus({ code: SpanStatusCode.ERROR });
      }
      span.end();
    });
    return context.with(trace.setSpan(parent, span), async () => {
      try {
        await next();
      } finally {
        name();
      }
    });
  };
}

/** `url.query` with its values out (a caller may put anything in one): the parameters' names only. */
function queryNamesOnly(querystring: string): string {
  return [...new URLSearchParams(querystring).keys()].map((name) => `${name}=REDACTED`).join('&');
}
