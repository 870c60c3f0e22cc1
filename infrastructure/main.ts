import { loadConfig } from './config.js';
import { buildContainer, disposeContainer } from './container/build-container.js';
import { LOGGER } from './container/infrastructure.tokens.js';
import { resolve } from './container/typed-binding.js';
import { startHttpServer } from './http-server.js';

/** `npm start`: the service, on PostgreSQL (embedded when DATABASE_URL is unset) or in memory. */
async function main(): Promise<void> {
  const config = loadConfig();
  const container = await buildContainer({ config });
  const logger = resolve(container, LOGGER);
  const running = await startHttpServer(container);
  logger.info(
    { origin: running.origin, apiRoot: `${config.publicBaseUrl}/integration/v1`, store: config.store, region: config.region },
    'integration API listening',
  );

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'draining requests in flight, then stopping');
    try {
      await running.close();
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
