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

/**
 * One budget for every instance on this PostgreSQL database: a row per bucket, counted with an atomic
 * upsert. Resolves once the table exists (the library creates it with CREATE TABLE IF NOT EXISTS,
 * which concurrent starts tolerate); rejects when it cannot, so that the service does not start on a
 * store it cannot use. Once running, a failing database degrades to per-process limits.
 */
export function createPostgresRateLimiter(options: PostgresRateLimiterOptions): Promise<RateLimiter> {
  const guard = new StoreOutageGuard(options);
  return new Promise((resolveLimiter, reject) => {
    const limiter: RateLimiterPostgres = new RateLimiterPostgres(
      {
        ...budgetOptions(options.budget),
        storeClient: options.pool,
        storeType: 'pool',
        tableName: options.tableName ?? RATE_LIMIT_TABLE,
        tableCreated: false,
        insuranceLimiter: guard.insurance(),
      },
      (error?: Error) => (error ? reject(new Error(`The rate-limit table could not be created: ${error.message}`)) : resolveLimiter(guard.limiterOf(limiter))),
    );
  });
}
