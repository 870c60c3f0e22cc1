import path from 'node:path';

export type StoreKind = 'postgres' | 'memory';
export type RateLimitStoreKind = 'memory' | 'postgres' | 'redis';
export type Region = 'kz' | 'uz';
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** A revocation must shut a key out of every instance within 5 s (issue 5): the cache may not hold longer. */
const KEY_CACHE_TTL_MAX_MS = 5_000;

/** The service's settings, read once from the environment (DESIGN 4). */
export interface AppConfig {
  readonly port: number;
  readonly host: string;
  readonly store: StoreKind;
  /** Unset: an embedded PostgreSQL under dataDir. */
  readonly databaseUrl: string | null;
  readonly keysDatabaseUrl: string | null;
  /** DB_POOL_MAX: most connections of each pool (business, registry) of one instance. Default 10. */
  readonly dbPoolMax: number;
  /**
   * Bounds on every wait for PostgreSQL, so that an outage answers 503 within a known time instead of
   * hanging requests: DB_STATEMENT_TIMEOUT_MS (default 10000; 0 = none), DB_CONNECT_TIMEOUT_MS (3000),
   * DB_ACQUIRE_TIMEOUT_MS (5000), DB_IDLE_IN_TRANSACTION_TIMEOUT_MS (30000; 0 = none).
   */
  readonly dbTimeouts: DatabaseTimeouts;
  readonly dataDir: string;
  readonly region: Region;
  readonly publicBaseUrl: string;
  readonly rateLimitPoints: number;
  readonly rateLimitWindowS: number;
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
  readonly logLevel: LogLevel;
  readonly metrics: boolean;
  /** TRUST_PROXY=on: behind a load balancer, the client address is read from X-Forwarded-For. */
  readonly trustProxy: boolean;
  /** `source` of records imported from the job board (DESIGN 3, Job-board label); JOB_BOARD_LABEL, default hh. */
  readonly jobBoardLabel: string;
}

/** See AppConfig.dbTimeouts; the same shape as the PostgreSQL adapter's PostgresTimeouts. */
export interface DatabaseTimeouts {
  readonly statementMs: number;
  readonly connectMs: number;
  readonly acquireMs: number;
  readonly idleInTransactionMs: number;
}

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const port = integer(env, 'PORT', 8080, 0, 65_535);
  const host = text(env, 'HOST', '127.0.0.1');
  const databaseUrl = optional(env, 'DATABASE_URL');
  return {
    port,
    host,
    store: oneOf(env, 'STORE', ['postgres', 'memory'] as const, 'postgres'),
    databaseUrl,
    keysDatabaseUrl: optional(env, 'KEYS_DATABASE_URL') ?? databaseUrl,
    dbPoolMax: integer(env, 'DB_POOL_MAX', 10, 1, 1_000),
    dbTimeouts: {
      statementMs: integer(env, 'DB_STATEMENT_TIMEOUT_MS', 10_000, 0, 3_600_000),
      connectMs: integer(env, 'DB_CONNECT_TIMEOUT_MS', 3_000, 100, 600_000),
      acquireMs: integer(env, 'DB_ACQUIRE_TIMEOUT_MS', 5_000, 100, 600_000),
      idleInTransactionMs: integer(env, 'DB_IDLE_IN_TRANSACTION_TIMEOUT_MS', 30_000, 0, 3_600_000),
    },
    dataDir: path.resolve(text(env, 'DATA_DIR', './var')),
    region: oneOf(env, 'REGION', ['kz', 'uz'] as const, 'kz'),
    publicBaseUrl: text(env, 'PUBLIC_BASE_URL', `http://${host}:${port}/api`).replace(/\/+$/, ''),
    rateLimitPoints: integer(env, 'RATE_LIMIT_POINTS', 600, 1, 1_000_000_000),
    rateLimitWindowS: integer(env, 'RATE_LIMIT_WINDOW_S', 60, 1, 86_400),
    rateLimitStore: oneOf(env, 'RATE_LIMIT_STORE', ['memory', 'postgres', 'redis'] as const, 'memory'),
    redisUrl: text(env, 'REDIS_URL', 'redis://127.0.0.1:6379'),
    keyCacheTtlMs: integer(env, 'KEY_CACHE_TTL_MS', KEY_CACHE_TTL_MAX_MS, 0, KEY_CACHE_TTL_MAX_MS),
    logLevel: oneOf(env, 'LOG_LEVEL', LOG_LEVELS, 'info'),
    metrics: oneOf(env, 'METRICS', ['on', 'off'] as const, 'off') === 'on',
    trustProxy: oneOf(env, 'TRUST_PROXY', ['on', 'off'] as const, 'off') === 'on',
    jobBoardLabel: jobBoardLabel(env),
  };
}

function optional(env: NodeJS.ProcessEnv, name: string): string | null {
  const value = env[name];
  return value === undefined || value.trim() === '' ? null : value.trim();
}

function text(env: NodeJS.ProcessEnv, name: string, fallback: string): string {
  return optional(env, name) ?? fallback;
}

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = optional(env, name);
  if (raw === null) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new ConfigError(`${name} must be a whole number from ${min} to ${max}; got "${raw}".`);
  }
  return Number(raw);
}

function oneOf<const T extends readonly string[]>(env: NodeJS.ProcessEnv, name: string, allowed: T, fallback: T[number]): T[number] {
  const raw = optional(env, name);
  if (raw === null) return fallback;
  if (!allowed.includes(raw)) throw new ConfigError(`${name} must be one of ${allowed.join(', ')}; got "${raw}".`);
  return raw as T[number];
}

/** The label is stored as `source` (at most 60 characters) and prefixes sourceRef, so it has no colon. */
function jobBoardLabel(env: NodeJS.ProcessEnv): string {
  const label = text(env, 'JOB_BOARD_LABEL', 'hh');
  if (!/^[A-Za-z0-9._-]{1,60}$/.test(label)) {
    throw new ConfigError(`JOB_BOARD_LABEL must be 1 to 60 letters, digits, dots, dashes or underscores; got "${label}".`);
  }
  return label;
}
