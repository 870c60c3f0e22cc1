import Koa from 'koa';
import type { HttpMetrics } from './http-metrics.js';

export const METRICS_PATH = '/metrics';

/**
 * The metrics listener's app: GET /metrics in Prometheus text format, and nothing else. It runs on a
 * listener of its own (METRICS_HOST, METRICS_PORT), never on the public one: the counters describe every
 * company's traffic, and a scraper on the internal network needs no key and is never rate limited.
 */
export function createMetricsApp(metrics: Pick<HttpMetrics, 'render'>): Koa {
  const app = new Koa();
  app.silent = true;
  app.use(async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    if (ctx.path !== METRICS_PATH) {
      ctx.status = 404;
      ctx.type = 'text/plain';
      ctx.body = `Not found: this listener serves GET ${METRICS_PATH} only.\n`;
      return;
    }
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') {
      ctx.status = 405;
      ctx.set('Allow', 'GET, HEAD');
      return;
    }
    const { contentType, text } = await metrics.render();
    ctx.type = contentType;
    ctx.body = text;
  });
  return app;
}
