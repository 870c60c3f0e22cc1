import { PlatformUnauthorizedError } from '../../domain/platform-token/platform-token.js';
import { HttpProblem } from '../http/problem.js';
import type { ManagementDependencies } from './management-dependencies.js';
import { MANAGEMENT_OPENAPI_PATH, MANAGEMENT_ROOT, type ManagementContext, type ManagementMiddleware, type PlatformCaller } from './management-state.js';

/** `Authorization: Bearer <token>` (RFC 6750 2.1); the scheme's case is free, as RFC 9110 says. */
const BEARER = /^Bearer +(\S+)$/i;
/** The Bearer scheme with credentials after it, well-formed or not. */
const PRESENTED = /^Bearer\s+\S/i;

/**
 * Authentication and the rate limit, before routing, as the public gatekeeper does them.
 *
 * Everything under /internal/v1 but the OpenAPI document needs a platform token, unknown paths included, so
 * that a caller without one learns nothing about the routes. A request with a valid token spends that token's
 * budget; every other one spends its client address's, which also slows down anyone guessing tokens. The
 * buckets are named apart from the public listener's, so the two listeners never share a budget.
 */
export function managementGatekeeperMiddleware(
  deps: Pick<ManagementDependencies, 'authenticatePlatformToken' | 'rateLimiter' | 'settings'>,
): ManagementMiddleware {
  const { rateLimitPoints: points, rateLimitWindowS: windowS } = deps.settings;
  const policy = `"default";q=${points};w=${windowS}`;
  return async (ctx, next) => {
    const needsToken = ctx.path.startsWith(`${MANAGEMENT_ROOT}/`) && ctx.path !== MANAGEMENT_OPENAPI_PATH;
    const caller = needsToken ? await authenticate(deps, ctx) : null;
    if (caller !== null) ctx.state.caller = caller;

    const outcome = await deps.rateLimiter.consume(caller === null ? `management-address:${ctx.ip}` : `platform-token:${caller.tokenId}`);
    const resetS = Math.ceil(outcome.resetAfterMs / 1000);
    ctx.set('RateLimit-Policy', policy);
    ctx.set('RateLimit', `"default";r=${outcome.remaining};t=${resetS}`);
    if (!outcome.allowed) {
      ctx.set('Retry-After', String(Math.max(1, resetS)));
      throw new HttpProblem(429, 'rate_limited', 'Too many requests', `The request budget of ${points} requests per ${windowS} s is spent. Retry after the time given in Retry-After.`);
    }
    if (needsToken && caller === null) throw new PlatformUnauthorizedError();
    await next();
  };
}

/**
 * The token comes from the Authorization header only; anything else (no header, another scheme, the scheme
 * alone) is no token. Whatever follows the Bearer scheme was presented as one, and a 401 says it is invalid.
 */
async function authenticate(deps: Pick<ManagementDependencies, 'authenticatePlatformToken'>, ctx: ManagementContext): Promise<PlatformCaller | null> {
  const authorization = ctx.get('Authorization').trim();
  ctx.state.tokenPresented = PRESENTED.test(authorization);
  const presented = BEARER.exec(authorization)?.[1];
  try {
    const { tokenId, name } = await deps.authenticatePlatformToken.execute({ presented });
    return { tokenId, name };
  } catch (error) {
    if (error instanceof PlatformUnauthorizedError) return null;
    throw error;
  }
}

/** The platform service calling, for a route behind the gatekeeper. */
export function callerOf(ctx: ManagementContext): PlatformCaller {
  if (ctx.state.caller === undefined) throw new PlatformUnauthorizedError();
  return ctx.state.caller;
}
