import { answerClientErrorsWithProblems } from '../../adapters/http/client-errors.js';
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
import { closeServer, listenOnEphemeralPort, startTestContainer } from './test-container.js';

export { TEST_STORE } from './test-container.js';

export const API_PATH = '/api/integration/v1';

export interface TestServerOptions {
  /** Settings of the container, e.g. a small rate-limit budget. */
  readonly config?: Partial<AppConfig>;
  /** Replacements for the HTTP adapter's dependencies, e.g. a failing readiness check. */
  readonly overrides?: Partial<HttpDependencies>;
}

/**
 * The real Koa app on an ephemeral port, over a fresh container (startTestContainer: in-memory stores, or a
 * fresh PostgreSQL database when TEST_STORE=postgres; every log line kept, unredacted).
 */
export async function startTestServer(options: TestServerOptions = {}) {
  const { container, clock, logger, logs, rawLogs, dispose } = await startTestContainer({ buildContainer, disposeContainer }, options.config);
  const deps = { ...httpDependencies(container), ...options.overrides };
  const { server, origin } = await listenOnEphemeralPort(createHttpApp(deps), answerClientErrorsWithProblems);
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
    logs,
    rawLogs,
    close: async () => {
      await closeServer(server);
      await metricsServer?.close();
      await dispose();
    },
  };
}

export type TestServer = Awaited<ReturnType<typeof startTestServer>>;
export type Seed = TestServer['seed'];
