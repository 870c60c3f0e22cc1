import type { HttpMiddleware } from './http-state.js';

/**
 * `Cache-Control: no-store` on every answer of the public listener, success or error, keyed or not (ADR 14).
 * No answer is the same for two requests: each names its request (X-Request-Id) and, but for the probes, its
 * caller's rate-limit budget, and behind a key it holds one company's data. A cache that kept one would hand it
 * to another caller; `private` with `Vary: X-API-Key` would still let a client's cache keep pages a sync
 * must read fresh, and store the key beside them. Set before anything runs, so that errors carry it too.
 */
export const noStoreMiddleware: HttpMiddleware = async (ctx, next) => {
  ctx.set('Cache-Control', 'no-store');
  await next();
};
