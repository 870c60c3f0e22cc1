import type { Middleware } from 'koa';
import type { Logger } from 'pino';
import type { HttpState } from './http-state.js';

/** The route template a request is for, or null when none matches; also for requests refused before routing. */
export type RouteResolver = (path: string, method: string) => string | null;

/** Who called, as the log line names them: ids only, never a secret. */
export type CallerFields<S> = (state: S) => Readonly<Record<string, string | null>>;

const keyIdOf: CallerFields<HttpState> = (state) => ({ keyId: state.principal?.keyId ?? null });

/**
 * One line per request. It names the route template, never the URL: paths and query strings are the
 * caller's text, and only fixed, known values go into the log (no key, no personal data). `callerOf` names
 * the caller: the service key's id here, the platform token's id on the management listener.
 */
export function accessLogMiddleware<S extends HttpState = HttpState>(
  logger: Logger,
  routeOf: RouteResolver,
  callerOf: CallerFields<S> = keyIdOf,
): Middleware<S> {
  return async (ctx, next) => {
    const started = process.hrtime.bigint();
    try {
      await next();
    } finally {
      // LOG_LEVEL above info: a line that would not be written is not built (the route's template is two router matches).
      if (ctx.status < 500 ? logger.isLevelEnabled('info') : logger.isLevelEnabled('error')) logLine();
    }
    function logLine(): void {
      const durationMs = Number(process.hrtime.bigint() - started) / 1e6;
      const line = {
        requestId: ctx.state.requestId,
        ...callerOf(ctx.state),
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
