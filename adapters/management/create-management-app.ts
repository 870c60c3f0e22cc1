import { Router } from '@koa/router';
import Koa from 'koa';
import { accessLogMiddleware, type RouteResolver } from '../http/access-log.middleware.js';
import { errorMiddleware } from '../http/error.middleware.js';
import { noStoreMiddleware } from '../http/no-store.middleware.js';
import { requestIdMiddleware } from '../http/request-id.middleware.js';
import { routeFallbackFor } from '../http/route-fallback.middleware.js';
import { serverSpanMiddleware } from '../http/server-span.middleware.js';
import { managementGatekeeperMiddleware } from './management-gatekeeper.middleware.js';
import type { ManagementDependencies } from './management-dependencies.js';
import { MANAGEMENT_OPENAPI_PATH, MANAGEMENT_ROOT, platformTokenChallenge, type ManagementState } from './management-state.js';
import { buildManagementOpenApiDocument } from './openapi/management-openapi-document.js';
import { registerCompanyRoutes } from './routes/company-routes.js';
import { registerKeyRoutes } from './routes/key-routes.js';
import { registerPlatformTokenRoutes } from './routes/platform-token-routes.js';

/**
 * The Koa application of the management API (DESIGN 4b), for the platform's own services on a listener of
 * their own. The public API's transport conventions, from the same middlewares: a request id and a log line
 * for every answer, Cache-Control: no-store, every error a problem document; the gatekeeper authenticates the
 * platform token and rate-limits before any route runs. Routes call use cases only.
 */
export function createManagementApp(deps: ManagementDependencies): Koa<ManagementState> {
  const app = new Koa<ManagementState>();
  // The listener is for the platform's internal network: no proxy's X-Forwarded-For is trusted.
  app.proxy = false;
  // The error middleware answers every error; Koa's own handler would print to stderr.
  app.silent = true;
  app.on('error', (error: unknown) => deps.logger.error({ err: error }, 'error outside the management request pipeline'));

  // Case-sensitive, like the gatekeeper's path test: /INTERNAL/... must not reach a route by another way.
  const api = new Router<ManagementState>({ prefix: MANAGEMENT_ROOT, sensitive: true });
  const openApi = JSON.stringify(buildManagementOpenApiDocument(deps.settings));
  api.get('/openapi.json', (ctx) => {
    ctx.type = 'application/json';
    ctx.body = openApi;
  });
  registerCompanyRoutes(api, deps);
  registerKeyRoutes(api, deps);
  registerPlatformTokenRoutes(api);

  const routeOf: RouteResolver = (path, method) => {
    const layer = api.match(path, method).pathAndMethod[0];
    return typeof layer?.path === 'string' ? layer.path : null;
  };
  if (deps.tracing !== undefined) app.use(serverSpanMiddleware<ManagementState>(deps.tracing, routeOf, (ctx) => (ctx.params as Record<string, string> | undefined)?.companyId));
  app.use(requestIdMiddleware);
  app.use(noStoreMiddleware);
  // The token's id names the caller; the actor (a person) and the token itself never reach the log.
  app.use(accessLogMiddleware<ManagementState>(deps.logger, routeOf, (state) => ({ tokenId: state.caller?.tokenId ?? null })));
  app.use(errorMiddleware<ManagementState>(deps.logger, platformTokenChallenge));
  app.use(managementGatekeeperMiddleware(deps));
  app.use(routeFallbackFor(MANAGEMENT_OPENAPI_PATH));
  app.use(api.routes());
  return app;
}
