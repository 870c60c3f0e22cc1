import { PgDatabase, type PostgresTimeouts } from '../../adapters/persistence/postgres/pg-database.js';
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
  /** Where a failure of an idle pooled connection goes (the pool drops the connection). */
  readonly onIdleError?: (error: Error) => void;
  /** DB_PREPARED_STATEMENTS=on: the pools' connections keep prepared statements (ADR 22); unset: off. */
  readonly preparedStatements?: boolean;
  readonly onEmbeddedLog?: (message: string) => void;
}

export interface Databases {
  /** DATABASE_URL: vacancies, boards, candidates, the feed's ledger. */
  readonly business: PgDatabase;
  /** KEYS_DATABASE_URL: companies, service keys, platform tokens. The same pool when both URLs are equal. */
  readonly registry: PgDatabase;
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
  const settings = {
    poolMax: config.poolMax ?? 10,
    ...(config.timeouts === undefined ? {} : { timeouts: config.timeouts }),
    ...(config.onIdleError === undefined ? {} : { onIdleError: config.onIdleError }),
    preparedStatements: config.preparedStatements === true,
  };
  const business = new PgDatabase({ ...settings, url: businessUrl });
  const registry = registryUrl === businessUrl ? business : new PgDatabase({ ...settings, url: registryUrl });
  const opened = [...new Set([business, registry])];
  let closing: Promise<void> | undefined;
  return {
    business,
    registry,
    businessUrl,
    registryUrl,
    embedded,
    close: () => (closing ??= closeAll(opened, embedded)),
  };
}

async function closeAll(databases: readonly PgDatabase[], embedded: RunningEmbeddedPostgres | null): Promise<void> {
  await Promise.all(databases.map((database) => database.close()));
  await embedded?.stop();
}

function nonEmpty(value: string | null | undefined): string | null {
  return value === null || value === undefined || value.trim() === '' ? null : value;
}
