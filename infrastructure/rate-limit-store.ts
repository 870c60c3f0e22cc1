import pg from 'pg';
import type { Logger } from 'pino';
import { createMemoryRateLimiter, type RateLimitBudget } from '../adapters/rate-limit/flexible-rate-limiter.js';
import { createPostgresRateLimiter, postgresRateLimiterOn } from '../adapters/rate-limit/postgres-rate-limiter.js';
import type { RateLimiter } from '../adapters/rate-limit/rate-limiter.js';
import type { StoreOutageEvent } from '../adapters/rate-limit/store-outage-guard.js';
import { pgConnectionOf } from '../adapters/persistence/postgres/connection-fields.js';
import { ConfigError, type AppConfig, type RateLimitStoreKind } from './config.js';

/** The limiter of RATE_LIMIT_STORE and the connections it holds. */
export interface RateLimitStore {
  readonly kind: RateLimitStoreKind;
  readonly limiter: RateLimiter;
  /**
   * A limiter with another budget per window (`points` per RATE_LIMIT_WINDOW_S) on the same store and connections,
   * e.g. a platform token's ceiling; one per figure, made on first use.
   */
  limiterFor(points: number): RateLimiter;
  /** Closes the store's connections; safe to call more than once. */
  close(): Promise<void>;
}

type RateLimitSettings = Pick<AppConfig, 'rateLimitStore' | 'rateLimitPoints' | 'rateLimitWindowS' | 'redisUrl'>;

export interface SharedStoreContext {
  /** The business database as this process reaches it: DATABASE_URL, or the embedded server's URL. */
  readonly databaseUrl: string | null;
  readonly logger: Logger;
}

/** A store decision must not hold a request long: past these, the request is counted per process instead. */
const STORE_CONNECT_TIMEOUT_MS = 1_000;
const STORE_QUERY_TIMEOUT_MS = 1_000;
/** How long a start waits for Redis before it serves with per-process limits (Redis may come later). */
const REDIS_READY_WAIT_MS = 3_000;
/** Connection errors of a store are logged at most this often: a reconnecting client repeats them. */
const STORE_ERROR_LOG_INTERVAL_MS = 60_000;

export function budgetOf(config: Pick<AppConfig, 'rateLimitPoints' | 'rateLimitWindowS'>): RateLimitBudget {
  return { points: config.rateLimitPoints, windowS: config.rateLimitWindowS };
}

/** RATE_LIMIT_STORE=memory: nothing to open, so it is built at once. */
export function memoryRateLimitStore(config: Pick<AppConfig, 'rateLimitPoints' | 'rateLimitWindowS'>): RateLimitStore {
  const limiterFor = memoized((points) => createMemoryRateLimiter({ points, windowS: config.rateLimitWindowS }));
  return { kind: 'memory', limiter: createMemoryRateLimiter(budgetOf(config)), limiterFor, close: async () => {} };
}

/**
 * RATE_LIMIT_STORE=postgres or redis: one budget for every instance on the same store. The store is
 * insured by a per-process memory limiter, so a store outage degrades to per-process limits (logged as
 * a warning) instead of failing requests.
 */
export async function openSharedRateLimitStore(config: RateLimitSettings, context: SharedStoreContext): Promise<RateLimitStore> {
  const kind = config.rateLimitStore;
  const log = context.logger.child({ rateLimitStore: kind });
  const onOutage = (event: StoreOutageEvent) =>
    event === 'degraded'
      ? log.warn('the rate-limit store fails: budgets are counted per process until it answers again')
      : log.info('the rate-limit store answers again: budgets are shared again');
  const logStoreError = throttled(STORE_ERROR_LOG_INTERVAL_MS, (error: unknown) => log.warn({ err: error }, 'rate-limit store connection error'));
  const shared = { budget: budgetOf(config), onOutage };
  switch (kind) {
    case 'memory':
      return memoryRateLimitStore(config);
    case 'postgres':
      return openPostgresStore(requireDatabaseUrl(context.databaseUrl), shared, logStoreError);
    case 'redis':
      return openRedisStore(config.redisUrl, shared, log, logStoreError);
  }
}

function requireDatabaseUrl(url: string | null): string {
  if (url === null) {
    throw new ConfigError('RATE_LIMIT_STORE=postgres needs DATABASE_URL when STORE=memory (there is no database to count in); set DATABASE_URL, or use RATE_LIMIT_STORE=memory or redis.');
  }
  return url;
}

async function openPostgresStore(url: string, shared: { budget: RateLimitBudget; onOutage: (e: StoreOutageEvent) => void }, logStoreError: (error: unknown) => void): Promise<RateLimitStore> {
  const pool = new pg.Pool({
    ...pgConnectionOf(url),
    max: 5,
    connectionTimeoutMillis: STORE_CONNECT_TIMEOUT_MS,
    query_timeout: STORE_QUERY_TIMEOUT_MS,
    idleTimeoutMillis: 30_000,
    application_name: 'integration-api rate-limit',
  });
  // An idle connection that breaks is reported on the pool; unheard, the error would end the process.
  pool.on('error', logStoreError);
  const close = once(() => pool.end());
  try {
    const limiter = await createPostgresRateLimiter({ ...shared, pool });
    const limiterFor = memoized((points) => postgresRateLimiterOn({ ...shared, budget: { ...shared.budget, points }, pool }));
    return { kind: 'postgres', limiter, limiterFor, close };
  } catch (error) {
    await close();
    throw error;
  }
}

async function openRedisStore(url: string, shared: { budget: RateLimitBudget; onOutage: (e: StoreOutageEvent) => void }, log: Logger, logStoreError: (error: unknown) => void): Promise<RateLimitStore> {
  // Loaded on demand: only RATE_LIMIT_STORE=redis needs the client.
  const [{ Redis }, { createRedisRateLimiter }] = await Promise.all([import('ioredis'), import('../adapters/rate-limit/redis-rate-limiter.js')]);
  const client = new Redis(url, {
    // Fail a command at once while disconnected (the insurance takes over) instead of queueing it.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    connectTimeout: STORE_CONNECT_TIMEOUT_MS,
    commandTimeout: STORE_QUERY_TIMEOUT_MS,
    connectionName: 'integration-api-rate-limit',
  });
  client.on('error', logStoreError);
  const limiter = createRedisRateLimiter({ ...shared, client });
  if (!(await readyWithin(client, REDIS_READY_WAIT_MS))) {
    log.warn({ waitedMs: REDIS_READY_WAIT_MS }, 'Redis does not answer yet: budgets are counted per process until it does');
  }
  const close = once(async () => {
    try {
      await client.quit();
    } catch {
      client.disconnect();
    }
  });
  const limiterFor = memoized((points) => createRedisRateLimiter({ ...shared, budget: { ...shared.budget, points }, client }));
  return { kind: 'redis', limiter, limiterFor, close };
}

function readyWithin(client: import('ioredis').Redis, ms: number): Promise<boolean> {
  if (client.status === 'ready') return Promise.resolve(true);
  return new Promise((done) => {
    const timer = setTimeout(() => finish(false), ms);
    const onReady = () => finish(true);
    function finish(ready: boolean) {
      clearTimeout(timer);
      client.off('ready', onReady);
      done(ready);
    }
    client.once('ready', onReady);
  });
}

function throttled<A extends unknown[]>(intervalMs: number, action: (...args: A) => void): (...args: A) => void {
  let last = -Infinity;
  return (...args) => {
    const now = Date.now();
    if (now - last < intervalMs) return;
    last = now;
    action(...args);
  };
}

function once(action: () => Promise<void>): () => Promise<void> {
  let done: Promise<void> | undefined;
  return () => (done ??= action());
}

/** One limiter per budget figure, so that every caller asking for a figure counts in the same one. */
function memoized(make: (points: number) => RateLimiter): (points: number) => RateLimiter {
  const made = new Map<number, RateLimiter>();
  return (points) => {
    let limiter = made.get(points);
    if (limiter === undefined) made.set(points, (limiter = make(points)));
    return limiter;
  };
}
