import { createServer } from 'node:http';
import { answerClientErrorsWithProblems } from '../../adapters/http/client-errors.js';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import type { ServiceKeyRepository } from '../../application/ports/service-key-repository.port.js';
import { SERVICE_KEY_REPOSITORY } from '../../application/ports/service-key-repository.port.js';
import { createHttpApp } from '../../adapters/http/create-http-app.js';
import type { HttpDependencies } from '../../adapters/http/http-dependencies.js';
import type { AppConfig } from '../../infrastructure/config.js';
import { buildContainer, disposeContainer } from '../../infrastructure/container/build-container.js';
import { resolve } from '../../infrastructure/container/typed-binding.js';
import { USE_CASES } from '../../infrastructure/container/use-case.tokens.js';
import { httpDependencies } from '../../infrastructure/http-dependencies.js';
import { listenForMetrics } from '../../infrastructure/metrics-server.js';
import { createThrowawayDatabaseUrl } from './postgres-test-database.js';
import { TickingClock } from './ticking-clock.js';

export const API_PATH = '/api/integration/v1';

export interface TestServerOptions {
  /** Settings of the container, e.g. a small rate-limit budget. */
  readonly config?: Partial<AppConfig>;
  /** Replacements for the HTTP adapter's dependencies, e.g. a failing readiness check. */
  readonly overrides?: Partial<HttpDependencies>;
}

/** `TEST_STORE=postgres` runs the HTTP suites on a throwaway PostgreSQL database per server (`npm run test:postgres`). */
export const TEST_STORE = process.env.TEST_STORE === 'postgres' ? 'postgres' : 'memory';

/**
 * The real Koa app on an ephemeral port, over a fresh container: in-memory stores, or a fresh PostgreSQL
 * database when TEST_STORE=postgres. Every log line is kept, so a
 * test can read what the service would print. The logger has no redaction: what the adapter logs is
 * what a test sees.
 */
export async function startTestServer(options: TestServerOptions = {}) {
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
      ...options.config,
    },
  });
  const deps = { ...httpDependencies(container), ...options.overrides };
  const app = createHttpApp(deps);
  const server = createServer(app.callback());
  answerClientErrorsWithProblems(server);
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // With metrics on, GET /metrics on its own listener, as the service runs it.
  const metricsServer = deps.metrics === undefined ? null : await listenForMetrics(deps.metrics, 0, '127.0.0.1');

  const seed = {
    createCompany: resolve(container, USE_CASES.createCompany),
    issueKey: resolve(container, USE_CASES.issueKey),
    revokeKey: resolve(container, USE_CASES.revokeKey),
    upsertVacancies: resolve(container, USE_CASES.upsertVacancies),
    deleteVacancy: resolve(container, USE_CASES.deleteVacancy),
    addCandidates: resolve(container, USE_CASES.addCandidates),
    moveCandidate: resolve(container, USE_CASES.moveCandidate),
    transferCandidate: resolve(container, USE_CASES.transferCandidate),
    updateResume: resolve(container, USE_CASES.updateResume),
    deleteCandidate: resolve(container, USE_CASES.deleteCandidate),
    setBoardColumns: resolve(container, USE_CASES.setBoardColumns),
  };

  return {
    origin,
    /** The metrics listener (http://127.0.0.1:port), when metrics are on. */
    metricsOrigin: metricsServer?.origin ?? null,
    /** `{base_url}/integration/v1` of this server. */
    baseUrl: `${origin}${API_PATH}`,
    seed,
    /** The key registry the server authenticates against, the very instance (a test may count what reaches it). */
    keyRegistry: resolve(container, SERVICE_KEY_REPOSITORY) as ServiceKeyRepository,
    clock,
    logger,
    /** Every log line so far, parsed. */
    logs: () => logLines.map((line) => JSON.parse(line) as Record<string, unknown>),
    rawLogs: () => logLines.join(''),
    close: async () => {
      await new Promise<void>((done, fail) => {
        server.close((error) => (error ? fail(error) : done()));
        server.closeAllConnections();
      });
      await metricsServer?.close();
      await disposeContainer(container);
      await database?.drop();
    },
  };
}

export type TestServer = Awaited<ReturnType<typeof startTestServer>>;
export type Seed = TestServer['seed'];
