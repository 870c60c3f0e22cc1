import type { Router } from '@koa/router';
import type { HttpState } from '../http-state.js';
import type { HttpMetrics } from './http-metrics.js';

export const METRICS_PATH = '/metrics';

/**
 * GET /metrics in Prometheus text format. Outside the API root: no key, no rate limit (the gatekeeper lets
 * probe paths through), so that a scraper on the internal network is never refused. Only registered
 * when metrics are on; otherwise the path is an ordinary 404.
 */
export function registerMetricsRoute(router: Router<HttpState>, metrics: HttpMetrics): void {
  router.get(METRICS_PATH, async (ctx) => {
    const { contentType, text } = await metrics.render();
    ctx.set('Cache-Control', 'no-store');
    ctx.type = contentType;
    ctx.body = text;
  });
}
