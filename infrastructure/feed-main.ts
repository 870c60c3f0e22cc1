import { PrometheusFeedMetrics } from '../adapters/feed/feed-metrics.js';
import { ConfigError, loadConfig } from './config.js';
import { buildContainer, disposeContainer } from './container/build-container.js';
import { LOGGER } from './container/infrastructure.tokens.js';
import { resolve } from './container/typed-binding.js';
import { startFeedConsumer, type RunningFeedConsumer } from './feed/start-feed-consumer.js';
import { endLogs } from './logger.js';
import { listenForMetrics, type RunningMetricsServer } from './metrics-server.js';
import { stopThenExit, takeStopSignals } from './stop-signals.js';
import { stopTracing } from './telemetry/tracing.js';
import { helpAsked } from './process-arguments.js';

const USAGE = `usage: npm run feed   (or: node bin/feed.js)

Runs the platform feed's consumer (compiled JavaScript in dist/, built first when missing or older than the
sources): it takes the platform's events from RabbitMQ and applies them through the API's use cases, on the
API's database. Run one or several beside the API; each declares the queues it needs at start.

Configured by environment variables only:
  FEED_URL              required: the broker, amqp://user:password@host:5672/vhost (or amqps://)
  FEED_QUEUE            the queue the platform publishes to (default integration.platform-events); dead
                        letters go to <queue>.dead, delayed retries wait in <queue>.retry.<ms>
  FEED_PREFETCH         messages taken and handled at once (1 to 1000; default the most FEED_MAX_HELD_BYTES
                        holds, at most 256: 202)
  FEED_MAX_HELD_BYTES   bytes of message bodies held at once (default 1073741824): FEED_PREFETCH messages of the
                        largest event (5308416 bytes; the broker's max_message_size) must fit
  FEED_MAX_ATTEMPTS     takes of an event that cannot apply yet before it is dead-lettered (default 10);
                        takes that find the database away are not counted: those retry for ever
  FEED_RETRY_DELAYS_MS  ascending waits before the 1st, 2nd, ... retry, the last repeating; the database
                        away, an event waits the 1st, 2nd, ... of them for each outage in a row
                        (default 1000,5000,30000,120000,600000)
  FEED_TOMBSTONE_DAYS   days applied event ids and deletions' tombstones are kept (default 7)
  METRICS, METRICS_HOST, METRICS_PORT
                        METRICS=on serves GET /metrics on METRICS_HOST:METRICS_PORT; the feed's port is
                        9465 when METRICS_PORT is unset (the API's is 9464), so both run on one host;
                        GET /healthz and GET /readyz (200 while it takes messages) are served there too
  DATABASE_URL, KEYS_DATABASE_URL, DATA_DIR, EMBEDDED_PG_PORT, DB_*, STORE, REGION, LOG_LEVEL
                        as for npm start (see docs/configuration.md); DATABASE_URL unset, the
                        embedded PostgreSQL of DATA_DIR, on the port kept there: a consumer paused while
                        the service restarts it finds it again
  OTEL_*                tracing, as for npm start: on with OTEL_EXPORTER_OTLP_ENDPOINT (service.name
                        integration-feed unless OTEL_SERVICE_NAME says otherwise)

SIGTERM or SIGINT (Ctrl-C): take no more messages, finish and acknowledge those in flight, close, exit 0.
`;

/** Signals are taken from the first line on (stop-signals.ts). */
const signals = takeStopSignals();

/** `npm run feed`: the platform feed's consumer, as its own process (DESIGN 4a). */
async function main(): Promise<void> {
  if (helpAsked(process.argv.slice(2), 'npm run feed')) {
    process.stdout.write(USAGE);
    return;
  }
  const config = loadConfig();
  if (config.feedUrl === null) {
    throw new ConfigError('FEED_URL is not set: the feed consumer needs the amqp:// URL of the platform\'s broker, such as amqp://user:password@127.0.0.1:5672 (npm run feed -- --help).');
  }
  const container = await buildContainer({ config });
  const logger = resolve(container, LOGGER);
  if (config.store === 'memory') logger.warn('STORE=memory: the feed applies events to this process\'s own memory, which no API instance reads (development and tests only)');
  const metrics = config.metrics ? new PrometheusFeedMetrics({ defaultLabels: { region: config.region } }) : undefined;
  let metricsServer: RunningMetricsServer | null = null;
  let consumer: RunningFeedConsumer | undefined;
  // GET /readyz of the metrics listener: 200 while the consumer takes messages (a rollout waits for it).
  const probes = { notReadyBecause: () => (consumer === undefined ? 'The feed consumer is starting: it is not connected to the broker yet.' : consumer.notConsumingBecause) };
  try {
    if (metrics !== undefined) {
      metricsServer = await listenForMetrics(metrics, config.feedMetricsPort, config.metricsHost, probes).catch((error: unknown) => {
        throw new Error(`METRICS=on, but GET /metrics cannot listen on ${config.metricsHost}:${config.feedMetricsPort} (METRICS_HOST, METRICS_PORT): ${(error as Error).message}`);
      });
    }
    consumer = await startFeedConsumer(container, config, logger, metrics === undefined ? {} : { metrics });
  } catch (error) {
    // Release what the container opened (pools, an embedded server's share) before giving up.
    await metricsServer?.close().catch(() => undefined);
    await disposeContainer(container).catch(() => undefined);
    await endLogs(logger);
    throw error;
  }
  logger.info(
    {
      queue: config.feedQueue,
      prefetch: config.feedPrefetch,
      maxHeldBytes: config.feedMaxHeldBytes,
      deadLetterQueue: consumer.topology.deadQueue,
      retryDelaysMs: config.feedRetryDelaysMs,
      maxAttempts: config.feedMaxAttempts,
      ...(metricsServer === null ? {} : { metrics: `${metricsServer.origin}/metrics` }),
      store: config.store,
      region: config.region,
    },
    'feed consumer started',
  );

  const running = consumer;
  const stop = async (signal: string) => {
    logger.info({ signal, inFlight: running.inFlight }, 'feed consumer stopping: finishing the messages in flight');
    await stopThenExit(logger, async () => {
      // Messages first (their effects and acks need the database and the broker), then what serves them.
      await running.stop();
      await metricsServer?.close();
      await disposeContainer(container);
      // The spans of the last events, exported (a collector away only loses them).
      await stopTracing();
    });
  };
  signals.whenStopped((signal) => void stop(signal));
}

main().catch((error: unknown) => {
  process.stderr.write(`integration-feed: cannot start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
