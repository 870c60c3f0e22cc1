import type { Principal } from '../../domain/service-key/service-key.js';
import { UnauthorizedError } from '../../domain/service-key/service-key.js';
import { addressGroupOf } from '../rate-limit/address-group.js';
import type { RateLimitOutcome } from '../rate-limit/rate-limiter.js';
import type { HttpDependencies } from './http-dependencies.js';
import { API_ROOT, OPENAPI_PATH, type HttpContext, type HttpMiddleware } from './http-state.js';
import { HttpProblem } from './problem.js';

/** Probes must answer whatever the traffic: they are neither authenticated nor rate-limited. */
export const PROBE_PATHS: ReadonlySet<string> = new Set(['/healthz', '/readyz']);

type GatekeeperDependencies = Pick<HttpDependencies, 'authenticateKey' | 'rateLimiter' | 'notModifiedRateLimiter' | 'settings'>;

/** The operations whose pages carry an ETag and answer If-None-Match with 304 (list-routes.ts). */
export const CONDITIONAL_LIST_PATHS: ReadonlySet<string> = new Set([`${API_ROOT}/vacancies`, `${API_ROOT}/candidates`]);

/**
 * Authentication and the rate limit, before routing.
 *
 * Everything under the API root but the OpenAPI document needs a key, unknown paths included, so that
 * a caller without a key learns nothing about which routes exist. A request with a valid key spends its
 * key's budget; every other request (no key, a bad key, the OpenAPI document, unknown paths outside the
 * API) spends the budget of its client address (an IPv6 address by its /64), which also slows down anyone
 * guessing keys. Before the registry is read for a key id it was not seen to hold, the address's bucket is
 * peeked at (which spends nothing): once the address has spent its budget, made-up keys are refused (429)
 * without a read. A request that did cost a read is never answered 429 for its address (it is counted, and
 * answered 401), and a valid key never spends the address's budget (ADR 6).
 *
 * A conditional list request (If-None-Match on GET /vacancies or /candidates) spends a point of the key's
 * separate `not-modified` budget first; only when it is not answered 304 does it spend one of the key's request
 * budget too, and a page is then refused 429 if that one is spent (ADR 27). Its RateLimit headers name both budgets.
 */
export function gatekeeperMiddleware(deps: GatekeeperDependencies): HttpMiddleware {
  const { rateLimitPoints: points, rateLimitWindowS: windowS } = deps.settings;
  const policy = `"default";q=${points};w=${windowS}`;
  const answer = (ctx: HttpContext, outcome: RateLimitOutcome, mayRefuse = true): void => {
    const resetS = Math.ceil(outcome.resetAfterMs / 1000);
    ctx.set('RateLimit-Policy', policy);
    ctx.set('RateLimit', `"default";r=${outcome.remaining};t=${resetS}`);
    if (outcome.allowed || !mayRefuse) return;
    ctx.set('Retry-After', String(Math.max(1, resetS)));
    throw new HttpProblem(429, 'rate_limited', 'Too many requests', `The request budget of ${points} requests per ${windowS} s is spent. Retry after the time given in Retry-After.`);
  };
  const { notModifiedRateLimitPoints: spare } = deps.settings;
  const bothPolicies = `${policy}, "not-modified";q=${spare};w=${windowS}`;
  const answerBoth = (ctx: HttpContext, outcome: RateLimitOutcome, notModified: RateLimitOutcome): void => {
    const item = (name: string, o: RateLimitOutcome) => `"${name}";r=${o.remaining};t=${Math.ceil(o.resetAfterMs / 1000)}`;
    ctx.set('RateLimit-Policy', bothPolicies);
    ctx.set('RateLimit', `${item('default', outcome)}, ${item('not-modified', notModified)}`);
  };
  const refuse = (ctx: HttpContext, refusing: RateLimitOutcome, detail: string): never => {
    ctx.set('Retry-After', String(Math.max(1, Math.ceil(refusing.resetAfterMs / 1000))));
    throw new HttpProblem(429, 'rate_limited', 'Too many requests', `${detail} Retry after the time given in Retry-After.`);
  };
  const conditional = async (ctx: HttpContext, bucket: string, next: () => Promise<unknown>): Promise<void> => {
    const notModified = await deps.notModifiedRateLimiter.consume(`not-modified:${bucket}`);
    answerBoth(ctx, await deps.rateLimiter.peek(bucket), notModified);
    if (!notModified.allowed) refuse(ctx, notModified, `The budget of ${spare} conditional requests per ${windowS} s is spent.`);
    try {
      await next();
    } catch (error) {
      // An error answer is no 304: it costs the request budget like any other, and stays the answer it is.
      answerBoth(ctx, await deps.rateLimiter.consume(bucket), notModified);
      throw error;
    }
    if (ctx.status === 304) return;
    const outcome = await deps.rateLimiter.consume(bucket);
    answerBoth(ctx, outcome, notModified);
    if (outcome.allowed) return;
    // The page read is not sent: a conditional request must not be a way past the request budget.
    for (const header of ['ETag', 'X-Sync-Watermark']) ctx.remove(header);
    refuse(ctx, outcome, `The request budget of ${points} requests per ${windowS} s is spent; only a 304 is free of it.`);
  };
  return async (ctx, next) => {
    if (PROBE_PATHS.has(ctx.path)) return next();
    const address = `ip:${addressGroupOf(ctx.ip)}`;
    const needsKey = ctx.path.startsWith(`${API_ROOT}/`) && ctx.path !== OPENAPI_PATH;
    let registryRead = false;
    const beforeRegistryRead = async (heldBefore: boolean): Promise<void> => {
      // A key id the registry holds is read again (once per KEY_CACHE_TTL_MS) whatever its address spent.
      if (!heldBefore) answer(ctx, await deps.rateLimiter.peek(address));
      registryRead = true;
    };
    const principal = needsKey ? await authenticate(deps, ctx, beforeRegistryRead) : null;
    if (principal !== null) {
      ctx.state.principal = principal;
      if (isConditionalList(ctx)) return conditional(ctx, `key:${principal.keyId}`, next);
      answer(ctx, await deps.rateLimiter.consume(`key:${principal.keyId}`));
    } else {
      answer(ctx, await deps.rateLimiter.consume(address), !registryRead);
      if (needsKey) throw new UnauthorizedError();
    }
    await next();
  };
}

/** A GET (or HEAD) of a list with If-None-Match: it may be answered 304, which the request budget does not pay for. */
function isConditionalList(ctx: HttpContext): boolean {
  return (ctx.method === 'GET' || ctx.method === 'HEAD') && CONDITIONAL_LIST_PATHS.has(ctx.path) && ctx.get('If-None-Match') !== '';
}

/** The key comes from the X-API-Key header only; a key in the query string is never looked at. */
async function authenticate(deps: GatekeeperDependencies, ctx: HttpContext, beforeRegistryRead: (heldBefore: boolean) => Promise<void>): Promise<Principal | null> {
  const header = ctx.get('X-API-Key');
  try {
    return await deps.authenticateKey.execute({ presentedKey: header === '' ? undefined : header, beforeRegistryRead });
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
