import { Ajv, type ErrorObject } from 'ajv';
import { EVENT_MAX_BYTES } from '../adapters/feed/feed-limits.js';

/** A revocation must shut a key out of every instance within 5 s (issue 5): the cache may not hold longer. */
export const KEY_CACHE_TTL_MAX_MS = 5_000;
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
/**
 * FEED_RETRY_DELAYS_MS: each delay gets a queue of its own (`<queue>.retry.<ms>`, a per-queue TTL), so the
 * list is kept short, and a delay may not pass a day: a retry is for a cause that may pass, not for parking.
 */
export const FEED_RETRY_DELAYS_MAX = 20;
export const FEED_RETRY_DELAY_MAX_MS = 86_400_000;

/** Each property's `description` is the rule as an error message states it: "<NAME> <description>; got ...". */
interface VariableSchema {
  readonly description: string;
  readonly [keyword: string]: unknown;
}

function wholeNumber(minimum: number, maximum: number): VariableSchema {
  return { type: 'integer', minimum, maximum, description: `must be a whole number from ${minimum} to ${maximum}` };
}

function oneOf(values: readonly string[]): VariableSchema {
  return { type: 'string', enum: [...values], description: `must be one of ${values.join(', ')}` };
}

const POSTGRES_URL: VariableSchema = {
  type: 'string',
  format: 'postgres-url',
  description: 'must be a PostgreSQL URL such as postgresql://user:password@host:5432/database',
};

/**
 * Every environment variable the service and the admin CLI read (docs/configuration.md), as loadConfig
 * hands them over: trimmed, unset or blank ones left out, whole numbers already numbers when they are
 * digits only. Unknown variables are none of our business: the environment holds many.
 */
export const CONFIG_SCHEMA = {
  type: 'object',
  properties: {
    PORT: wholeNumber(0, 65_535),
    HOST: { type: 'string', pattern: '^\\S+$', description: 'must be a host name or an IP address, without spaces' },
    STORE: oneOf(['postgres', 'memory']),
    DATABASE_URL: POSTGRES_URL,
    KEYS_DATABASE_URL: POSTGRES_URL,
    DATABASE_REPLICA_URLS: {
      type: 'string',
      format: 'postgres-url-list',
      description: 'must be PostgreSQL URLs separated by commas, such as postgresql://user:password@replica-1:5432/database,postgresql://user:password@replica-2:5432/database',
    },
    // How long a list page waits for a replica to replay up to its barrier before the primary answers it (ADR 26).
    DB_REPLICA_WAIT_MS: wholeNumber(0, 60_000),
    DB_POOL_MAX: wholeNumber(1, 1_000),
    DB_STATEMENT_TIMEOUT_MS: wholeNumber(0, 3_600_000),
    DB_CONNECT_TIMEOUT_MS: wholeNumber(100, 600_000),
    DB_ACQUIRE_TIMEOUT_MS: wholeNumber(100, 600_000),
    DB_IDLE_IN_TRANSACTION_TIMEOUT_MS: wholeNumber(0, 3_600_000),
    // On only where the connections keep named prepared statements: direct, or PgBouncer 1.21+ (ADR 22).
    DB_PREPARED_STATEMENTS: oneOf(['on', 'off']),
    DATA_DIR: { type: 'string', description: 'must be a directory path' },
    // The embedded PostgreSQL's port (DATABASE_URL unset); unset: the one kept in DATA_DIR, chosen at its first start.
    EMBEDDED_PG_PORT: wholeNumber(1_024, 65_535),
    REGION: oneOf(['kz', 'uz']),
    PUBLIC_BASE_URL: {
      type: 'string',
      format: 'public-base-url',
      description: 'must be an http:// or https:// URL with a host and no user, password, query or fragment, such as https://api.example.com/api',
    },
    RATE_LIMIT_POINTS: wholeNumber(1, 1_000_000_000),
    RATE_LIMIT_WINDOW_S: wholeNumber(1, 86_400),
    MANAGEMENT_TOKEN_RATE_LIMIT_POINTS: wholeNumber(1, 1_000_000_000),
    NOT_MODIFIED_RATE_LIMIT_POINTS: wholeNumber(1, 1_000_000_000),
    RATE_LIMIT_STORE: oneOf(['memory', 'postgres', 'redis']),
    REDIS_URL: { type: 'string', format: 'redis-url', description: 'must be a redis:// or rediss:// URL with a host, such as redis://127.0.0.1:6379' },
    KEY_CACHE_TTL_MS: wholeNumber(0, KEY_CACHE_TTL_MAX_MS),
    // The most bytes of a list page's body: 1 KiB to 1 GiB (a record larger still goes out, alone on its page).
    LIST_PAGE_MAX_BYTES: wholeNumber(1_024, 1_073_741_824),
    LOG_LEVEL: oneOf(LOG_LEVELS),
    METRICS: oneOf(['on', 'off']),
    METRICS_HOST: { type: 'string', pattern: '^\\S+$', description: 'must be a host name or an IP address, without spaces' },
    METRICS_PORT: wholeNumber(0, 65_535),
    // The management API's own listener (DESIGN 4b), for the platform's services only: never the public port.
    MANAGEMENT_HOST: { type: 'string', pattern: '^\\S+$', description: 'must be a host name or an IP address, without spaces' },
    MANAGEMENT_PORT: { ...wholeNumber(0, 65_535), description: 'must be a whole number from 0 to 65535 (0 turns the management API off)' },
    // After SIGTERM, how long the service goes on serving (with /readyz 503) before it drains; a minute at most.
    SHUTDOWN_DELAY_MS: wholeNumber(0, 60_000),
    // The number of proxies in front, whose X-Forwarded-For entries are trusted (off = 0, on = 1).
    TRUST_PROXY: {
      anyOf: [{ type: 'string', enum: ['on', 'off'] }, { type: 'integer', minimum: 0, maximum: 10 }],
      description: 'must be off, on (one proxy in front) or the number of proxies in front, 0 to 10',
    },
    // Stored as `source` (at most 60 characters) and the prefix of sourceRef, so no colon.
    JOB_BOARD_LABEL: { type: 'string', pattern: '^[A-Za-z0-9._-]{1,60}$', description: 'must be 1 to 60 letters, digits, dots, dashes or underscores' },
    // The platform feed (DESIGN 4a): read by `npm run feed` only; `npm start` ignores them.
    FEED_URL: { type: 'string', format: 'amqp-url', description: 'must be an amqp:// or amqps:// URL with a host, such as amqp://user:password@127.0.0.1:5672' },
    // The queue's name is also the prefix of `<queue>.dead` and `<queue>.retry.<ms>` (255 bytes at most for the
    // broker), and `amq.` names are reserved by it.
    FEED_QUEUE: {
      type: 'string',
      pattern: '^(?!amq\\.)[A-Za-z0-9][A-Za-z0-9._-]{0,199}$',
      description: 'must be 1 to 200 letters, digits, dots, dashes or underscores, starting with a letter or a digit, and not starting with "amq."',
    },
    FEED_PREFETCH: wholeNumber(1, 1_000),
    // At least one message of the largest size the feed takes; at most 64 GiB.
    FEED_MAX_HELD_BYTES: wholeNumber(EVENT_MAX_BYTES, 64 * 1024 ** 3),
    FEED_TOMBSTONE_DAYS: wholeNumber(1, 3_650),
    FEED_MAX_ATTEMPTS: wholeNumber(1, 1_000),
    FEED_RETRY_DELAYS_MS: {
      type: 'string',
      format: 'delay-list',
      description: `must be 1 to ${FEED_RETRY_DELAYS_MAX} whole numbers of milliseconds from 1 to ${FEED_RETRY_DELAY_MAX_MS}, separated by commas, each greater than the one before, such as 1000,5000,30000`,
    },
  },
  // Settings that make sense only together.
  allOf: [
    {
      if: { type: 'object', properties: { STORE: { const: 'memory' }, RATE_LIMIT_STORE: { const: 'postgres' } }, required: ['STORE', 'RATE_LIMIT_STORE'] },
      then: {
        required: ['DATABASE_URL'],
        description:
          'RATE_LIMIT_STORE=postgres needs DATABASE_URL when STORE=memory (there is no database to count in); set DATABASE_URL, or use RATE_LIMIT_STORE=memory or redis.',
      },
    },
  ],
} as const;

export type ConfigVariable = keyof typeof CONFIG_SCHEMA.properties;
export const CONFIG_VARIABLES = Object.keys(CONFIG_SCHEMA.properties) as ConfigVariable[];
/** Whole numbers (alone, or as one of the choices): their digits become numbers before validation. */
const NUMERIC_VARIABLES = new Set<string>(
  CONFIG_VARIABLES.filter((name) => {
    const schema = CONFIG_SCHEMA.properties[name] as VariableSchema;
    return schema.type === 'integer' || ((schema.anyOf as { type?: string }[] | undefined) ?? []).some((choice) => choice.type === 'integer');
  }),
);

function parsedUrl(value: string): URL | null {
  try {
    return new URL(value);
  } catch {
    return null;
  }
}

// verbose: a broken rule between settings is reported with its schema's description.
const ajv = new Ajv({ allErrors: true, strict: true, strictRequired: false, verbose: true });
function isPostgresUrl(value: string): boolean {
  const url = parsedUrl(value);
  // A Unix socket is named by ?host=/path, with no host in the authority.
  return url !== null && (url.protocol === 'postgresql:' || url.protocol === 'postgres:') && (url.hostname !== '' || url.searchParams.has('host'));
}

/** DATABASE_REPLICA_URLS as a list: split at commas, each trimmed; empty items (a trailing comma) break the rule. */
export function urlList(value: string | undefined): string[] {
  return value === undefined ? [] : value.split(',').map((url) => url.trim());
}

ajv.addFormat('postgres-url', { type: 'string', validate: isPostgresUrl });
ajv.addFormat('postgres-url-list', { type: 'string', validate: (value: string) => urlList(value).every(isPostgresUrl) && urlList(value).length > 0 });
ajv.addFormat('redis-url', {
  type: 'string',
  validate: (value: string) => {
    const url = parsedUrl(value);
    return url !== null && (url.protocol === 'redis:' || url.protocol === 'rediss:') && url.hostname !== '';
  },
});
ajv.addFormat('public-base-url', {
  type: 'string',
  validate: (value: string) => {
    const url = parsedUrl(value);
    return (
      url !== null && (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '' &&
      url.username === '' && url.password === '' && url.search === '' && url.hash === '' && !value.includes('?') && !value.includes('#')
    );
  },
});
ajv.addFormat('amqp-url', {
  type: 'string',
  validate: (value: string) => {
    const url = parsedUrl(value);
    return url !== null && (url.protocol === 'amqp:' || url.protocol === 'amqps:') && url.hostname !== '';
  },
});
ajv.addFormat('delay-list', { type: 'string', validate: (value: string) => parseDelayList(value) !== null });
const validate = ajv.compile(CONFIG_SCHEMA);

/** FEED_RETRY_DELAYS_MS as numbers (spaces around the commas allowed), or null when it breaks the rule. */
export function parseDelayList(value: string): number[] | null {
  const parts = value.split(',').map((part) => part.trim());
  if (parts.length > FEED_RETRY_DELAYS_MAX || !parts.every((part) => /^\d{1,9}$/.test(part))) return null;
  const delays = parts.map(Number);
  const inRange = delays.every((delay, i) => delay >= 1 && delay <= FEED_RETRY_DELAY_MAX_MS && (i === 0 || delay > (delays[i - 1] as number)));
  return inRange ? delays : null;
}

export interface CheckedSettings {
  /** The values, whole numbers as numbers: to be used only when there are no problems. */
  readonly settings: Readonly<Record<string, string | number>>;
  /** Every problem, one sentence each, in the order of the schema; empty when the settings are valid. */
  readonly problems: readonly string[];
}

/**
 * Checks the variables that are set (trimmed, blank ones left out) as a whole. A whole number's digits
 * become a number first, so that the schema states its range; messages echo what was given, masked.
 */
export function checkSettings(given: Readonly<Record<string, string>>): CheckedSettings {
  const settings: Record<string, string | number> = {};
  for (const [name, value] of Object.entries(given)) settings[name] = NUMERIC_VARIABLES.has(name) && /^\d+$/.test(value) ? Number(value) : value;
  if (validate(settings)) return { settings, problems: [] };
  const byVariable = new Map<string, string>();
  const combined: string[] = [];
  for (const error of validate.errors ?? []) {
    const name = variableOf(error);
    if (name !== null) {
      const rule = (CONFIG_SCHEMA.properties[name] as VariableSchema).description;
      byVariable.set(name, `${name} ${rule}; got "${maskSecrets(String(given[name]))}".`);
    } else if (error.keyword === 'required') {
      const rule = (error.parentSchema as { description?: string } | undefined)?.description;
      if (rule !== undefined && !combined.includes(rule)) combined.push(rule);
    }
  }
  const problems = [...CONFIG_VARIABLES.filter((name) => byVariable.has(name)).map((name) => byVariable.get(name) as string), ...combined];
  return { settings, problems };
}

function variableOf(error: ErrorObject): ConfigVariable | null {
  const name = error.instancePath.split('/')[1];
  return name !== undefined && name in CONFIG_SCHEMA.properties ? (name as ConfigVariable) : null;
}

const MASK = '***';

/**
 * A value as it may be shown in an error message: the password of a URL (user:password@) and any
 * password=... parameter are replaced by ***. A value that is not even a URL is masked the same way,
 * from the last @ back to the first colon after the scheme, so a malformed URL does not leak either.
 */
export function maskSecrets(value: string): string {
  let masked = value;
  const scheme = /^[a-z][a-z0-9+.-]*:\/\//i.exec(masked);
  if (scheme !== null) {
    const rest = masked.slice(scheme[0].length);
    const at = rest.lastIndexOf('@');
    const colon = rest.indexOf(':');
    if (at >= 0 && colon >= 0 && colon < at) masked = `${scheme[0]}${rest.slice(0, colon + 1)}${MASK}${rest.slice(at)}`;
  }
  return masked.replace(/(password\s*=\s*)('[^']*'|[^&\s]*)/gi, `$1${MASK}`);
}
