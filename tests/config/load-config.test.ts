import { expect } from 'chai';
import path from 'node:path';
import { EVENT_MAX_BYTES } from '../../adapters/feed/feed-limits.js';
import { ConfigError, loadConfig } from '../../infrastructure/config.js';

/** The problems loadConfig reports for an environment; fails when it accepts it. */
function problemsOf(env: Record<string, string>): readonly string[] {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).to.be.instanceOf(ConfigError);
    return (error as ConfigError).problems;
  }
  throw new Error(`loadConfig accepted ${JSON.stringify(env)}`);
}

function onlyProblemOf(env: Record<string, string>): string {
  const problems = problemsOf(env);
  expect(problems, problems.join('\n')).to.have.length(1);
  return problems[0] as string;
}

const PASSWORD = 'Tr0ub4dor-s3cret';

describe('loadConfig: every variable, validated as a whole', () => {
  it('answers the documented defaults for an empty environment, and treats blank values as unset', () => {
    for (const env of [{}, { PORT: ' ', DATABASE_URL: '', REDIS_URL: '  ', PUBLIC_BASE_URL: '' }]) {
      const config = loadConfig(env);
      expect(config).to.deep.include({
        port: 8080, host: '127.0.0.1', store: 'postgres', databaseUrl: null, keysDatabaseUrl: null, dbPoolMax: 10, dbPreparedStatements: false,
        dataDir: path.resolve('./var'), region: 'kz', publicBaseUrl: 'http://127.0.0.1:8080/api', rateLimitPoints: 600,
        rateLimitWindowS: 60, rateLimitStore: 'memory', redisUrl: 'redis://127.0.0.1:6379', keyCacheTtlMs: 5000,
        logLevel: 'info', metrics: false, trustProxy: 0, jobBoardLabel: 'hh', feedUrl: null,
        feedQueue: 'integration.platform-events', feedPrefetch: 202, feedMaxHeldBytes: 1073741824, feedTombstoneDays: 7, feedMaxAttempts: 10,
        feedRetryDelaysMs: [1000, 5000, 30000, 120000, 600000], metricsPort: 9464, feedMetricsPort: 9465, shutdownDelayMs: 0,
        embeddedPgPort: null, databaseReplicaUrls: [], dbReplicaWaitMs: 200,
      });
    }
  });

  it('reads DATABASE_REPLICA_URLS as a list of PostgreSQL URLs, each checked like DATABASE_URL, passwords never shown', () => {
    const urls = 'postgresql://app:pw@replica-1:5432/kz, postgres://app:pw@pooler-2:6432/kz';
    expect(loadConfig({ DATABASE_REPLICA_URLS: urls, DB_REPLICA_WAIT_MS: '50' })).to.deep.include({
      databaseReplicaUrls: ['postgresql://app:pw@replica-1:5432/kz', 'postgres://app:pw@pooler-2:6432/kz'], dbReplicaWaitMs: 50,
    });
    for (const bad of [`postgresql://app:${PASSWORD}@replica-1/kz,mysql://app:${PASSWORD}@replica-2/kz`, `postgresql://app:${PASSWORD}@replica-1/kz,`, 'replica-1']) {
      const problem = onlyProblemOf({ DATABASE_REPLICA_URLS: bad });
      expect(problem).to.match(/^DATABASE_REPLICA_URLS must be PostgreSQL URLs separated by commas, such as postgresql:/).and.not.contain(PASSWORD);
    }
    expect(onlyProblemOf({ DB_REPLICA_WAIT_MS: '60001' })).to.equal('DB_REPLICA_WAIT_MS must be a whole number from 0 to 60000; got "60001".');
  });

  it('takes good values of every variable, trimmed', () => {
    const config = loadConfig({
      PORT: ' 9000 ', HOST: '0.0.0.0', STORE: 'memory', DATABASE_URL: 'postgresql://app:pw@db.internal:5432/kz',
      KEYS_DATABASE_URL: 'postgres://app:pw@registry.internal/keys', DATA_DIR: '/srv/api', REGION: 'uz',
      PUBLIC_BASE_URL: 'https://uz.example.com/api/', RATE_LIMIT_POINTS: '100', RATE_LIMIT_WINDOW_S: '10',
      RATE_LIMIT_STORE: 'redis', REDIS_URL: 'rediss://:pw@cache.internal:6380/2', KEY_CACHE_TTL_MS: '0', LOG_LEVEL: 'warn',
      METRICS: 'on', TRUST_PROXY: 'on', JOB_BOARD_LABEL: 'hh.kz', FEED_URL: 'amqps://feed:pw@mq.internal:5671/platform',
      FEED_QUEUE: 'kz.platform-events_2', FEED_PREFETCH: '100', FEED_TOMBSTONE_DAYS: '30', FEED_MAX_ATTEMPTS: '3',
      FEED_RETRY_DELAYS_MS: ' 50, 100,2000 ', FEED_MAX_HELD_BYTES: '600000000', METRICS_PORT: '9999', DB_PREPARED_STATEMENTS: ' on ', SHUTDOWN_DELAY_MS: ' 5000 ',
      EMBEDDED_PG_PORT: ' 54329 ',
    });
    expect(config).to.deep.include({
      port: 9000, host: '0.0.0.0', store: 'memory', databaseUrl: 'postgresql://app:pw@db.internal:5432/kz',
      keysDatabaseUrl: 'postgres://app:pw@registry.internal/keys', dataDir: '/srv/api', region: 'uz',
      publicBaseUrl: 'https://uz.example.com/api', rateLimitPoints: 100, rateLimitWindowS: 10, rateLimitStore: 'redis',
      redisUrl: 'rediss://:pw@cache.internal:6380/2', keyCacheTtlMs: 0, logLevel: 'warn', metrics: true, trustProxy: 1,
      jobBoardLabel: 'hh.kz', feedUrl: 'amqps://feed:pw@mq.internal:5671/platform', feedQueue: 'kz.platform-events_2',
      feedPrefetch: 100, feedMaxHeldBytes: 600000000, feedTombstoneDays: 30, feedMaxAttempts: 3, feedRetryDelaysMs: [50, 100, 2000],
      metricsPort: 9999, feedMetricsPort: 9999, dbPreparedStatements: true, shutdownDelayMs: 5000,
      embeddedPgPort: 54329,
    });
  });

  it('bounds list pages at 8 MiB unless LIST_PAGE_MAX_BYTES says otherwise', () => {
    expect(loadConfig({}).listPageMaxBytes).to.equal(8 * 1024 * 1024);
    expect(loadConfig({ LIST_PAGE_MAX_BYTES: ' 1024 ' }).listPageMaxBytes).to.equal(1024);
    expect(onlyProblemOf({ LIST_PAGE_MAX_BYTES: '1023' })).to.equal('LIST_PAGE_MAX_BYTES must be a whole number from 1024 to 1073741824; got "1023".');
  });

  it("gives a platform token one budget across companies unless MANAGEMENT_TOKEN_RATE_LIMIT_POINTS says otherwise", () => {
    // The review's probe: 800 requests of one token naming made-up companies must meet a 429 at the defaults.
    expect(loadConfig({}).managementTokenRateLimitPoints).to.equal(600);
    expect(loadConfig({ RATE_LIMIT_POINTS: '100' }).managementTokenRateLimitPoints).to.equal(100);
    expect(loadConfig({ RATE_LIMIT_POINTS: '100', MANAGEMENT_TOKEN_RATE_LIMIT_POINTS: '5000' }).managementTokenRateLimitPoints).to.equal(5000);
  });

  it('gives conditional list requests ten times the request budget unless NOT_MODIFIED_RATE_LIMIT_POINTS says otherwise', () => {
    expect(loadConfig({}).notModifiedRateLimitPoints).to.equal(6000);
    expect(loadConfig({ RATE_LIMIT_POINTS: '1000000000' }).notModifiedRateLimitPoints).to.equal(1_000_000_000);
    expect(loadConfig({ RATE_LIMIT_POINTS: '100', NOT_MODIFIED_RATE_LIMIT_POINTS: ' 250 ' }).notModifiedRateLimitPoints).to.equal(250);
    expect(onlyProblemOf({ NOT_MODIFIED_RATE_LIMIT_POINTS: '0' })).to.equal('NOT_MODIFIED_RATE_LIMIT_POINTS must be a whole number from 1 to 1000000000; got "0".');
  });

  it('accepts a PostgreSQL URL that names a Unix socket by ?host=', () => {
    expect(loadConfig({ DATABASE_URL: 'postgresql:///integration?host=/var/run/postgresql' }).databaseUrl).to.equal('postgresql:///integration?host=/var/run/postgresql');
  });

  const wholeNumbers: [string, string][] = [
    ['PORT', 'must be a whole number from 0 to 65535'],
    ['DB_POOL_MAX', 'must be a whole number from 1 to 1000'],
    ['DB_STATEMENT_TIMEOUT_MS', 'must be a whole number from 0 to 3600000'],
    ['DB_CONNECT_TIMEOUT_MS', 'must be a whole number from 100 to 600000'],
    ['DB_ACQUIRE_TIMEOUT_MS', 'must be a whole number from 100 to 600000'],
    ['DB_IDLE_IN_TRANSACTION_TIMEOUT_MS', 'must be a whole number from 0 to 3600000'],
    ['RATE_LIMIT_POINTS', 'must be a whole number from 1 to 1000000000'],
    ['RATE_LIMIT_WINDOW_S', 'must be a whole number from 1 to 86400'],
    ['KEY_CACHE_TTL_MS', 'must be a whole number from 0 to 5000'],
    ['FEED_PREFETCH', 'must be a whole number from 1 to 1000'],
    ['FEED_MAX_HELD_BYTES', 'must be a whole number from 5308416 to 68719476736'],
    ['FEED_TOMBSTONE_DAYS', 'must be a whole number from 1 to 3650'],
    ['FEED_MAX_ATTEMPTS', 'must be a whole number from 1 to 1000'],
    ['SHUTDOWN_DELAY_MS', 'must be a whole number from 0 to 60000'],
    ['EMBEDDED_PG_PORT', 'must be a whole number from 1024 to 65535'],
    ['LIST_PAGE_MAX_BYTES', 'must be a whole number from 1024 to 1073741824'],
  ];
  for (const [name, rule] of wholeNumbers) {
    it(`refuses ${name} that is not a whole number in range, naming it and echoing the value`, () => {
      for (const bad of ['x', '1.5', '-1', '1e3', '99999999999999999999']) {
        expect(onlyProblemOf({ [name]: bad })).to.equal(`${name} ${rule}; got "${bad}".`);
      }
    });
  }

  it('bounds the bodies a feed consumer holds: FEED_PREFETCH messages of the largest size within FEED_MAX_HELD_BYTES', () => {
    expect(EVENT_MAX_BYTES).to.equal(5 * 1024 * 1024 + 64 * 1024);
    // Unset, the prefetch is the most the budget holds, 256 at most.
    expect(loadConfig({ FEED_MAX_HELD_BYTES: String(64 * 1024 * 1024) }).feedPrefetch).to.equal(12);
    expect(loadConfig({ FEED_MAX_HELD_BYTES: String(EVENT_MAX_BYTES) }).feedPrefetch).to.equal(1);
    expect(loadConfig({ FEED_MAX_HELD_BYTES: String(8 * 1024 ** 3) }).feedPrefetch).to.equal(256);
    // Set, it must fit: a start that would hold more is refused, naming both and what would do.
    expect(loadConfig({ FEED_PREFETCH: '202' }).feedPrefetch).to.equal(202);
    expect(onlyProblemOf({ FEED_PREFETCH: '256' })).to.equal(
      `FEED_PREFETCH messages of up to ${EVENT_MAX_BYTES} bytes each (the largest event) must fit in FEED_MAX_HELD_BYTES (1073741824): set FEED_PREFETCH to at most 202, or FEED_MAX_HELD_BYTES to at least ${256 * EVENT_MAX_BYTES}; got "256".`,
    );
    expect(loadConfig({ FEED_PREFETCH: '1000', FEED_MAX_HELD_BYTES: String(1000 * EVENT_MAX_BYTES) })).to.include({ feedPrefetch: 1000, feedMaxHeldBytes: 1000 * EVENT_MAX_BYTES });
    expect(onlyProblemOf({ FEED_PREFETCH: '13', FEED_MAX_HELD_BYTES: String(64 * 1024 * 1024) })).to.match(/^FEED_PREFETCH .* set FEED_PREFETCH to at most 12,/);
  });

  const choices: [string, string][] = [
    ['STORE', 'postgres, memory'],
    ['REGION', 'kz, uz'],
    ['RATE_LIMIT_STORE', 'memory, postgres, redis'],
    ['LOG_LEVEL', 'fatal, error, warn, info, debug, trace, silent'],
    ['METRICS', 'on, off'],
    ['DB_PREPARED_STATEMENTS', 'on, off'],
  ];
  for (const [name, allowed] of choices) {
    it(`refuses ${name} outside its choices, listing them`, () => {
      expect(onlyProblemOf({ [name]: 'Yes' })).to.equal(`${name} must be one of ${allowed}; got "Yes".`);
    });
  }

  it('reads TRUST_PROXY as the number of proxies in front: off is 0, on is 1, and 0 to 10 as given', () => {
    expect(loadConfig({ TRUST_PROXY: 'off' }).trustProxy).to.equal(0);
    expect(loadConfig({ TRUST_PROXY: 'on' }).trustProxy).to.equal(1);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).to.equal(2);
    expect(loadConfig({ TRUST_PROXY: '0' }).trustProxy).to.equal(0);
    for (const bad of ['yes', '11', '-1', '1.5']) {
      expect(onlyProblemOf({ TRUST_PROXY: bad })).to.equal(`TRUST_PROXY must be off, on (one proxy in front) or the number of proxies in front, 0 to 10; got "${bad}".`);
    }
  });

  it('refuses a HOST with spaces and a JOB_BOARD_LABEL with a colon', () => {
    expect(onlyProblemOf({ HOST: 'local host' })).to.match(/^HOST must be a host name or an IP address, without spaces; got "local host"\.$/);
    expect(onlyProblemOf({ JOB_BOARD_LABEL: 'hh:kz' })).to.equal('JOB_BOARD_LABEL must be 1 to 60 letters, digits, dots, dashes or underscores; got "hh:kz".');
  });

  for (const name of ['DATABASE_URL', 'KEYS_DATABASE_URL']) {
    it(`refuses a ${name} that is not a PostgreSQL URL, and never shows its password`, () => {
      expect(onlyProblemOf({ [name]: 'not a url' })).to.equal(`${name} must be a PostgreSQL URL such as postgresql://user:password@host:5432/database; got "not a url".`);
      expect(onlyProblemOf({ [name]: `mysql://root:${PASSWORD}@db/app` })).to.contain(`got "mysql://root:***@db/app"`);
      // Not even a URL (the port is out of range): masked all the same.
      const malformed = onlyProblemOf({ [name]: `postgresql://app:${PASSWORD}@db:99999/app` });
      expect(malformed).to.match(new RegExp(`^${name} must be a PostgreSQL URL`)).and.contain('postgresql://app:***@db:99999/app');
      expect(onlyProblemOf({ [name]: `host=db user=app password=${PASSWORD}` })).to.contain('password=***').and.not.contain(PASSWORD);
      expect(onlyProblemOf({ [name]: 'postgresql://' })).to.match(new RegExp(`^${name} must be`));
    });
  }

  it('refuses a REDIS_URL that is not a redis:// or rediss:// URL, without its password', () => {
    expect(onlyProblemOf({ REDIS_URL: 'localhost:6379' })).to.equal('REDIS_URL must be a redis:// or rediss:// URL with a host, such as redis://127.0.0.1:6379; got "localhost:6379".');
    const problem = onlyProblemOf({ REDIS_URL: `http://:${PASSWORD}@cache:6379` });
    expect(problem).to.match(/^REDIS_URL must be/).and.contain('http://:***@cache:6379').and.not.contain(PASSWORD);
  });

  it('refuses a PUBLIC_BASE_URL that is not an absolute http(s) URL without credentials, query or fragment', () => {
    expect(onlyProblemOf({ PUBLIC_BASE_URL: 'notaurl' })).to.equal(
      'PUBLIC_BASE_URL must be an http:// or https:// URL with a host and no user, password, query or fragment, such as https://api.example.com/api; got "notaurl".',
    );
    for (const bad of ['/api', 'ftp://example.com/api', 'https://example.com/api?x=1', 'https://example.com/api#top', `https://u:${PASSWORD}@example.com/api`]) {
      const problem = onlyProblemOf({ PUBLIC_BASE_URL: bad });
      expect(problem).to.match(/^PUBLIC_BASE_URL must be/);
      expect(problem).not.to.contain(PASSWORD);
    }
  });

  it('refuses a FEED_URL that is not an amqp:// or amqps:// URL, without its password', () => {
    expect(onlyProblemOf({ FEED_URL: 'localhost:5672' })).to.equal(
      'FEED_URL must be an amqp:// or amqps:// URL with a host, such as amqp://user:password@127.0.0.1:5672; got "localhost:5672".',
    );
    for (const bad of [`http://feed:${PASSWORD}@mq:5672`, `amqp://feed:${PASSWORD}@mq:99999/`, 'amqp://']) {
      const problem = onlyProblemOf({ FEED_URL: bad });
      expect(problem).to.match(/^FEED_URL must be/);
      expect(problem).not.to.contain(PASSWORD);
    }
  });

  it('refuses a FEED_QUEUE that could not name the queue and its .dead and .retry.<ms> companions', () => {
    for (const bad of ['amq.feed', 'with space', '.hidden', 'a/b', 'q'.repeat(201)]) {
      expect(onlyProblemOf({ FEED_QUEUE: bad })).to.match(/^FEED_QUEUE must be 1 to 200 letters, digits, dots, dashes or underscores/);
    }
    expect(loadConfig({ FEED_QUEUE: 'q'.repeat(200) }).feedQueue).to.have.length(200);
  });

  it('reads FEED_RETRY_DELAYS_MS as ascending milliseconds, and refuses anything else naming it', () => {
    expect(loadConfig({ FEED_RETRY_DELAYS_MS: '250' }).feedRetryDelaysMs).to.deep.equal([250]);
    for (const bad of [',', '1000,', '5000,1000', '100,100', '0,100', '1.5', '-1', 'x', '86400001', Array.from({ length: 21 }, (_, i) => i + 1).join(',')]) {
      expect(onlyProblemOf({ FEED_RETRY_DELAYS_MS: bad })).to.equal(
        `FEED_RETRY_DELAYS_MS must be 1 to 20 whole numbers of milliseconds from 1 to 86400000, separated by commas, each greater than the one before, such as 1000,5000,30000; got "${bad}".`,
      );
    }
  });

  it('gives the feed process METRICS_PORT when it is set, else 9465, so that it runs beside the API (9464)', () => {
    expect(loadConfig({ METRICS_PORT: '0' })).to.deep.include({ metricsPort: 0, feedMetricsPort: 0 });
    expect(loadConfig({})).to.deep.include({ metricsPort: 9464, feedMetricsPort: 9465 });
  });

  it('puts the management API on 127.0.0.1:8081 by default, off with MANAGEMENT_PORT=0, and never on PORT', () => {
    expect(loadConfig({})).to.include({ managementHost: '127.0.0.1', managementPort: 8081 });
    expect(loadConfig({ MANAGEMENT_HOST: ' 10.0.0.5 ', MANAGEMENT_PORT: '0' })).to.include({ managementHost: '10.0.0.5', managementPort: 0 });
    expect(onlyProblemOf({ MANAGEMENT_PORT: '8O81' })).to.equal('MANAGEMENT_PORT must be a whole number from 0 to 65535 (0 turns the management API off); got "8O81".');
    expect(onlyProblemOf({ MANAGEMENT_HOST: 'a b' })).to.match(/^MANAGEMENT_HOST must be a host name or an IP address, without spaces; got "a b"\.$/);
    expect(onlyProblemOf({ PORT: '8081' })).to.equal('MANAGEMENT_PORT must differ from PORT: the management API is never served on the public port; got "8081".');
    expect(loadConfig({ PORT: '8081', MANAGEMENT_PORT: '0' }).port, 'with the management API off, any PORT').to.equal(8081);
  });

  it('refuses RATE_LIMIT_STORE=postgres with STORE=memory and no DATABASE_URL, naming both', () => {
    expect(onlyProblemOf({ STORE: 'memory', RATE_LIMIT_STORE: 'postgres' })).to.match(/^RATE_LIMIT_STORE=postgres needs DATABASE_URL when STORE=memory/);
    expect(loadConfig({ STORE: 'memory', RATE_LIMIT_STORE: 'postgres', DATABASE_URL: 'postgresql://db/app' }).rateLimitStore).to.equal('postgres');
  });

  it('reports every problem at once, in one message, each naming its variable', () => {
    const env = {
      PORT: 'eighty', DATABASE_URL: 'not a url', KEYS_DATABASE_URL: `postgresql://keys:${PASSWORD}@db:0x/keys`,
      REDIS_URL: 'cache', PUBLIC_BASE_URL: 'notaurl', METRICS: 'yes',
    };
    const problems = problemsOf(env);
    const message = (() => {
      try {
        return JSON.stringify(loadConfig(env));
      } catch (error) {
        return (error as Error).message;
      }
    })();
    expect(problems.map((p) => p.split(' ')[0])).to.deep.equal(['PORT', 'DATABASE_URL', 'KEYS_DATABASE_URL', 'PUBLIC_BASE_URL', 'REDIS_URL', 'METRICS']);
    expect(message).to.match(/^6 settings are invalid:/);
    for (const problem of problems) expect(message).to.contain(problem);
    expect(message).not.to.contain(PASSWORD);
  });
});
