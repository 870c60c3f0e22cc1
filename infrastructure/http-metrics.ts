import type { Container } from 'inversify';
import type { HttpMetrics } from '../adapters/http/metrics/http-metrics.js';
import { PrometheusHttpMetrics } from '../adapters/http/metrics/prometheus-http-metrics.js';
import { CONFIG } from './container/infrastructure.tokens.js';
import { DATABASE_POOL_STATS, REPLICA_READ_STATS } from './container/metrics.tokens.js';
import { resolve } from './container/typed-binding.js';

/**
 * METRICS=on: a registry of this app's own, every series labelled with the region, and the pools' use when
 * the store profile reports it. Off: nothing is recorded and no metrics listener starts.
 */
export function httpMetricsFor(container: Container): HttpMetrics | undefined {
  const config = resolve(container, CONFIG);
  if (!config.metrics) return undefined;
  const poolStats = container.isBound(DATABASE_POOL_STATS) ? resolve(container, DATABASE_POOL_STATS) : undefined;
  const replicaReads = container.isBound(REPLICA_READ_STATS) ? resolve(container, REPLICA_READ_STATS) : undefined;
  return new PrometheusHttpMetrics({
    defaultLabels: { region: config.region },
    ...(poolStats === undefined ? {} : { poolStats }),
    ...(replicaReads === undefined ? {} : { replicaReads }),
  });
}
