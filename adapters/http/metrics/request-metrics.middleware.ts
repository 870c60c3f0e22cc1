import type { RouteResolver } from '../access-log.middleware.js';
import type { HttpMiddleware } from '../http-state.js';
import type { HttpMetrics } from './http-metrics.js';

/**
 * Counts and times every answer, by route template (never the URL: paths are the caller's text and would
 * make unbounded series). Placed outside the error middleware, so it sees the final status of errors too.
 */
export function requestMetricsMiddleware(metrics: HttpMetrics, routeOf: RouteResolver): HttpMiddleware {
  return async (ctx, next) => {
    const started = process.hrtime.bigint();
    try {
      await next();
    } finally {
      const rateLimited = ctx.state.problemCode === 'rate_limited' ? (ctx.state.principal === undefined ? 'address' : 'key') : null;
      metrics.requestFinished({
        method: ctx.method,
        route: routeOf(ctx.path, ctx.method),
        status: ctx.status,
        rateLimited,
        durationSeconds: Number(process.hrtime.bigint() - started) / 1e9,
      });
    }
  };
}
