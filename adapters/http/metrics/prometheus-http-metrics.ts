import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { DatabasePoolStats, DatabasePoolStatsSource, HttpMetrics, ReplicaReadStats, RequestSample } from './http-metrics.js';

export interface PrometheusHttpMetricsOptions {
  readonly poolStats?: DatabasePoolStatsSource;
  /** Where list pages were read, with DATABASE_REPLICA_URLS (ADR 26). */
  readonly replicaReads?: ReplicaReadStats;
  /** Labels on every series, e.g. `{ region: 'kz' }`, so that two deployments can share a dashboard. */
  readonly defaultLabels?: Readonly<Record<string, string>>;
  /** Node's process metrics (CPU, memory, event loop lag, GC). Default true. */
  readonly processMetrics?: boolean;
}

const PREFIX = 'integration_api_';
/** Methods are the client's text: anything outside these is counted as OTHER, so that series stay few. */
const KNOWN_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
/** From a cached read of a few milliseconds to a request near the 30 s server timeout. */
const DURATION_BUCKETS_S = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/**
 * prom-client on a registry of its own, never the global default one: every app (and every test server)
 * counts for itself.
 */
export class PrometheusHttpMetrics implements HttpMetrics {
  private readonly registry = new Registry();
  private readonly requests: Counter<'method' | 'route' | 'status'>;
  private readonly durations: Histogram<'method' | 'route'>;
  private readonly applications: Counter<'outcome'>;
  private readonly rateLimited: Counter<'bucket'>;

  constructor(options: PrometheusHttpMetricsOptions = {}) {
    const registers = [this.registry];
    if (options.defaultLabels !== undefined) this.registry.setDefaultLabels({ ...options.defaultLabels });
    if (options.processMetrics ?? true) collectDefaultMetrics({ register: this.registry });
    this.requests = new Counter({
      name: `${PREFIX}http_requests_total`,
      help: 'HTTP requests answered, by method, route template ("unmatched" for none) and status.',
      labelNames: ['method', 'route', 'status'],
      registers,
    });
    this.durations = new Histogram({
      name: `${PREFIX}http_request_duration_seconds`,
      help: 'Time from the first middleware to the answer, by method and route template.',
      labelNames: ['method', 'route'],
      buckets: DURATION_BUCKETS_S,
      registers,
    });
    this.applications = new Counter({
      name: `${PREFIX}applications_total`,
      help: 'Applications accepted by POST /applications: outcome "created" (201) or "duplicate" (200, a repeated externalId).',
      labelNames: ['outcome'],
      registers,
    });
    this.rateLimited = new Counter({
      name: `${PREFIX}rate_limited_total`,
      help: 'Requests refused with 429 by the rate limit, by the budget spent: a key\'s, or a client address\'s.',
      labelNames: ['bucket'],
      registers,
    });
    // Zero from the start, so that rate() works from the first scrape.
    for (const outcome of ['created', 'duplicate']) this.applications.inc({ outcome }, 0);
    for (const bucket of ['key', 'address']) this.rateLimited.inc({ bucket }, 0);
    if (options.poolStats !== undefined) this.registerPoolGauges(options.poolStats);
    if (options.replicaReads !== undefined) this.registerReplicaSeries(options.replicaReads);
  }

  requestFinished(sample: RequestSample): void {
    const method = KNOWN_METHODS.has(sample.method) ? sample.method : 'OTHER';
    const route = sample.route ?? 'unmatched';
    this.requests.inc({ method, route, status: String(sample.status) });
    this.durations.observe({ method, route }, sample.durationSeconds);
    if (sample.rateLimited !== null) this.rateLimited.inc({ bucket: sample.rateLimited });
  }

  applicationAccepted(outcome: 'created' | 'duplicate'): void {
    this.applications.inc({ outcome });
  }

  async render(): Promise<{ contentType: string; text: string }> {
    return { contentType: this.registry.contentType, text: await this.registry.metrics() };
  }

  /** Read at scrape time from the router's own counts, which exist whether or not metrics are on. */
  private registerReplicaSeries(stats: ReplicaReadStats): void {
    const registers = [this.registry];
    const counted = (name: string, help: string, label: string, counts: () => ReadonlyMap<string, number>) =>
      new Counter({
        name: `${PREFIX}${name}`,
        help,
        labelNames: [label],
        registers,
        collect() {
          this.reset();
          for (const [key, value] of counts()) this.inc({ [label]: key }, value);
        },
      });
    counted('list_pages_total', 'List pages (GET /vacancies, GET /candidates) answered, by the copy that read them: primary, replica-1, ...', 'copy', () => stats.pages);
    counted('list_page_fallbacks_total', 'List pages read on the primary though replicas are set, by reason: unavailable, lagging, error.', 'reason', () => stats.fallbacks);
    new Gauge({
      name: `${PREFIX}replica_lag_bytes`,
      help: "Bytes of WAL between the primary's newest position seen and the replica's replay position.",
      labelNames: ['replica'],
      registers,
      collect() {
        this.reset();
        for (const { replica, bytes } of stats.lags()) if (bytes !== null) this.set({ replica }, bytes);
      },
    });
  }

  /** Gauges read at scrape time; a pool that is gone drops out. */
  private registerPoolGauges(source: DatabasePoolStatsSource): void {
    const gauge = (name: string, help: string, field: keyof Omit<DatabasePoolStats, 'pool'>) =>
      new Gauge({
        name: `${PREFIX}${name}`,
        help,
        labelNames: ['pool'],
        registers: [this.registry],
        collect() {
          this.reset();
          for (const stats of source()) this.set({ pool: stats.pool }, stats[field]);
        },
      });
    gauge('db_pool_connections', 'Connections the pool holds open, busy or idle.', 'total');
    gauge('db_pool_idle_connections', 'Open connections that are idle.', 'idle');
    gauge('db_pool_waiting_requests', 'Requests waiting for a connection of the pool.', 'waiting');
  }
}
