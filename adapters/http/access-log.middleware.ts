import type { Logger } from 'pino';
import type { HttpMiddleware } from './http-state.js';

/** The route template a request is for, or null when none matches; also for requests refused before routing. */
export type RouteResolver = (path: string, method: string) => string | null;

/**
 * One line per request. It names the route template, never the URL: paths and query strings are the
 * caller's text, and only fixed, known values go into the log (no key, no personal data).
 */
export function accessLogMiddleware(logger: Logger, routeOf: RouteResolver): HttpMiddleware {
  return async (ctx, next) => {
    const started = process.hrtime.bigint();
    try {
      await next();
    } finally {
      const durationMs = Number(process.hrtime.bigint() - started) / 1e6;
      const line = {
        requestId: ctx.state.requestId,
        keyId: ctx.state.principal?.keyId ?? null,
        method: ctx.method,
        route: routeOf(ctx.path, ctx.method),
        status: ctx.status,
        code: ctx.state.problemCode ?? null,
        durationMs: Math.round(durationMs * 100) / 100,
      };
      if (ctx.status >= 500) logger.error(line, 'request');
      else logger.info(line, 'request');
    }
  };
}
