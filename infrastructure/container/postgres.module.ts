import { ContainerModule } from 'inversify';
import type { Logger } from 'pino';
import { BOARD_REPOSITORY } from '../../application/ports/board-repository.port.js';
import { CANDIDATE_REPOSITORY } from '../../application/ports/candidate-repository.port.js';
import { COMPANY_REPOSITORY } from '../../application/ports/company-repository.port.js';
import { FEED_LEDGER } from '../../application/ports/feed-ledger.port.js';
import { PLATFORM_TOKEN_REPOSITORY } from '../../application/ports/platform-token-repository.port.js';
import { RENDERING_CHECK } from '../../application/ports/rendering-check.port.js';
import { SERVICE_KEY_REPOSITORY } from '../../application/ports/service-key-repository.port.js';
import { UNIT_OF_WORK } from '../../application/ports/unit-of-work.port.js';
import { VACANCY_REPOSITORY } from '../../application/ports/vacancy-repository.port.js';
import { PgBoardRepository } from '../../adapters/persistence/postgres/pg-board-repository.js';
import { PgCandidateRepository } from '../../adapters/persistence/postgres/pg-candidate-repository.js';
import { PgCompanyRepository } from '../../adapters/persistence/postgres/pg-company-repository.js';
import { PgFeedLedger } from '../../adapters/persistence/postgres/pg-feed-ledger.js';
import { PgPlatformTokenRepository } from '../../adapters/persistence/postgres/pg-platform-token-repository.js';
import { PgRenderingCheck } from '../../adapters/persistence/postgres/pg-rendering-check.js';
import { PgServiceKeyRepository } from '../../adapters/persistence/postgres/pg-service-key-repository.js';
import { PgUnitOfWork } from '../../adapters/persistence/postgres/pg-unit-of-work.js';
import { PgVacancyRepository } from '../../adapters/persistence/postgres/pg-vacancy-repository.js';
import { DatabaseProbe } from '../../adapters/persistence/postgres/database-probe.js';
import type { AppConfig } from '../config.js';
import { migrateDatabases } from '../database/migrate-databases.js';
import { openDatabases, type Databases } from '../database/open-databases.js';
import { POSTGRES_DATABASES, READINESS } from './infrastructure.tokens.js';
import { bindPort, resolve } from './typed-binding.js';
import { DATABASE_POOL_STATS, REPLICA_READ_STATS } from './metrics.tokens.js';
import { ReplicaReads } from '../../adapters/persistence/postgres/replicas/replica-reads.js';
import type { DatabasePoolStatsSource } from '../../adapters/http/metrics/http-metrics.js';

/**
 * STORE=postgres: opens the business database and the key registry (starting the embedded PostgreSQL
 * when DATABASE_URL is unset), applies the committed migrations, and binds every persistence port to
 * its PostgreSQL adapter (pg, ADR 25). Disposing the container closes the pools and stops the embedded server.
 */
export async function postgresModule(config: AppConfig, logger?: Logger): Promise<ContainerModule> {
  const databases = await openDatabases({
    databaseUrl: config.databaseUrl,
    keysDatabaseUrl: config.keysDatabaseUrl,
    dataDir: config.dataDir,
    embeddedPort: config.embeddedPgPort,
    poolMax: config.dbPoolMax,
    timeouts: config.dbTimeouts,
    preparedStatements: config.dbPreparedStatements,
    ...(logger === undefined ? {} : { onIdleError: idleErrorLog(logger) }),
  });
  try {
    await migrateDatabases(databases, { logger });
  } catch (error) {
    await databases.close();
    throw error;
  }
  // Readiness's own connections, opened at its first question. Closed before the databases: an embedded server
  // stops only once no connection but its owner's is open.
  const probes = databaseProbes(databases, config, logger);
  const replicas = replicaReads(databases, config, logger);
  return new ContainerModule(({ bind }) => {
    bindPort(bind, POSTGRES_DATABASES)
      .toConstantValue(databases)
      .onDeactivation(async (opened) => {
        await Promise.all([...probes.map((probe) => probe.close()), replicas?.close()]);
        await opened.close();
      });
    const business = (ctx: Parameters<typeof resolve>[0]) => resolve(ctx, POSTGRES_DATABASES).business;
    const registry = (ctx: Parameters<typeof resolve>[0]) => resolve(ctx, POSTGRES_DATABASES).registry;
    bindPort(bind, COMPANY_REPOSITORY).toDynamicValue((ctx) => new PgCompanyRepository(registry(ctx)));
    bindPort(bind, SERVICE_KEY_REPOSITORY).toDynamicValue((ctx) => new PgServiceKeyRepository(registry(ctx)));
    bindPort(bind, PLATFORM_TOKEN_REPOSITORY).toDynamicValue((ctx) => new PgPlatformTokenRepository(registry(ctx)));
    bindPort(bind, VACANCY_REPOSITORY).toDynamicValue((ctx) => new PgVacancyRepository(business(ctx), replicas?.router));
    bindPort(bind, BOARD_REPOSITORY).toDynamicValue((ctx) => new PgBoardRepository(business(ctx)));
    bindPort(bind, CANDIDATE_REPOSITORY).toDynamicValue((ctx) => new PgCandidateRepository(business(ctx), replicas?.router));
    bindPort(bind, UNIT_OF_WORK).toDynamicValue((ctx) => new PgUnitOfWork(business(ctx), { barrierPositions: replicas !== undefined }));
    bindPort(bind, FEED_LEDGER).toDynamicValue((ctx) => new PgFeedLedger(business(ctx)));
    bindPort(bind, RENDERING_CHECK).toDynamicValue((ctx) => new PgRenderingCheck(business(ctx)));
    bindPort(bind, READINESS).toConstantValue(readiness(probes));
    bindPort(bind, DATABASE_POOL_STATS).toDynamicValue((ctx) => poolStats(resolve(ctx, POSTGRES_DATABASES)));
    if (replicas !== undefined) bindPort(bind, REPLICA_READ_STATS).toConstantValue(replicas.stats);
  });
}

/**
 * DATABASE_REPLICA_URLS set: the replicas the list pages are read from (ADR 26); readiness does not ask them, since a
 * replica away only sends the pages to the primary.
 */
function replicaReads(databases: Databases, config: AppConfig, logger: Logger | undefined): ReplicaReads | undefined {
  if (config.databaseReplicaUrls.length === 0) return undefined;
  const log = logger?.child({ component: 'replica reads' });
  return new ReplicaReads(databases.business, {
    urls: config.databaseReplicaUrls,
    waitMs: config.dbReplicaWaitMs,
    poolMax: config.dbPoolMax,
    statementMs: config.dbTimeouts.statementMs,
    connectMs: config.dbTimeouts.connectMs,
    onReplicaError: (replica, error) => log?.warn({ replica, err: { name: (error as Error).name, code: (error as { code?: unknown }).code, message: (error as Error).message } }, 'a replica failed; its pages go to the primary'),
  });
}

/**
 * How long readiness waits for the databases' answer before it says no: a probe (a balancer's, the feed
 * consumer's while it pauses) learns of a database or pooler that does not answer in this time, not after
 * a request's whole bound (DB_STATEMENT_TIMEOUT_MS and the client's margin, 12 s by default).
 */
const READINESS_BOUND_MS = 2_000;

/** A pooled connection that broke while idle (the server restarted): the pool drops it; said as one JSON log line. */
function idleErrorLog(logger: Logger) {
  const log = logger.child({ component: 'database pool' });
  return (error: Error) => log.warn({ err: { name: error.name, code: (error as { code?: unknown }).code } }, 'an idle database connection broke; the pool dropped it');
}

/** GET /metrics: use of each database's pool; one pool when both are one database. */
function poolStats(databases: Databases): DatabasePoolStatsSource {
  const pools = databases.registry === databases.business
    ? [['business', databases.business] as const]
    : [['business', databases.business] as const, ['registry', databases.registry] as const];
  return () => pools.map(([pool, database]) => ({ pool, ...database.stats() }));
}

/** The probes of readiness: one per database (one when the business database holds the key registry too). */
function databaseProbes(databases: Databases, config: AppConfig, logger: Logger | undefined): DatabaseProbe[] {
  const urls = [...new Set([databases.businessUrl, databases.registryUrl])];
  const log = logger?.child({ component: 'readiness probe' });
  return urls.map(
    (url) => new DatabaseProbe(url, { connectTimeoutMs: config.dbTimeouts.connectMs, onIdleError: (error) => log?.warn({ err: { name: error.name, code: (error as { code?: unknown }).code } }, 'the readiness probe lost its idle database connection') }),
  );
}

/**
 * /readyz: both databases answer, each asked on the probe's own connection (DatabaseProbe), never one of the
 * requests' pools: with every pooled connection busy for longer than the bound, the instance would say 503
 * though the database answers.
 */
function readiness(probes: readonly DatabaseProbe[]): () => Promise<boolean> {
  let asking: Promise<boolean> | undefined;
  // One question to the databases at a time, whoever asks (probes every second during an outage would
  // otherwise pile up on the probe's one connection while they wait).
  const ask = () =>
    (asking ??= Promise.all(probes.map((probe) => probe.answers()))
      .then((answers) => answers.every(Boolean), () => false)
      .finally(() => {
        asking = undefined;
      }));
  return async () => {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<boolean>((answer) => {
      timer = setTimeout(() => answer(false), READINESS_BOUND_MS);
    });
    try {
      return await Promise.race([ask(), late]);
    } finally {
      clearTimeout(timer);
    }
  };
}
