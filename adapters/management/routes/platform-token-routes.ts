import type { Router } from '@koa/router';
import { refuseUnknownParameters } from '../../http/list-query.js';
import { actorOf } from '../actor-header.js';
import { callerOf } from '../management-gatekeeper.middleware.js';
import type { ManagementState } from '../management-state.js';
import { presentPlatformToken } from '../presenters/platform-token.presenter.js';

/**
 * GET /platform-token: the token of the request itself, with what it may do, so that a platform service (the
 * "Service keys" page) can show it and offer only what it may. It needs no scope: it tells a caller only what
 * the caller holds already.
 */
export function registerPlatformTokenRoutes(router: Router<ManagementState>): void {
  router.get('/platform-token', (ctx) => {
    actorOf(ctx);
    refuseUnknownParameters(ctx.querystring, []);
    ctx.body = presentPlatformToken(callerOf(ctx));
  });
}
