import { hostname } from 'node:os';
import type { Container } from 'inversify';
import type { Logger } from 'pino';
import { Connection } from 'rabbitmq-client';
import type { FeedMetrics } from '../../adapters/feed/feed-metrics.js';
import { PlatformEventHandler } from '../../adapters/feed/platform-event-handler.js';
import { maskSecrets } from '../config.schema.js';
import { ConfigError, type AppConfig } from '../config.js';
import { READINESS } from '../container/infrastructure.tokens.js';
import { resolve } from '../container/typed-binding.js';
import { USE_CASES } from '../container/use-case.tokens.js';
import { activeTracer } from '../telemetry/tracing.js';
import { FeedConsumer, type FeedHandler } from './feed-consumer.js';
import { feedTopology, type FeedTopology } from './feed-topology.js';
import { brokerErrorText } from './broker-error-text.js';

const HOUR_MS = 3_600_000;

export type FeedSettings = Pick<AppConfig, 'region' | 'feedUrl' | 'feedQueue' | 'feedPrefetch' | 'feedTombstoneDays' | 'feedMaxAttempts' | 'feedRetryDelaysMs' | 'dbPoolMax'>;

export interface StartFeedConsumerOptions {
  /** Instead of the feed adapter's PlatformEventHandler over USE_CASES.applyPlatformEvent (tests of the runtime). */
  readonly handler?: FeedHandler;
  /** Where to count; none by default (feed-main passes one with METRICS=on). */
  readonly metrics?: FeedMetrics;
  /** How often READINESS is asked while the consumer pauses, and while it consumes. Default 1000 ms. */
  readonly readinessPollMs?: number;
  /** How often the ledger's old records are purged (also once at start). Default an hour. */
  readonly purgeEveryMs?: number;
  /** How long to wait for the broker at start before giving up. Default 20 s. */
  readonly connectTimeoutMs?: number;
}

export interface RunningFeedConsumer {
  readonly topology: FeedTopology;
  /** False while paused for the database, while the broker connection is lost or the consumer not registered, and once stopping. */
  readonly consuming: boolean;
  /** Null while consuming; else why not, one sentence. */
  readonly notConsumingBecause: string | null;
  /** Messages taken and not yet acknowledged. */
  readonly inFlight: number;
  /** Takes no more messages, finishes and acknowledges those in flight, closes the channels and the connection. */
  stop(): Promise<void>;
}

/**
 * The platform feed's consumer, running in this process on the container's use cases (DESIGN 4a): what
 * `npm run feed` runs, and what end-to-end tests start in-process. Resolves once it consumes; the container
 * stays the caller's to dispose, after stop().
 */
export async function startFeedConsumer(container: Container, config: FeedSettings, logger: Logger, options: StartFeedConsumerOptions = {}): Promise<RunningFeedConsumer> {
  if (config.feedUrl === null) throw new ConfigError('FEED_URL is not set: the feed consumer needs the amqp:// URL of the platform\'s broker.');
  const topology = feedTopology(config.feedQueue, config.feedRetryDelaysMs);
  const connection = new Connection({ url: config.feedUrl, connectionName: `integration-feed ${hostname()} ${process.pid}` });
  const link = watchConnection(connection, logger);
  // Closed once only: a second close() of a connection closed while reconnecting would wait for ever.
  let closed: Promise<void> | undefined;
  const close = () => (closed ??= connection.close());
  await connected(connection, maskSecrets(config.feedUrl), options.connectTimeoutMs ?? 20_000).catch(async (error: unknown) => {
    await close().catch(() => undefined);
    throw error;
  });
  const metrics = options.metrics;
  const tracer = activeTracer();
  const handler =
    options.handler ??
    new PlatformEventHandler(resolve(container, USE_CASES.applyPlatformEvent), {
      maxAttempts: config.feedMaxAttempts,
      maxConcurrentBatches: config.dbPoolMax,
      onBatch: metrics === undefined ? undefined : (events) => metrics.batchApplied(events),
      ...(tracer === undefined ? {} : { tracing: { tracer, region: config.region } }),
    });
  const consumer = new FeedConsumer({
    connection,
    topology,
    handler,
    prefetch: config.feedPrefetch,
    readiness: resolve(container, READINESS),
    logger,
    metrics: options.metrics,
    readinessPollMs: options.readinessPollMs,
    // A database gone away with no message to find it: paused, and GET /readyz 503, within about 3 s (the
    // check's period and READINESS's 2 s bound).
    readinessWhileConsumingMs: options.readinessPollMs ?? 1_000,
    timeoutsBeforeWarning: config.feedMaxAttempts,
  });
  try {
    await consumer.start();
  } catch (error) {
    await consumer.stop().catch(() => undefined);
    await close().catch(() => undefined);
    throw error;
  }
  const purge = schedulePurge(container, config.feedTombstoneDays, options.purgeEveryMs ?? HOUR_MS, logger);
  let stopping: Promise<void> | undefined;
  return {
    topology,
    get consuming() {
      return consumer.consuming;
    },
    get notConsumingBecause() {
      return consumer.notConsumingBecause;
    },
    get inFlight() {
      return consumer.inFlight;
    },
    stop() {
      stopping ??= (async () => {
        // No purge starts from now on; one that runs (minutes of chunks on a large ledger) ends by itself, after
        // the consumer has stopped taking messages: the stop does not wait for it to take none.
        const purged = purge.stop();
        // The connection lost (now or during the stop), nothing taken can be acknowledged any more: the broker
        // gives it to the next consumer, which the ledger makes harmless. Closing the connection first lets the
        // handlers in flight finish and the consumer end at once, where it would wait up to the client's 20 s
        // for a connection that may not come back.
        const closeOnLoss = () => void close().catch(() => undefined);
        if (link.lost) closeOnLoss();
        else connection.once('error', closeOnLoss);
        try {
          await consumer.stop();
        } finally {
          connection.off('error', closeOnLoss);
        }
        await purged;
        await close();
      })();
      return stopping;
    },
  };
}

/** A broker that refuses the login or the virtual host: waiting would not change its answer. */
const REFUSALS: ReadonlySet<unknown> = new Set(['ACCESS_REFUSED', 'NOT_ALLOWED']);

/**
 * Resolves once the connection is open. A broker that cannot be reached is waited for up to the timeout (it
 * may be starting); one that refuses the login or the virtual host ends the wait at once.
 */
async function connected(connection: Connection, shownUrl: string, timeoutMs: number): Promise<void> {
  // What the broker said to the attempts, for the message should they all fail.
  let lastError: unknown;
  let timer: NodeJS.Timeout | undefined;
  let onError: (error: unknown) => void = () => undefined;
  const failed = new Promise<never>((_, reject) => {
    onError = (error: unknown) => {
      lastError = error;
      if (REFUSALS.has((error as { code?: unknown } | null)?.code)) reject(new Error(`the broker at FEED_URL (${shownUrl}) refused the connection: ${brokerErrorText(error)}`));
    };
    timer = setTimeout(() => {
      const cause = lastError === undefined ? 'no connection was made' : `no connection was made; the last error: ${brokerErrorText(lastError)}`;
      reject(new Error(`cannot reach the broker at FEED_URL (${shownUrl}) within ${timeoutMs} ms: ${cause}`));
    }, timeoutMs);
  });
  connection.on('error', onError);
  try {
    // The client's wait without a timer of its own (0), which would outlive a refusal; the caller closes the
    // connection, once.
    await Promise.race([connection.onConnect(0, true), failed]);
  } finally {
    clearTimeout(timer);
    connection.off('error', onError);
    failed.catch(() => undefined);
  }
}

/** Lost connections are the client's to recover; they are only said, once each, with no URL. */
function watchConnection(connection: Connection, logger: Logger): { readonly lost: boolean } {
  let connectedBefore = false;
  let lost = false;
  connection.on('connection', () => {
    if (connectedBefore) logger.info('feed broker connection re-established');
    connectedBefore = true;
    lost = false;
  });
  connection.on('error', (error: unknown) => {
    if (lost) return;
    lost = true;
    logger.warn({ error: brokerErrorText(error), code: (error as { code?: unknown }).code }, 'feed broker connection error; reconnecting');
  });
  return {
    get lost() {
      return lost;
    },
  };
}

/**
 * FEED_TOMBSTONE_DAYS: the ledger's applied ids and tombstones older than that are purged at start and then
 * at every interval, by every consumer (the purge is idempotent). One that fails (the database away) is said
 * and tried again at the next interval; one never overlaps the next.
 */
function schedulePurge(container: Container, retentionDays: number, everyMs: number, logger: Logger): { stop(): Promise<void> } {
  const purgeRecords = resolve(container, USE_CASES.purgeFeedRecords);
  let running: Promise<void> = Promise.resolve();
  let busy = false;
  const run = () => {
    if (busy) return;
    busy = true;
    running = purgeRecords
      .execute({ retentionDays })
      .then(
        (purged) => logger.info({ ...purged, retentionDays }, 'feed records purged'),
        (error: unknown) => logger.warn({ error: (error as Error).message }, 'feed records could not be purged; trying again later'),
      )
      .finally(() => (busy = false));
  };
  run();
  const timer = setInterval(run, everyMs);
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
