import { Router } from '@koa/router';
import Koa from 'koa';
import { accessLogMiddleware, type RouteResolver } from './access-log.middleware.js';
import { compressionMiddleware } from './compression.middleware.js';
import { entityTagCodingMiddleware } from './entity-tag.js';
import { errorMiddleware } from './error.middleware.js';
import { gatekeeperMiddleware } from './gatekeeper.middleware.js';
import type { HttpDependencies } from './http-dependencies.js';
import { API_ROOT, type HttpState } from './http-state.js';
import { requestMetricsMiddleware } from './metrics/request-metrics.middleware.js';
import { buildOpenApiDocument } from './openapi-document.js';
import { noStoreMiddleware } from './no-store.middleware.js';
import { requestIdMiddleware } from './request-id.middleware.js';
import { routeFallbackMiddleware } from './route-fallback.middleware.js';
import { serverSpanMiddleware } from './server-span.middleware.js';
import { registerApplicationRoutes } from './routes/application-routes.js';
import { registerListRoutes } from './routes/list-routes.js';
import { registerProbeRoutes } from './routes/probe-routes.js';

const CLIENT_GONE = new Set(['ERR_STREAM_PREMATURE_CLOSE', 'EPIPE', 'ECONNRESET', 'ECONNABORTED']);

/**
 * The Koa application of the integration API. The order of the middlewares is the design: every
 * response gets a request id and a log line; bodies are compressed when the client asks; every error becomes a
 * problem document; the gatekeeper authenticates and rate-limits before any route runs.
 */
export function createHttpApp(deps: HttpDependencies): Koa {
  const app = new Koa<HttpState>();
  // Behind N reverse proxies the client address (the rate-limit bucket of requests without a valid key) is the
  // entry of X-Forwarded-For N hops from the right: each proxy appends what it saw, and whatever stands further
  // left was written by the client, who could otherwise pick a fresh budget with every request.
  const proxyHops = deps.settings.trustProxy ?? 0;
  app.proxy = proxyHops > 0;
  app.maxIpsCount = proxyHops;
  // The error middleware answers every error; Koa's own handler would print to stderr.
  app.silent = true;
  app.on('error', (error: unknown) => {
    // A client that hangs up while a streamed (compressed) body is still being written is no fault of ours.
    if (CLIENT_GONE.has((error as { code?: unknown } | null)?.code as string)) deps.logger.debug({ err: error }, 'client left before the body was sent');
    else deps.logger.error({ err: error }, 'error outside the request pipeline');
  });

  // Case-sensitive, like the gatekeeper's path test: /API/... must not reach a route by another way.
  const probes = new Router<HttpState>({ sensitive: true });
  registerProbeRoutes(probes, deps);

  const api = new Router<HttpState>({ prefix: API_ROOT, sensitive: true });
  const openApi = JSON.stringify(buildOpenApiDocument(deps.settings));
  api.get('/openapi.json', (ctx) => {
    ctx.type = 'application/json';
    ctx.body = openApi;
  });
  registerListRoutes(api, deps);
  registerApplicationRoutes(api, deps);

  const routeOf: RouteResolver = (path, method) => routeTemplate(probes, path, method) ?? routeTemplate(api, path, method);
  if (deps.tracing !== undefined) app.use(serverSpanMiddleware<HttpState>(deps.tracing, routeOf, (ctx) => ctx.state.principal?.companyId));
  app.use(requestIdMiddleware);
  app.use(noStoreMiddleware);
  app.use(accessLogMiddleware(deps.logger, routeOf));
  if (deps.metrics !== undefined) app.use(requestMetricsMiddleware(deps.metrics, routeOf));
  // Inside the log and the metrics (they see the status and the time to the body), outside the error
  // middleware (a problem document is a body like any other).
  app.use(entityTagCodingMiddleware);
  app.use(compressionMiddleware());
  app.use(errorMiddleware(deps.logger));
  app.use(gatekeeperMiddleware(deps));
  app.use(routeFallbackMiddleware);
  app.use(probes.routes());
  app.use(api.routes());
  return app;
}

function routeTemplate(router: Router<HttpState>, path: string, method: string): string | null {
  const layer = router.match(path, method).pathAndMethod[0];
  return typeof layer?.path === 'string' ? layer.path : null;
}
