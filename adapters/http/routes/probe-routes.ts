import type { Router } from '@koa/router';
import type { HttpDependencies } from '../http-dependencies.js';
import type { HttpState } from '../http-state.js';
import { HttpProblem } from '../problem.js';

/** Liveness and readiness for the orchestrator; never cached, like every answer (noStoreMiddleware): a kept "ok" would hide an outage. */
export function registerProbeRoutes(router: Router<HttpState>, deps: Pick<HttpDependencies, 'readiness' | 'stopping' | 'logger'>): void {
  router.get('/healthz', (ctx) => {
    ctx.body = { status: 'ok' };
  });

  router.get('/readyz', async (ctx) => {
    // Asked to stop: out of rotation now, while this instance still serves what reaches it (SHUTDOWN_DELAY_MS).
    if (deps.stopping()) throw new HttpProblem(503, 'not_ready', 'Not ready', 'The service is stopping: it answers the requests that reach it, and will soon take no more.');
    let ready = false;
    try {
      ready = await deps.readiness();
    } catch (error) {
      deps.logger.warn({ err: error, requestId: ctx.state.requestId }, 'readiness check failed');
    }
    if (!ready) throw new HttpProblem(503, 'not_ready', 'Not ready', 'The service cannot serve requests yet: its stores do not answer.');
    ctx.body = { status: 'ready' };
  });
}
