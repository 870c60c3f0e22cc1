import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type Koa from 'koa';
import { pino } from 'pino';
import type { AppConfig } from '../../infrastructure/config.js';
import type * as BuildContainerModule from '../../infrastructure/container/build-container.js';
import { createThrowawayDatabaseUrl } from './postgres-test-database.js';
import { TickingClock } from './ticking-clock.js';

/** `TEST_STORE=postgres` runs the HTTP suites on a throwaway PostgreSQL database per server (`npm run test:postgres`). */
export const TEST_STORE = process.env.TEST_STORE === 'postgres' ? 'postgres' : 'memory';

/** buildContainer and disposeContainer from the copy of the module the caller loaded (see serviceModules). */
type ContainerFunctions = Pick<typeof BuildContainerModule, 'buildContainer' | 'disposeContainer'>;

/**
 * A fresh container for a test server: in-memory stores, or a fresh PostgreSQL database when
 * TEST_STORE=postgres; a ticking clock, and a logger without redaction whose every line is kept, so that a
 * test reads what the service would print. The functions are passed in, not imported, so that a caller
 * that loads the service with import() gets its own copy's container.
 */
export async function startTestContainer({ buildContainer, disposeContainer }: ContainerFunctions, config: Partial<AppConfig> = {}) {
  const clock = new TickingClock();
  const logLines: string[] = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => void logLines.push(line) });
  const database = TEST_STORE === 'postgres' ? await createThrowawayDatabaseUrl() : null;
  const container = await buildContainer({
    profile: TEST_STORE,
    clock,
    logger,
    config: {
      region: 'kz',
      publicBaseUrl: 'https://kz.example.test/api',
      rateLimitPoints: 10_000,
      rateLimitWindowS: 60,
      ...(database === null ? {} : { databaseUrl: database.url, keysDatabaseUrl: database.url }),
      ...config,
    },
  });
  return {
    container,
    clock,
    logger,
    /** Every log line so far, parsed. */
    logs: () => logLines.map((line) => JSON.parse(line) as Record<string, unknown>),
    rawLogs: () => logLines.join(''),
    dispose: async () => {
      await disposeContainer(container);
      await database?.drop();
    },
  };
}

/** A Koa app on an ephemeral port of 127.0.0.1, its parser errors answered by `answerClientErrors` as the service does. */
export async function listenOnEphemeralPort(app: Koa<any>, answerClientErrors: (server: Server) => void): Promise<{ server: Server; origin: string }> {
  const server = createServer(app.callback());
  answerClientErrors(server);
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/** Closes a server, its idle and open connections too. */
export function closeServer(server: Server): Promise<void> {
  return new Promise<void>((done, fail) => {
    server.close((error) => (error ? fail(error) : done()));
    server.closeAllConnections();
  });
}
