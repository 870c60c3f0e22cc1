import { PlatformUnauthorizedError } from '../../domain/platform-token/platform-token.js';
import { HttpProblem } from '../http/problem.js';
import type { RateLimitOutcome } from '../rate-limit/rate-limiter.js';
import type { ManagementDependencies } from './management-dependencies.js';
import { MANAGEMENT_OPENAPI_PATH, MANAGEMENT_ROOT, type ManagementContext, type ManagementMiddleware, type PlatformCaller } from './management-state.js';
import { addressBucketOf, tokenBucketOf, tokenCeilingBucketOf } from './rate-limit-buckets.js';

/** `Authorization: Bearer <token>` (RFC 6750 2.1); the scheme's case is free, as RFC 9110 says. */
const BEARER = /^Bearer +(\S+)$/i;
/** The Bearer scheme with credentials after it, well-formed or not. */
const PRESENTED = /^Bearer\s+\S/i;

/**
 * Authentication and the rate limit, before routing, as the public gatekeeper does them.
 *
 * Everything under /internal/v1 but the OpenAPI document needs a platform token, unknown paths included, so
 * that a caller without one learns nothing about the routes. A request with a valid token spends its token's
 * ceiling (`tokenCeilingPoints`, across every company it names, made-up ones included), then that token's
 * budget for the company in its path (rate-limit-buckets.ts); every other one spends its client address's,
 * which also slows down anyone guessing tokens: once an address has spent its budget, a token it sends is not
 * even looked up (a peek at the bucket, which spends nothing), so made-up tokens cost no read of the key
 * registry. The buckets are named apart from the public listener's, so the two listeners never share a budget.
 */
export function managementGatekeeperMiddleware(
  deps: Pick<ManagementDependencies, 'authenticatePlatformToken' | 'rateLimiter' | 'tokenCeilingLimiter' | 'settings'>,
): ManagementMiddleware {
  const { rateLimitPoints, rateLimitWindowS: windowS, tokenCeilingPoints } = deps.settings;
  const answer = (ctx: ManagementContext, outcome: RateLimitOutcome, points = rateLimitPoints): void => {
    const resetS = Math.ceil(outcome.resetAfterMs / 1000);
    ctx.set('RateLimit-Policy', `"default";q=${points};w=${windowS}`);
    ctx.set('RateLimit', `"default";r=${outcome.remaining};t=${resetS}`);
    if (outcome.allowed) return;
    ctx.set('Retry-After', String(Math.max(1, resetS)));
    throw new HttpProblem(429, 'rate_limited', 'Too many requests', `The request budget of ${points} requests per ${windowS} s is spent. Retry after the time given in Retry-After.`);
  };
  return async (ctx, next) => {
    const needsToken = ctx.path.startsWith(`${MANAGEMENT_ROOT}/`) && ctx.path !== MANAGEMENT_OPENAPI_PATH;
    const address = addressBucketOf(ctx.ip);
    let caller: PlatformCaller | null = null;
    if (needsToken) {
      const presented = presentedToken(ctx);
      if (presented !== undefined) {
        const standing = await deps.rateLimiter.peek(address);
        if (!standing.allowed) answer(ctx, standing);
      }
      caller = await authenticate(deps, presented);
    }
    if (caller !== null) {
      ctx.state.caller = caller;
      const ceiling = await deps.tokenCeilingLimiter.consume(tokenCeilingBucketOf(caller.tokenId));
      // Its headers only when it refuses: otherwise they tell the budget of the bucket below, as before.
      if (!ceiling.allowed) answer(ctx, ceiling, tokenCeilingPoints);
    }
    answer(ctx, await deps.rateLimiter.consume(caller === null ? address : tokenBucketOf(caller.tokenId, ctx.path)));
    if (needsToken && caller === null) throw new PlatformUnauthorizedError();
    await next();
  };
}

/**
 * The token comes from the Authorization header only; anything else (no header, another scheme, the scheme
 * alone) is no token. Whatever follows the Bearer scheme was presented as one, and a 401 says it is invalid.
 */
function presentedToken(ctx: ManagementContext): string | undefined {
  const authorization = ctx.get('Authorization').trim();
  ctx.state.tokenPresented = PRESENTED.test(authorization);
  return BEARER.exec(authorization)?.[1];
}

async function authenticate(deps: Pick<ManagementDependencies, 'authenticatePlatformToken'>, presented: string | undefined): Promise<PlatformCaller | null> {
  try {
    return await deps.authenticatePlatformToken.execute({ presented });
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
