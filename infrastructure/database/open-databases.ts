import { MikroORM } from '@mikro-orm/postgresql';
import { BUSINESS_ENTITIES, mikroOrmOptions, REGISTRY_ENTITIES, type DriverLog, type PostgresTimeouts } from '../../adapters/persistence/postgres/mikro-orm-options.js';
import { startEmbeddedPostgres, type RunningEmbeddedPostgres } from './embedded-postgres.js';

export interface DatabaseConfig {
  /** DATABASE_URL: a region's business database; null or empty starts the embedded PostgreSQL. */
  readonly databaseUrl: string | null;
  /** KEYS_DATABASE_URL: the key registry shared by the regions; null or empty means the business database. */
  readonly keysDatabaseUrl: string | null;
  /** DATA_DIR, for the embedded PostgreSQL. */
  readonly dataDir: string;
  /** EMBEDDED_PG_PORT; unset or null: the port kept in DATA_DIR. */
  readonly embeddedPort?: number | null;
  /** Most connections per pool (DB_POOL_MAX); default 10. */
  readonly poolMax?: number;
  /** DB_STATEMENT_TIMEOUT_MS and friends; unset: the drivers' defaults (no limits). */
  readonly timeouts?: PostgresTimeouts;
  /** Where the database driver's own warnings go; unset: its console output. */
  readonly driverLog?: DriverLog;
  /** DB_PREPARED_STATEMENTS=on: the pools' connections keep prepared statements (ADR 22); unset: off. */
  readonly preparedStatements?: boolean;
  readonly onEmbeddedLog?: (message: string) => void;
}

export interface Databases {
  /** MikroORM on DATABASE_URL: vacancies, boards, candidates. */
  readonly business: MikroORM;
  /** MikroORM on KEYS_DATABASE_URL: companies and service keys. The same instance when both URLs are equal. */
  readonly registry: MikroORM;
  readonly businessUrl: string;
  readonly registryUrl: string;
  /** The embedded server, when DATABASE_URL was unset. */
  readonly embedded: RunningEmbeddedPostgres | null;
  /** Closes the pools, then stops the embedded server if this process is the last to use it. */
  close(): Promise<void>;
}

/** Connects to the business database and the key registry, starting the embedded PostgreSQL if needed. */
export async function openDatabases(config: DatabaseConfig): Promise<Databases> {
  const embedded = nonEmpty(config.databaseUrl) === null
    ? await startEmbeddedPostgres({
        dataDir: config.dataDir,
        ...(config.embeddedPort === undefined || config.embeddedPort === null ? {} : { port: config.embeddedPort }),
        ...(config.onEmbeddedLog ? { onLog: config.onEmbeddedLog } : {}),
      })
    : null;
  const businessUrl = nonEmpty(config.databaseUrl) ?? (embedded as RunningEmbeddedPostgres).url;
  const registryUrl = nonEmpty(config.keysDatabaseUrl) ?? businessUrl;
  const opened: MikroORM[] = [];
  try {
    const settings = {
      poolMax: config.poolMax ?? 10,
      ...(config.timeouts === undefined ? {} : { timeouts: config.timeouts }),
      ...(config.driverLog === undefined ? {} : { driverLog: config.driverLog }),
      preparedStatements: config.preparedStatements === true,
    };
    let business: MikroORM;
    let registry: MikroORM;
    if (registryUrl === businessUrl) {
      business = await MikroORM.init(mikroOrmOptions({ ...settings, url: businessUrl, contextName: 'business' }, [...BUSINESS_ENTITIES, ...REGISTRY_ENTITIES]));
      opened.push(business);
      registry = business;
    } else {
      business = await MikroORM.init(mikroOrmOptions({ ...settings, url: businessUrl, contextName: 'business' }, BUSINESS_ENTITIES));
      opened.push(business);
      registry = await MikroORM.init(mikroOrmOptions({ ...settings, url: registryUrl, contextName: 'registry' }, REGISTRY_ENTITIES));
      opened.push(registry);
    }
    let closing: Promise<void> | undefined;
    return {
      business,
      registry,
      businessUrl,
      registryUrl,
      embedded,
      close: () => (closing ??= closeAll(opened, embedded)),
    };
  } catch (error) {
    await closeAll(opened, embedded).catch(() => undefined);
    throw error;
  }
}

async function closeAll(orms: readonly MikroORM[], embedded: RunningEmbeddedPostgres | null): Promise<void> {
  await Promise.all(orms.map((orm) => orm.close(true)));
  await embedded?.stop();
}

function nonEmpty(value: string | null | undefined): string | null {
  return value === null || value === undefined || value.trim() === '' ? null : value;
}
