import { ADMIN_CLI_ACTOR } from '../../../application/use-cases/actor.js';
import { pino } from 'pino';
import type { ReplicaReadStats } from '../../../adapters/http/metrics/http-metrics.js';
import type { VacancyUpsert } from '../../../application/use-cases/upsert-vacancies.use-case.js';
import type { AppConfig } from '../../../infrastructure/config.js';
import { ApiClient } from '../../support/api-client.js';
import { aVacancyInput } from '../../support/builders.js';
import { ALL_SCOPES } from '../../support/http-fixtures.js';
import { TickingClock } from '../../support/ticking-clock.js';

export interface ServiceOnPostgres {
  /** http://127.0.0.1:port */
  readonly origin: string;
  /** A client with a key of the company. */
  readonly api: ApiClient;
  readonly companyId: string;
  /** Stores vacancies of the company as the platform's writes do (a unit of work each call): their ids. */
  upsertVacancies(vacancies: readonly VacancyUpsert[]): Promise<string[]>;
  /** With DATABASE_REPLICA_URLS: where the list pages were read (the counts GET /metrics shows). */
  readonly replicaReads: ReplicaReadStats | undefined;
  close(): Promise<void>;
}

/**
 * The service, as main.ts composes and serves it, on the PostgreSQL database at `url` (migrated at start like the real
 * one), with a company that has one key and one vacancy. Its modules are imported dynamically, as the
 * composition root imports the PostgreSQL module: under mocha's tsx hook a static import here would load
 * the HTTP adapter a second time (CommonJS beside ESM), and its error mapping would not recognise the
 * adapters' StoreUnavailableError (a 500 instead of the 503).
 */
export async function startServiceOn(url: string, config: Partial<AppConfig> = {}): Promise<ServiceOnPostgres> {
  const [{ buildContainer, disposeContainer }, { resolve }, { USE_CASES }, { startHttpServer }, { RATE_LIMIT_STORE }, { REPLICA_READ_STATS }] = await Promise.all([
    import('../../../infrastructure/container/build-container.js'),
    import('../../../infrastructure/container/typed-binding.js'),
    import('../../../infrastructure/container/use-case.tokens.js'),
    import('../../../infrastructure/http-server.js'),
    import('../../../infrastructure/container/rate-limit.module.js'),
    import('../../../infrastructure/container/metrics.tokens.js'),
  ]);
  const container = await buildContainer({
    profile: 'postgres',
    clock: new TickingClock(),
    logger: pino({ level: process.env.TEST_LOG ? 'info' : 'silent' }),
    config: {
      region: 'kz',
      publicBaseUrl: 'https://kz.example.test/api',
      databaseUrl: url,
      keysDatabaseUrl: url,
      rateLimitPoints: 10_000,
      rateLimitWindowS: 60,
      ...config,
    },
  });
  const running = await startHttpServer(container, { port: 0, host: '127.0.0.1' });
  const origin = running.origin;
  const company = await resolve(container, USE_CASES.createCompany).execute({ name: 'ТОО «Тест»' });
  const issued = await resolve(container, USE_CASES.issueKey).execute({ companyId: company.id, scopes: ALL_SCOPES, name: 'test key', expiresAt: null, actor: ADMIN_CLI_ACTOR });
  await resolve(container, USE_CASES.upsertVacancies).execute({ companyId: company.id, vacancies: [aVacancyInput()] });
  return {
    origin,
    api: new ApiClient(`${origin}/api/integration/v1`, issued.key),
    companyId: company.id,
    upsertVacancies: async (vacancies) => (await resolve(container, USE_CASES.upsertVacancies).execute({ companyId: company.id, vacancies })).map((v) => v.id),
    replicaReads: container.isBound(REPLICA_READ_STATS) ? resolve(container, REPLICA_READ_STATS) : undefined,
    async close() {
      // As main.ts stops: drain, the key registry's background writes, the rate-limit store, the pools.
      await running.close();
      await resolve(container, USE_CASES.authenticateKey).settle();
      await resolve(container, RATE_LIMIT_STORE).close();
      await disposeContainer(container);
    },
  };
}
