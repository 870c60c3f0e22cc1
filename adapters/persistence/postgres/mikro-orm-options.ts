import type { EntitySchema } from '@mikro-orm/core';
import type pg from 'pg';
import { PostgreSqlDriver, type Options } from '@mikro-orm/postgresql';
import { BoardRowSchema } from './entities/board.entity.js';
import { CandidateRowSchema } from './entities/candidate.entity.js';
import { CompanyRowSchema } from './entities/company.entity.js';
import { PlatformTokenRowSchema } from './entities/platform-token.entity.js';
import { ServiceKeyRowSchema } from './entities/service-key.entity.js';
import { VacancyRowSchema } from './entities/vacancy.entity.js';
import { keepPreparedStatements } from './prepared-statements.js';
import { closeConnectionOnReadTimeout } from './read-timeout-guard.js';
import { boundEveryTransaction } from './transaction-timeouts.js';

export const REGISTRY_ENTITIES = [CompanyRowSchema, ServiceKeyRowSchema, PlatformTokenRowSchema];
export const BUSINESS_ENTITIES = [VacancyRowSchema, BoardRowSchema, CandidateRowSchema];

/**
 * Bounds on every wait for the database, so that a database that is down, restarting or unreachable
 * fails a call within a known time (as StoreUnavailableError, see store-errors.ts) instead of hanging it.
 */
export interface PostgresTimeouts {
  /**
   * statement_timeout of every transaction (SET LOCAL, see transaction-timeouts.ts): PostgreSQL cancels a statement that runs longer, waits for a
   * company lock included (SQLSTATE 57014). The client gives up on its own a little later (query_timeout),
   * for a server that no longer answers at all. 0: no limit.
   */
  readonly statementMs: number;
  /** Opening a connection: TCP, TLS and authentication (pg connectionTimeoutMillis; tarn createTimeoutMillis). */
  readonly connectMs: number;
  /** Waiting for a free connection of the pool when all are in use (knex acquireConnectionTimeout). */
  readonly acquireMs: number;
  /**
   * idle_in_transaction_session_timeout, set per transaction as well: PostgreSQL ends a session that sits inside a transaction this
   * long without a statement, releasing its locks (an instance that froze while holding a company lock).
   * 0: no limit.
   */
  readonly idleInTransactionMs: number;
}

export interface DriverLog {
  warn(message: unknown): void;
  error(message: unknown): void;
}

/** How much later than the server's statement_timeout the client stops waiting for an answer. */
const CLIENT_READ_TIMEOUT_MARGIN_MS = 2_000;

/**
 * The server version knex is told, so that it never asks: unset, knex sends `select version()` on the first
 * connection of a pool before handing it over, and when that query fails (its read timeout, while a pooler is
 * paused) knex drops the connection without closing it, whose open socket then keeps a finished process (the
 * admin CLI) alive. knex's PostgreSQL dialect uses the version only to choose json column types in its schema
 * builder (from 9.2), which nothing here uses (the migrations are SQL): PostgreSQL 15, the oldest server the
 * project runs on (the machine's; the embedded one is newer).
 */
const KNEX_SERVER_VERSION = '15';

export interface PostgresConnectionSettings {
  readonly url: string;
  /** Most connections the pool opens. */
  readonly poolMax?: number;
  /** Names the instance in MikroORM's own async context, so that two instances never pick up each other's. */
  readonly contextName: string;
  /** Unset: the drivers' own defaults (no statement limit, a 60 s acquire wait), as migrations want. */
  readonly timeouts?: PostgresTimeouts;
  /**
   * Where knex's own warnings go (a broken connection it discards, say); unset, knex prints them with
   * console.log, as plain text among the JSON log lines.
   */
  readonly driverLog?: DriverLog;
  readonly debug?: boolean;
  /**
   * DB_PREPARED_STATEMENTS=on: the pool's connections keep named prepared statements (ADR 22), so the unit of
   * work's statements of a fixed text are prepared once per connection, each execution planned for its values.
   * Only for a direct connection to the server or a pooler that keeps them (PgBouncer 1.21+ with
   * max_prepared_statements). Unset: none (ADR 15).
   */
  readonly preparedStatements?: boolean;
}

/**
 * MikroORM options for one PostgreSQL database. The schema belongs to the committed migrations, never to
 * the entity metadata: no ensureDatabase, no schema update at start.
 */
export function mikroOrmOptions(settings: PostgresConnectionSettings, entities: readonly EntitySchema<any>[]): Options {
  return {
    driver: PostgreSqlDriver,
    clientUrl: settings.url,
    entities: [...entities],
    contextName: settings.contextName,
    discovery: { warnWhenNoEntities: false },
    ensureDatabase: false,
    allowGlobalContext: false,
    // Dates travel as ISO 8601 in UTC, whatever the process's or the session's time zone.
    forceUtcTimezone: true,
    pool: {
      min: 0,
      max: settings.poolMax ?? 10,
      idleTimeoutMillis: 30_000,
      // The pool's own bound on opening a connection stays behind pg's, so a connect that hangs is reported as such.
      ...(settings.timeouts === undefined ? {} : { createTimeoutMillis: settings.timeouts.connectMs + 1_000 }),
      ...(settings.timeouts === undefined && settings.preparedStatements !== true ? {} : { afterCreate: afterCreate(settings.timeouts, settings.preparedStatements === true) }),
    },
    driverOptions: {
      version: KNEX_SERVER_VERSION,
      ...(settings.timeouts === undefined ? {} : driverTimeouts(settings.timeouts)),
      ...(settings.driverLog === undefined ? {} : { log: { warn: settings.driverLog.warn, error: settings.driverLog.error } }),
    },
    debug: settings.debug ?? false,
  };
}

/**
 * The knex and node-postgres settings of the timeouts; knex merges `connection` into the pg Client's config.
 * Nothing here becomes a startup parameter: a transaction pooler refuses those it cannot keep per client
 * (PgBouncer accepts only client_encoding, DateStyle, TimeZone, standard_conforming_strings and
 * application_name), and would not keep them per transaction anyway. The server-side bounds are set by
 * each transaction instead (ADR 15); connectionTimeoutMillis and query_timeout stay in the client.
 */
function driverTimeouts(timeouts: PostgresTimeouts) {
  const positive = (ms: number) => (ms > 0 ? ms : undefined);
  return {
    acquireConnectionTimeout: timeouts.acquireMs,
    connection: {
      connectionTimeoutMillis: timeouts.connectMs,
      query_timeout: positive(timeouts.statementMs === 0 ? 0 : timeouts.statementMs + CLIENT_READ_TIMEOUT_MARGIN_MS),
    },
  };
}

/**
 * Each new pg connection: closed on a client read timeout (inner), when there are timeouts, and its
 * transactions bounded (outer); with prepared statements on, marked as keeping them, and its transactions
 * planned for their values (force_custom_plan, ADR 22).
 */
function afterCreate(timeouts: PostgresTimeouts | undefined, preparedStatements: boolean) {
  const bounds = { statementMs: timeouts?.statementMs ?? 0, idleInTransactionMs: timeouts?.idleInTransactionMs ?? 0, customPlans: preparedStatements };
  const bound = (connection: pg.Client) => {
    boundEveryTransaction(connection, bounds);
    if (preparedStatements) keepPreparedStatements(connection);
  };
  return (connection: pg.Client, done: (error: Error | null, connection: pg.Client) => void): void => {
    if (timeouts === undefined) {
      bound(connection);
      done(null, connection);
      return;
    }
    closeConnectionOnReadTimeout(connection, (error, guarded) => {
      if (error === null) bound(guarded);
      done(error, guarded);
    });
  };
}
