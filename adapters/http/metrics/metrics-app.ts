import Koa from 'koa';
import { PROBLEM_CONTENT_TYPE, problemType } from '../problem.js';
import type { HttpMetrics } from './http-metrics.js';

export const METRICS_PATH = '/metrics';

/**
 * What a process without a public listener (the feed's consumer) says of itself on its metrics listener:
 * GET /healthz (the process answers) and GET /readyz (it does its work), for an orchestrator's probes.
 */
export interface ListenerProbes {
  /** Null while the process does its work; else why not, one sentence for the 503's detail. */
  readonly notReadyBecause: () => string | null;
}

/**
 * The metrics listener's app: GET /metrics in Prometheus text format, and with `probes` GET /healthz and
 * GET /readyz; nothing else. It runs on a listener of its own (METRICS_HOST, METRICS_PORT), never on the
 * public one: the counters describe every company's traffic, and a scraper on the internal network needs no
 * key and is never rate limited.
 */
export function createMetricsApp(metrics: Pick<HttpMetrics, 'render'>, probes?: ListenerProbes): Koa {
  const paths = probes === undefined ? [METRICS_PATH] : [METRICS_PATH, '/healthz', '/readyz'];
  const app = new Koa();
  app.silent = true;
  app.use(async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    if (!paths.includes(ctx.path)) {
      ctx.status = 404;
      ctx.type = 'text/plain';
      ctx.body = `Not found: this listener serves GET ${paths.join(', ')} only.\n`;
      return;
    }
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') {
      ctx.status = 405;
      ctx.set('Allow', 'GET, HEAD');
      return;
    }
    if (ctx.path === '/healthz') {
      ctx.body = { status: 'ok' };
      return;
    }
    if (ctx.path === '/readyz') {
      const reason = probes?.notReadyBecause() ?? null;
      if (reason === null) {
        ctx.body = { status: 'ready' };
        return;
      }
      ctx.status = 503;
      ctx.body = { type: problemType('not_ready'), title: 'Not ready', status: 503, code: 'not_ready', detail: reason };
      ctx.type = PROBLEM_CONTENT_TYPE;
      return;
    }
    const { contentType, text } = await metrics.render();
    ctx.type = contentType;
    ctx.body = text;
  });
  return app;
}
