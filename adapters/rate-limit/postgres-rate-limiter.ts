import type pg from 'pg';
import { RateLimiterPostgres } from 'rate-limiter-flexible';
import { budgetOptions } from './flexible-rate-limiter.js';
import type { RateLimiter } from './rate-limiter.js';
import { StoreOutageGuard, type SharedStoreOptions } from './store-outage-guard.js';

export interface PostgresRateLimiterOptions extends SharedStoreOptions {
  /** A pool of its own: bound the waits with connectionTimeoutMillis and query_timeout, or a stuck database stalls requests. */
  readonly pool: pg.Pool;
  readonly tableName?: string;
}

export const RATE_LIMIT_TABLE = 'rate_limit_buckets';

/** Key of the advisory lock under which instances create the table, one after another. */
const TABLE_CREATION_LOCK = 0x52_41_54_45;

/**
 * One budget for every instance on this PostgreSQL database: a row per bucket, counted with an atomic
 * upsert. Resolves once the table exists; rejects when it cannot be created, so that the service does not
 * start on a store it cannot use. Once running, a failing database degrades to per-process limits.
 */
export async function createPostgresRateLimiter(options: PostgresRateLimiterOptions): Promise<RateLimiter> {
  const tableName = options.tableName ?? RATE_LIMIT_TABLE;
  try {
    await createTable(options.pool, tableName);
  } catch (error) {
    throw new Error(`The rate-limit table could not be created: ${error instanceof Error ? error.message : String(error)}`);
  }
  return postgresRateLimiterOn(options);
}

/** Another budget on a database where createPostgresRateLimiter has made the table: built at once. */
export function postgresRateLimiterOn(options: PostgresRateLimiterOptions): RateLimiter {
  const tableName = options.tableName ?? RATE_LIMIT_TABLE;
  const guard = new StoreOutageGuard(options);
  const limiter = new RateLimiterPostgres({
    ...budgetOptions(options.budget),
    storeClient: withUnnamedStatements(options.pool),
    storeType: 'pool',
    tableName,
    tableCreated: true,
    insuranceLimiter: guard.insurance(),
  });
  return guard.limiterOf(limiter);
}

/**
 * The pool as rate-limiter-flexible sees it, with every statement unnamed. The library names its statements
 * (`rate_limit_buckets:rlflx-upsert`, ...), which makes node-postgres prepare them once per connection and
 * then send only their name: behind a transaction pooler the next use lands on a server connection that
 * never saw it ("prepared statement … does not exist"), and each one stays behind on a server connection.
 * Unnamed, each statement is parsed in the message that runs it and nothing outlives it (ADR 15).
 */
function withUnnamedStatements(pool: pg.Pool): { query(config: { text: string; values?: unknown[] }): Promise<pg.QueryResult> } {
  return { query: (config) => pool.query({ text: config.text, ...(config.values === undefined ? {} : { values: config.values }) }) };
}

/**
 * The table rate-limiter-flexible counts in (its own layout: key, points, expire in epoch ms), created here
 * rather than by the library: two instances starting at once both ran its CREATE TABLE IF NOT EXISTS, and
 * PostgreSQL lets one of them fail ("type … already exists"). Under a transaction advisory lock the
 * second waits, then finds the table.
 */
async function createTable(pool: pg.Pool, tableName: string): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('begin');
    await client.query('select pg_advisory_xact_lock($1)', [TABLE_CREATION_LOCK]);
    await client.query(
      `create table if not exists "${tableName.replace(/"/g, '""')}" (key varchar(255) primary key, points integer not null default 0, expire bigint)`,
    );
    await client.query('commit');
  } catch (error) {
    await client.query('rollback').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}
