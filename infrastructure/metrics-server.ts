import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Container } from 'inversify';
import { createMetricsApp, type ListenerProbes } from '../adapters/http/metrics/metrics-app.js';
import type { HttpMetrics } from '../adapters/http/metrics/http-metrics.js';
import { CONFIG } from './container/infrastructure.tokens.js';
import { resolve } from './container/typed-binding.js';
import { httpMetricsFor } from './http-metrics.js';

export interface RunningMetricsServer {
  /** http://host:port */
  readonly origin: string;
  close(): Promise<void>;
}

/** With METRICS=on, serves GET /metrics on METRICS_HOST:METRICS_PORT (0 picks a free port); otherwise nothing. */
export async function startMetricsServer(container: Container, metrics: HttpMetrics | undefined = httpMetricsFor(container)): Promise<RunningMetricsServer | null> {
  if (metrics === undefined) return null;
  const config = resolve(container, CONFIG);
  return listenForMetrics(metrics, config.metricsPort, config.metricsHost);
}

/** GET /metrics on its own listener; with `probes`, GET /healthz and GET /readyz too (the feed process's). */
export async function listenForMetrics(metrics: Pick<HttpMetrics, 'render'>, port: number, host: string, probes?: ListenerProbes): Promise<RunningMetricsServer> {
  const server: Server = createServer(createMetricsApp(metrics, probes).callback());
  server.requestTimeout = 10_000;
  server.headersTimeout = 5_000;
  await new Promise<void>((listening, failed) => {
    server.once('error', failed);
    server.listen(port, host, () => listening());
  });
  const address = server.address() as AddressInfo;
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    origin: `http://${shownHost}:${address.port}`,
    close: () =>
      new Promise<void>((closed, failed) => {
        server.close((error) => (error ? failed(error) : closed()));
        server.closeAllConnections();
      }),
  };
}
