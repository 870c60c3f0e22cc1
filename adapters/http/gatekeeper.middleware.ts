import type { Principal } from '../../domain/service-key/service-key.js';
import { UnauthorizedError } from '../../domain/service-key/service-key.js';
import type { HttpDependencies } from './http-dependencies.js';
import { API_ROOT, OPENAPI_PATH, type HttpContext, type HttpMiddleware } from './http-state.js';
import { HttpProblem } from './problem.js';

/** Probes must answer whatever the traffic: they are neither authenticated nor rate-limited. */
export const PROBE_PATHS: ReadonlySet<string> = new Set(['/healthz', '/readyz']);

/**
 * Authentication and the rate limit, before routing.
 *
 * Everything under the API root but the OpenAPI document needs a key, unknown paths included, so that
 * a caller without a key learns nothing about which routes exist. A request with a valid key spends its
 * key's budget; every other request (no key, a bad key, the OpenAPI document, unknown paths outside the
 * API) spends the budget of its client address, which also slows down anyone guessing keys.
 */
export function gatekeeperMiddleware(deps: Pick<HttpDependencies, 'authenticateKey' | 'rateLimiter' | 'settings'>): HttpMiddleware {
  const policy = `"default";q=${deps.settings.rateLimitPoints};w=${deps.settings.rateLimitWindowS}`;
  return async (ctx, next) => {
    if (PROBE_PATHS.has(ctx.path)) return next();
    const needsKey = ctx.path.startsWith(`${API_ROOT}/`) && ctx.path !== OPENAPI_PATH;
    const principal = needsKey ? await authenticate(deps, ctx) : null;
    if (principal !== null) ctx.state.principal = principal;

    const outcome = await deps.rateLimiter.consume(principal === null ? `ip:${ctx.ip}` : `key:${principal.keyId}`);
    const resetS = Math.ceil(outcome.resetAfterMs / 1000);
    ctx.set('RateLimit-Policy', policy);
    ctx.set('RateLimit', `"default";r=${outcome.remaining};t=${resetS}`);
    if (!outcome.allowed) {
      ctx.set('Retry-After', String(Math.max(1, resetS)));
      throw new HttpProblem(429, 'rate_limited', 'Too many requests', `The request budget of ${deps.settings.rateLimitPoints} requests per ${deps.settings.rateLimitWindowS} s is spent. Retry after the time given in Retry-After.`);
    }
    if (needsKey && principal === null) throw new UnauthorizedError();
    await next();
  };
}

/** The key comes from the X-API-Key header only; a key in the query string is never looked at. */
async function authenticate(deps: Pick<HttpDependencies, 'authenticateKey'>, ctx: HttpContext): Promise<Principal | null> {
  const header = ctx.get('X-API-Key');
  try {
    return await deps.authenticateKey.execute({ presentedKey: header === '' ? undefined : header });
  } catch (error) {
    if (error instanceof UnauthorizedError) return null;
    throw error;
  }
}

/** The caller, for a route behind the gatekeeper. */
export function principalOf(ctx: HttpContext): Principal {
  if (ctx.state.principal === undefined) throw new UnauthorizedError();
  return ctx.state.principal;
}
