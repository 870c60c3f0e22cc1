// First: V8's heap growth is set before anything else is loaded (heap-growth.ts).
import './heap-growth.js';
import { setTimeout as sleep } from 'node:timers/promises';
import { loadConfig } from './config.js';
import { buildContainer, disposeContainer } from './container/build-container.js';
import { LOGGER, STOP_REQUEST } from './container/infrastructure.tokens.js';
import { RATE_LIMIT_STORE } from './container/rate-limit.module.js';
import { resolve } from './container/typed-binding.js';
import { USE_CASES } from './container/use-case.tokens.js';
import { holdServiceLock, type ServiceLock } from './database/embedded-postgres-service-lock.js';
import { startHttpServer } from './http-server.js';
import { startManagementServer } from './management-server.js';
import { startMetricsServer } from './metrics-server.js';
import { seedMemoryDemo } from './memory-demo.js';
import { stopThenExit, takeStopSignals } from './stop-signals.js';
import { stopTracing } from './telemetry/tracing.js';
import { helpAsked } from './process-arguments.js';

/**
 * Requests still running this long after the drain began (SIGTERM, plus SHUTDOWN_DELAY_MS) are cut off: within
 * the usual 30 s grace of an orchestrator when there is no delay; with one, the grace must cover both.
 */
const DRAIN_TIMEOUT_MS = 25_000;

const USAGE = `usage: npm start   (or: node bin/start.js)

Runs the integration API (compiled JavaScript in dist/, built first when missing or older than the sources).
Configured by environment variables only: PORT, HOST, STORE, DATABASE_URL, DATA_DIR, EMBEDDED_PG_PORT,
KEYS_DATABASE_URL, REGION, PUBLIC_BASE_URL, DB_*, RATE_LIMIT_*, REDIS_URL, KEY_CACHE_TTL_MS, LOG_LEVEL, METRICS,
METRICS_HOST, METRICS_PORT, MANAGEMENT_HOST, MANAGEMENT_PORT (0: no management API), SHUTDOWN_DELAY_MS, TRUST_PROXY,
JOB_BOARD_LABEL, and OTEL_* for tracing (see docs/configuration.md). SIGTERM or SIGINT (Ctrl-C): /readyz
answers 503, the service serves on for SHUTDOWN_DELAY_MS (default 0), then drains the requests in flight, stops
and exits 0.
`;

/** Signals are taken from the first line on (stop-signals.ts). */
const signals = takeStopSignals();

/** `npm start`: the service, on PostgreSQL (embedded when DATABASE_URL is unset) or in memory. */
async function main(): Promise<void> {
  if (helpAsked(process.argv.slice(2), 'npm start')) {
    process.stdout.write(USAGE);
    return;
  }
  const config = loadConfig();
  // One service per DATA_DIR when it runs the embedded PostgreSQL there (the admin CLI may still join it):
  // two would each stop the database under the other. Taken before anything touches the cluster.
  const lock: ServiceLock | null = config.store === 'postgres' && config.databaseUrl === null ? await holdServiceLock(config.dataDir) : null;
  const container = await buildContainer({ config });
  const logger = resolve(container, LOGGER);
  const { running, managementServer, metricsServer } = await (async () => {
    if (config.store === 'memory') await seedMemoryDemo(container, config, logger);
    const api = await startHttpServer(container);
    const management = await startManagementServer(container).catch(async (error: unknown) => {
      await api.close();
      throw new Error(`the management API cannot listen on ${config.managementHost}:${config.managementPort} (MANAGEMENT_HOST, MANAGEMENT_PORT; 0 turns it off): ${(error as Error).message}`);
    });
    const metricsListener = await startMetricsServer(container).catch(async (error: unknown) => {
      await Promise.all([api.close(), management?.close()]);
      throw new Error(`METRICS=on, but GET /metrics cannot listen on ${config.metricsHost}:${config.metricsPort} (METRICS_HOST, METRICS_PORT): ${(error as Error).message}`);
    });
    return { running: api, managementServer: management, metricsServer: metricsListener };
  })().catch(async (error: unknown) => {
    // Release what the container opened (pools, an embedded server) before giving up.
    await disposeContainer(container).catch(() => undefined);
    throw error;
  });
  logger.info(
    {
      origin: running.origin,
      ...(metricsServer === null ? {} : { metrics: `${metricsServer.origin}/metrics` }),
      management: managementServer === null ? null : `${managementServer.origin}/internal/v1`,
      apiRoot: `${config.publicBaseUrl}/integration/v1`,
      store: config.store,
      rateLimitStore: config.rateLimitStore,
      region: config.region,
    },
    'integration API listening',
  );

  const stop = async (signal: string, duringStart: boolean) => {
    // /readyz answers 503 from now on; with SHUTDOWN_DELAY_MS, everything else is served as before meanwhile
    // (not after a signal during the start: never ready, the instance was in no balancer's rotation).
    resolve(container, STOP_REQUEST).request();
    if (config.shutdownDelayMs > 0 && !duringStart) {
      logger.info({ signal, shutdownDelayMs: config.shutdownDelayMs }, 'stopping: /readyz answers 503, serving on until the delay is over, then draining');
      await sleep(config.shutdownDelayMs);
    }
    logger.info({ signal }, 'draining requests in flight, then stopping');
    await stopThenExit(logger, async () => {
      // Order matters: no new connections and every request answered (on both listeners), then the background
      // writes of lastUsedAt, then the rate-limit store (its pool must close before an embedded server can
      // stop), then the databases.
      await Promise.all([running.close({ drainTimeoutMs: DRAIN_TIMEOUT_MS }), managementServer?.close({ drainTimeoutMs: DRAIN_TIMEOUT_MS })]);
      await metricsServer?.close();
      await resolve(container, USE_CASES.authenticateKey).settle();
      await resolve(container, RATE_LIMIT_STORE).close();
      await disposeContainer(container);
      // The spans of the last requests, exported (a collector away only loses them).
      await stopTracing();
      // Only now, with the embedded server stopped, may the next service start on DATA_DIR.
      await lock?.release();
    });
  };
  signals.whenStopped((signal, duringStart) => void stop(signal, duringStart));
}

main().catch((error: unknown) => {
  process.stderr.write(`integration-api: cannot start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
