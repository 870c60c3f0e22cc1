import { trace, type Attributes } from '@opentelemetry/api';
import type { Middleware, ParameterizedContext } from 'koa';
import { ATTRIBUTES } from '../telemetry/spans.js';
import type { RouteResolver } from './access-log.middleware.js';

/** With tracing on: the region this listener serves, put on every request's span. */
export interface TracingSettings {
  readonly region: string;
}

/**
 * Names the request's span (the HTTP instrumentation's) by its route template, never its URL, and gives it the
 * region and the company the request is for: fixed values and ids only, as in the access log. Set once the
 * request is answered, when the caller and the route are known.
 */
export function spanAttributesMiddleware<S>(
  tracing: TracingSettings,
  routeOf: RouteResolver,
  companyOf: (ctx: ParameterizedContext<S>) => string | undefined,
): Middleware<S> {
  return async (ctx, next) => {
    try {
      await next();
    } finally {
      const span = trace.getActiveSpan();
      if (span !== undefined) {
        const route = routeOf(ctx.path, ctx.method);
        const companyId = companyOf(ctx);
        const attributes: Attributes = { [ATTRIBUTES.region]: tracing.region };
        if (companyId !== undefined) attributes[ATTRIBUTES.companyId] = companyId;
        if (route !== null) {
          attributes[ATTRIBUTES.route] = route;
          span.updateName(`${ctx.method} ${route}`);
        }
        span.setAttributes(attributes);
      }
    }
  };
}
