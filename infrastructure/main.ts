import { loadConfig } from './config.js';
import { buildContainer, disposeContainer } from './container/build-container.js';
import { LOGGER } from './container/infrastructure.tokens.js';
import { RATE_LIMIT_STORE } from './container/rate-limit.module.js';
import { resolve } from './container/typed-binding.js';
import { USE_CASES } from './container/use-case.tokens.js';
import { startHttpServer, type RunningServer } from './http-server.js';

/** Requests still running this long after SIGTERM are cut off, within the usual 30 s grace of an orchestrator. */
const DRAIN_TIMEOUT_MS = 25_000;

/** `npm start`: the service, on PostgreSQL (embedded when DATABASE_URL is unset) or in memory. */
async function main(): Promise<void> {
  const config = loadConfig();
  const container = await buildContainer({ config });
  const logger = resolve(container, LOGGER);
  let running: RunningServer;
  try {
    running = await startHttpServer(container);
  } catch (error) {
    // Release what the container opened (pools, an embedded server) before giving up.
    await disposeContainer(container).catch(() => undefined);
    throw error;
  }
  logger.info(
    {
      origin: running.origin,
      apiRoot: `${config.publicBaseUrl}/integration/v1`,
      store: config.store,
      rateLimitStore: config.rateLimitStore,
      region: config.region,
    },
    'integration API listening',
  );

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'draining requests in flight, then stopping');
    try {
      // Order matters: no new connections and every request answered, then the background writes of
      // lastUsedAt, then the rate-limit store (its pool must close before an embedded server can stop),
      // then the databases.
      await running.close({ drainTimeoutMs: DRAIN_TIMEOUT_MS });
      await resolve(container, USE_CASES.authenticateKey).settle();
      await resolve(container, RATE_LIMIT_STORE).close();
      await disposeContainer(container);
      logger.info('stopped');
      process.exit(0);
    } catch (error) {
      logger.error({ err: error }, 'could not stop cleanly');
      process.exit(1);
    }
  };
  process.once('SIGINT', () => void stop('SIGINT'));
  process.once('SIGTERM', () => void stop('SIGTERM'));
}

main().catch((error: unknown) => {
  process.stderr.write(`integration-api: cannot start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
