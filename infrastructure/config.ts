import path from 'node:path';
import { EVENT_MAX_BYTES } from '../adapters/feed/feed-limits.js';
import { PAGE_MAX_BYTES_DEFAULT } from '../domain/paging/page-budget.js';
import { checkSettings, CONFIG_VARIABLES, KEY_CACHE_TTL_MAX_MS, parseDelayList, urlList, type ConfigVariable, type LOG_LEVELS } from './config.schema.js';

/** DB_REPLICA_WAIT_MS's default, from the replay delay measured under the benchmark's load (docs/running-at-scale.md). */
export const DB_REPLICA_WAIT_MS_DEFAULT = 200;

export type StoreKind = 'postgres' | 'memory';
export type RateLimitStoreKind = 'memory' | 'postgres' | 'redis';
export type Region = 'kz' | 'uz';
export type LogLevel = (typeof LOG_LEVELS)[number];

/** The service's settings, read once from the environment (DESIGN 4). */
export interface AppConfig {
  readonly port: number;
  readonly host: string;
  readonly store: StoreKind;
  /** Unset: an embedded PostgreSQL under dataDir. */
  readonly databaseUrl: string | null;
  readonly keysDatabaseUrl: string | null;
  /**
   * DATABASE_REPLICA_URLS: streaming replicas of DATABASE_URL (or a pooler in front of each) that answer the list
   * pages once they hold the page's barrier (ADR 26); empty: every read on the primary.
   */
  readonly databaseReplicaUrls: readonly string[];
  /** DB_REPLICA_WAIT_MS: how long a page waits for a replica to reach its barrier before the primary reads it. */
  readonly dbReplicaWaitMs: number;
  /** DB_POOL_MAX: most connections of each pool (business, registry) of one instance. Default 10. */
  readonly dbPoolMax: number;
  /**
   * DB_PREPARED_STATEMENTS (on|off, default off): whether the unit of work's statements of a fixed text are
   * prepared once per connection (ADR 22). On only for a direct connection or a pooler that keeps prepared
   * statements (PgBouncer 1.21+ with max_prepared_statements); off behind PgBouncer 1.18 in transaction mode.
   */
  readonly dbPreparedStatements: boolean;
  /**
   * Bounds on every wait for PostgreSQL, so that an outage answers 503 within a known time instead of
   * hanging requests: DB_STATEMENT_TIMEOUT_MS (default 10000; 0 = none), DB_CONNECT_TIMEOUT_MS (3000),
   * DB_ACQUIRE_TIMEOUT_MS (5000), DB_IDLE_IN_TRANSACTION_TIMEOUT_MS (30000; 0 = none).
   */
  readonly dbTimeouts: DatabaseTimeouts;
  readonly dataDir: string;
  /**
   * EMBEDDED_PG_PORT: the embedded PostgreSQL's port on 127.0.0.1, kept in DATA_DIR for later starts. Unset (null):
   * the port kept there, chosen free at the first start. A start on a kept port that is taken fails, naming it.
   */
  readonly embeddedPgPort: number | null;
  readonly region: Region;
  readonly publicBaseUrl: string;
  readonly rateLimitPoints: number;
  readonly rateLimitWindowS: number;
  /**
   * MANAGEMENT_TOKEN_RATE_LIMIT_POINTS: a platform token's ceiling per RATE_LIMIT_WINDOW_S across every company it
   * names on the management API (404s included), above the per-company budgets. Default RATE_LIMIT_POINTS.
   */
  readonly managementTokenRateLimitPoints: number;
  /**
   * NOT_MODIFIED_RATE_LIMIT_POINTS: a key's budget per RATE_LIMIT_WINDOW_S of conditional list requests
   * (If-None-Match), apart from its request budget, which a 304 does not spend. Default 10 × RATE_LIMIT_POINTS.
   */
  readonly notModifiedRateLimitPoints: number;
  /**
   * Where the budgets are counted: `memory` (this process), `postgres` (a table in the business database,
   * DATABASE_URL or the embedded server's) or `redis` (REDIS_URL). Shared stores fall back to per-process
   * counting while they fail.
   */
  readonly rateLimitStore: RateLimitStoreKind;
  /** RATE_LIMIT_STORE=redis only. */
  readonly redisUrl: string;
  /**
   * KEY_CACHE_TTL_MS: how long an instance trusts what it read of a service key from the registry; a
   * revocation reaches every instance within this time. 0 reads the registry on every request. At most 5000.
   */
  readonly keyCacheTtlMs: number;
  /**
   * LIST_PAGE_MAX_BYTES (default 8 MiB): a page of GET /vacancies or GET /candidates ends before the item that
   * would take its body past this many bytes (a first item larger than that goes out alone), so that a page of
   * large records never holds more than about this much of the service's memory.
   */
  readonly listPageMaxBytes: number;
  readonly logLevel: LogLevel;
  readonly metrics: boolean;
  /** METRICS_HOST and METRICS_PORT (default 127.0.0.1:9464; 0 picks a free port): GET /metrics, never on the public listener. */
  readonly metricsHost: string;
  readonly metricsPort: number;
  /**
   * MANAGEMENT_HOST and MANAGEMENT_PORT (default 127.0.0.1:8081): the management API's own listener (DESIGN 4b),
   * never the public one. Port 0 turns it off (no listener at all), unlike PORT and METRICS_PORT.
   */
  readonly managementHost: string;
  readonly managementPort: number;
  /**
   * SHUTDOWN_DELAY_MS (default 0, at most 60000): after SIGTERM or SIGINT, how long the service goes on
   * serving, `/readyz` answering 503, before it stops listening and drains. Behind a balancer that learns of a
   * stopping instance late (Kubernetes removes a pod's endpoints while its SIGTERM is on the way), a few
   * seconds let it take the instance out of rotation before new connections would be refused.
   */
  readonly shutdownDelayMs: number;
  /**
   * TRUST_PROXY: how many proxies stand in front (off = 0, on = 1). The client address is the entry of
   * X-Forwarded-For that many hops from the right: the ones further left were written by the client itself.
   */
  readonly trustProxy: number;
  /** `source` of records imported from the job board (DESIGN 3, Job-board label); JOB_BOARD_LABEL, default hh. */
  readonly jobBoardLabel: string;
  /** FEED_URL: the platform feed's broker (amqp:// or amqps://). Unset: null; only `npm run feed` needs it. */
  readonly feedUrl: string | null;
  /** FEED_QUEUE: the main queue, also the prefix of `<queue>.dead` and `<queue>.retry.<ms>`. Default integration.platform-events. */
  readonly feedQueue: string;
  /**
   * FEED_PREFETCH: unacknowledged messages one consumer holds, all handled at once (1 to 1000): the more of a
   * company's events are in flight, the more of them one transaction applies (group commit). Its product with
   * EVENT_MAX_BYTES may not pass FEED_MAX_HELD_BYTES; default 256, or less when the budget allows less.
   */
  readonly feedPrefetch: number;
  /**
   * FEED_MAX_HELD_BYTES: the bodies one consumer may hold at once, in bytes, at worst FEED_PREFETCH messages of
   * EVENT_MAX_BYTES each (the broker refusing larger ones: its `max_message_size`). Default 1 GiB.
   */
  readonly feedMaxHeldBytes: number;
  /** FEED_TOMBSTONE_DAYS: how long a deletion's tombstone (and an applied event id) is kept. Default 7. */
  readonly feedTombstoneDays: number;
  /** FEED_MAX_ATTEMPTS: how many times an event that cannot apply yet is taken before it is dead-lettered. Default 10. */
  readonly feedMaxAttempts: number;
  /**
   * FEED_RETRY_DELAYS_MS: ascending delays before a retried event is taken again; the n-th retry waits the
   * n-th delay and the last one repeats. Default 1000,5000,30000,120000,600000.
   */
  readonly feedRetryDelaysMs: readonly number[];
  /**
   * The feed process's own GET /metrics port: METRICS_PORT when it is set, else 9465, one above the API's
   * default, so that `npm start` and `npm run feed` run side by side on one machine with METRICS=on.
   */
  readonly feedMetricsPort: number;
}

export const FEED_DEFAULT_METRICS_PORT = 9465;
/** FEED_MAX_HELD_BYTES's default: room for 202 messages of the largest size, the default prefetch then. */
export const FEED_DEFAULT_MAX_HELD_BYTES = 1024 ** 3;
/** FEED_PREFETCH's default when the budget allows it (ADR 16: group commit needs many events in flight). */
const FEED_DEFAULT_PREFETCH = 256;

/**
 * What a feed consumer may hold (docs/feed-broker.md): FEED_PREFETCH messages of at most EVENT_MAX_BYTES each
 * (the broker's `max_message_size`), within FEED_MAX_HELD_BYTES. An unset prefetch is derived from the budget;
 * one that would pass it stops the start, naming both, rather than being lowered behind the operator's back.
 */
function feedHolding(prefetch: number | undefined, maxHeldBytes: number): { feedPrefetch: number; feedMaxHeldBytes: number } {
  const fits = Math.floor(maxHeldBytes / EVENT_MAX_BYTES);
  if (prefetch === undefined) return { feedPrefetch: Math.min(FEED_DEFAULT_PREFETCH, fits), feedMaxHeldBytes: maxHeldBytes };
  if (prefetch > fits) {
    throw new ConfigError(
      `FEED_PREFETCH messages of up to ${EVENT_MAX_BYTES} bytes each (the largest event) must fit in FEED_MAX_HELD_BYTES (${maxHeldBytes}): set FEED_PREFETCH to at most ${fits}, or FEED_MAX_HELD_BYTES to at least ${prefetch * EVENT_MAX_BYTES}; got "${prefetch}".`,
    );
  }
  return { feedPrefetch: prefetch, feedMaxHeldBytes: maxHeldBytes };
}

/** See AppConfig.dbTimeouts; the same shape as the PostgreSQL adapter's PostgresTimeouts. */
export interface DatabaseTimeouts {
  readonly statementMs: number;
  readonly connectMs: number;
  readonly acquireMs: number;
  readonly idleInTransactionMs: number;
}

export class ConfigError extends Error {
  /** Every problem found, one sentence each; the message lists them all. */
  readonly problems: readonly string[];

  constructor(problems: string | readonly string[]) {
    const list = typeof problems === 'string' ? [problems] : [...problems];
    super(list.length === 1 ? (list[0] as string) : `${list.length} settings are invalid:\n${list.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
    this.problems = list;
  }
}

/**
 * The settings, validated as a whole against CONFIG_SCHEMA before any is used: every problem is reported
 * at once, each naming its variable, and no password is ever echoed.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const { settings, problems } = checkSettings(variablesSet(env));
  if (problems.length > 0) throw new ConfigError(problems);
  const text = (name: ConfigVariable, fallback: string) => (settings[name] as string | undefined) ?? fallback;
  const integer = (name: ConfigVariable, fallback: number) => (settings[name] as number | undefined) ?? fallback;
  const port = integer('PORT', 8080);
  const host = text('HOST', '127.0.0.1');
  const managementPort = integer('MANAGEMENT_PORT', 8081);
  // Told apart here rather than by a failing listen: on another host the same port would listen, and serve the
  // management API where the public one is expected.
  if (managementPort !== 0 && managementPort === port) {
    throw new ConfigError(`MANAGEMENT_PORT must differ from PORT: the management API is never served on the public port; got "${managementPort}".`);
  }
  const databaseUrl = (settings.DATABASE_URL as string | undefined) ?? null;
  const { feedPrefetch, feedMaxHeldBytes } = feedHolding(settings.FEED_PREFETCH as number | undefined, integer('FEED_MAX_HELD_BYTES', FEED_DEFAULT_MAX_HELD_BYTES));
  const rateLimitPoints = integer('RATE_LIMIT_POINTS', 600);
  return {
    port,
    host,
    store: text('STORE', 'postgres') as StoreKind,
    databaseUrl,
    keysDatabaseUrl: (settings.KEYS_DATABASE_URL as string | undefined) ?? databaseUrl,
    databaseReplicaUrls: urlList(settings.DATABASE_REPLICA_URLS as string | undefined),
    dbReplicaWaitMs: integer('DB_REPLICA_WAIT_MS', DB_REPLICA_WAIT_MS_DEFAULT),
    dbPoolMax: integer('DB_POOL_MAX', 10),
    dbPreparedStatements: text('DB_PREPARED_STATEMENTS', 'off') === 'on',
    dbTimeouts: {
      statementMs: integer('DB_STATEMENT_TIMEOUT_MS', 10_000),
      connectMs: integer('DB_CONNECT_TIMEOUT_MS', 3_000),
      acquireMs: integer('DB_ACQUIRE_TIMEOUT_MS', 5_000),
      idleInTransactionMs: integer('DB_IDLE_IN_TRANSACTION_TIMEOUT_MS', 30_000),
    },
    dataDir: path.resolve(text('DATA_DIR', './var')),
    embeddedPgPort: (settings.EMBEDDED_PG_PORT as number | undefined) ?? null,
    region: text('REGION', 'kz') as Region,
    publicBaseUrl: text('PUBLIC_BASE_URL', `http://${host}:${port}/api`).replace(/\/+$/, ''),
    rateLimitPoints,
    rateLimitWindowS: integer('RATE_LIMIT_WINDOW_S', 60),
    managementTokenRateLimitPoints: integer('MANAGEMENT_TOKEN_RATE_LIMIT_POINTS', rateLimitPoints),
    notModifiedRateLimitPoints: integer('NOT_MODIFIED_RATE_LIMIT_POINTS', Math.min(10 * rateLimitPoints, 1_000_000_000)),
    rateLimitStore: text('RATE_LIMIT_STORE', 'memory') as RateLimitStoreKind,
    redisUrl: text('REDIS_URL', 'redis://127.0.0.1:6379'),
    keyCacheTtlMs: integer('KEY_CACHE_TTL_MS', KEY_CACHE_TTL_MAX_MS),
    listPageMaxBytes: integer('LIST_PAGE_MAX_BYTES', PAGE_MAX_BYTES_DEFAULT),
    logLevel: text('LOG_LEVEL', 'info') as LogLevel,
    metrics: text('METRICS', 'off') === 'on',
    metricsHost: text('METRICS_HOST', '127.0.0.1'),
    metricsPort: integer('METRICS_PORT', 9464),
    managementHost: text('MANAGEMENT_HOST', '127.0.0.1'),
    managementPort,
    shutdownDelayMs: integer('SHUTDOWN_DELAY_MS', 0),
    trustProxy: proxyHops(settings.TRUST_PROXY),
    jobBoardLabel: text('JOB_BOARD_LABEL', 'hh'),
    feedUrl: (settings.FEED_URL as string | undefined) ?? null,
    feedQueue: text('FEED_QUEUE', 'integration.platform-events'),
    feedPrefetch,
    feedMaxHeldBytes,
    feedTombstoneDays: integer('FEED_TOMBSTONE_DAYS', 7),
    feedMaxAttempts: integer('FEED_MAX_ATTEMPTS', 10),
    feedRetryDelaysMs: parseDelayList(text('FEED_RETRY_DELAYS_MS', '1000,5000,30000,120000,600000')) as number[],
    feedMetricsPort: integer('METRICS_PORT', FEED_DEFAULT_METRICS_PORT),
  };
}

function proxyHops(value: unknown): number {
  if (value === undefined || value === 'off') return 0;
  return value === 'on' ? 1 : (value as number);
}

/** The variables of CONFIG_SCHEMA that are set, trimmed; a blank one counts as unset. */
function variablesSet(env: NodeJS.ProcessEnv): Record<string, string> {
  const set: Record<string, string> = {};
  for (const name of CONFIG_VARIABLES) {
    const value = env[name]?.trim();
    if (value !== undefined && value !== '') set[name] = value;
  }
  return set;
}
