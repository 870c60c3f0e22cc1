import { OPENAPI_PATH, type HttpContext, type HttpMiddleware } from './http-state.js';
import { HttpProblem } from './problem.js';

/**
 * Runs after the router: a path that no route knows is a 404 `not_found`; a known path with another
 * method is a 405 `method_not_allowed` with an Allow header. Both as problem documents, unlike the router's own.
 */
export const routeFallbackMiddleware: HttpMiddleware = routeFallbackFor(OPENAPI_PATH);

/** The same for a listener whose document is at `openApiPath` (the management API's). */
export function routeFallbackFor(openApiPath: string): HttpMiddleware {
  return async (ctx, next) => {
    await next();
    if (ctx.body !== undefined && ctx.body !== null) return;
    if (ctx.status !== 404) return;
    const allowed = allowedMethods(ctx);
    if (allowed.length > 0) {
      ctx.set('Allow', allowed.join(', '));
      throw new HttpProblem(405, 'method_not_allowed', 'Method not allowed', `This route accepts ${allowed.join(', ')}.`);
    }
    throw new HttpProblem(404, 'not_found', 'Not found', `No route matches this path. The API is described at ${openApiPath}.`);
  };
}

function allowedMethods(ctx: HttpContext): string[] {
  const matched = (ctx as unknown as { matched?: { methods?: string[] }[] }).matched ?? [];
  return [...new Set(matched.flatMap((layer) => layer.methods ?? []))];
}
