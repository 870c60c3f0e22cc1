import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import pg from 'pg';
import { RATE_LIMIT_TABLE } from '../../adapters/rate-limit/postgres-rate-limiter.js';
import { ConfigError } from '../../infrastructure/config.js';
import { openSharedRateLimitStore } from '../../infrastructure/rate-limit-store.js';
import { usePostgresTestDatabase } from '../support/postgres-test-database.js';
import {
  capturedLogger, eventually, openInstance, REDIS_URL, sleep, targetOf, viaPort, type StoreInstance,
} from './support/stores.js';
import { requireRedis } from './support/require-redis.js';
import { TcpProxy } from './support/tcp-proxy.js';

const WARN = 40;
const INFO = 30;

const aBucket = (what: string) => `key:${what}-${randomBytes(6).toString('hex')}`;

/**
 * The same behaviour on every shared store: two instances (each with its own connections, as two
 * processes would have) count one budget, and survive an outage of the store with per-process limits.
 */
function sharedStoreBehaviour(kind: 'postgres' | 'redis', storeUrl: () => string, defaultPort: number): void {
  const opened: StoreInstance[] = [];
  const proxies: TcpProxy[] = [];
  const open = async (url: string, budget: { points: number; windowS: number }) => {
    const instance = await openInstance(kind, url, budget);
    opened.push(instance);
    return instance;
  };
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((instance) => instance.store.close()));
    await Promise.all(proxies.splice(0).map((proxy) => proxy.close()));
  });

  it('gives two instances one budget per bucket, refuses past it with the time to the reset, and restores it after the window', async () => {
    const a = await open(storeUrl(), { points: 3, windowS: 1 });
    const b = await open(storeUrl(), { points: 3, windowS: 1 });
    const bucket = aBucket('shared');
    const outcomes = [await a.store.limiter.consume(bucket), await b.store.limiter.consume(bucket), await a.store.limiter.consume(bucket)];
    expect(outcomes.map((o) => [o.allowed, o.remaining])).to.deep.equal([[true, 2], [true, 1], [true, 0]]);
    const refused = await b.store.limiter.consume(bucket);
    expect(refused.allowed).to.equal(false);
    expect(refused.resetAfterMs).to.be.within(1, 1_000);
    expect((await a.store.limiter.consume(aBucket('other'))).remaining, 'another bucket has its own budget').to.equal(2);

    await sleep(refused.resetAfterMs + 50);
    const renewed = await b.store.limiter.consume(bucket);
    expect([renewed.allowed, renewed.remaining]).to.deep.equal([true, 2]);
    expect(a.messages(WARN)).to.deep.equal([]);
  });

  it('peeks at a bucket without spending, for every instance, as consume would decide', async () => {
    const a = await open(storeUrl(), { points: 2, windowS: 60 });
    const b = await open(storeUrl(), { points: 2, windowS: 60 });
    const bucket = aBucket('peek');
    expect(await a.store.limiter.peek(bucket), 'an untouched bucket').to.deep.equal({ allowed: true, remaining: 2, resetAfterMs: 0 });
    await a.store.limiter.consume(bucket);
    const once = await b.store.limiter.peek(bucket);
    expect([once.allowed, once.remaining], 'what another instance spent').to.deep.equal([true, 1]);
    expect(once.resetAfterMs).to.be.within(1, 60_000);
    expect((await b.store.limiter.peek(bucket)).remaining, 'a peek spends nothing').to.equal(1);
    expect((await b.store.limiter.consume(bucket)).allowed).to.equal(true);
    const spent = await a.store.limiter.peek(bucket);
    expect([spent.allowed, spent.remaining], 'spent').to.deep.equal([false, 0]);
    expect(spent.resetAfterMs).to.be.within(1, 60_000);
    expect((await a.store.limiter.consume(bucket)).allowed, 'as consume decides').to.equal(false);
  });

  it('counts per process while the store fails, with a warning, instead of failing requests, and shares again once it answers', async () => {
    const proxy = await TcpProxy.start(targetOf(storeUrl(), defaultPort));
    proxies.push(proxy);
    const url = viaPort(storeUrl(), proxy.port);
    const a = await open(url, { points: 3, windowS: 60 });
    const b = await open(url, { points: 3, windowS: 60 });
    const bucket = aBucket('outage');
    expect((await a.store.limiter.consume(bucket)).remaining).to.equal(2);
    expect((await b.store.limiter.consume(bucket)).remaining, 'shared before the outage').to.equal(1);

    proxy.cut();
    const duringOutage = [];
    for (let i = 0; i < 4; i++) duringOutage.push(await a.store.limiter.consume(bucket));
    expect(duringOutage.map((o) => o.allowed), 'the insurance still limits, to the full budget of one process').to.deep.equal([true, true, true, false]);
    const peeked = await a.store.limiter.peek(bucket);
    expect([peeked.allowed, peeked.remaining], 'a peek asks the insurance meanwhile').to.deep.equal([false, 0]);
    expect(a.messages(INFO).filter((m) => m.startsWith('the rate-limit store answers again')), 'which is not the store answering').to.deep.equal([]);
    const elsewhere = await b.store.limiter.consume(bucket);
    expect([elsewhere.allowed, elsewhere.remaining], 'each process counts for itself').to.deep.equal([true, 2]);
    expect(a.messages(WARN)).to.include('the rate-limit store fails: budgets are counted per process until it answers again');
    expect(a.messages(WARN).filter((m) => m.startsWith('the rate-limit store fails')), 'one warning, not one per request').to.have.length(1);

    proxy.restore();
    // Clients reconnect on their own (ioredis with a backoff, pg at the next query).
    for (const instance of [a, b]) {
      const recovered = await eventually(async () => {
        await instance.store.limiter.consume(aBucket('probe'));
        return instance.messages(INFO).includes('the rate-limit store answers again: budgets are shared again');
      }, 10_000);
      expect(recovered, 'the store is used again once it answers').to.equal(true);
    }
    const after = aBucket('after');
    await a.store.limiter.consume(after);
    expect((await b.store.limiter.consume(after)).remaining, 'shared again').to.equal(1);
  });
}

describe('Shared rate-limit stores (RATE_LIMIT_STORE=postgres|redis)', function () {
  this.timeout(60_000);

  describe('on PostgreSQL (a table in the business database)', () => {
    const database = usePostgresTestDatabase();
    sharedStoreBehaviour('postgres', () => database().businessUrl, 5432);

    it('creates its table on first start, and a second instance starting at once finds it', async () => {
      const admin = new pg.Client({ connectionString: database().businessUrl });
      await admin.connect();
      try {
        await admin.query(`drop table if exists ${RATE_LIMIT_TABLE}`);
      } finally {
        await admin.end();
      }
      const [a, b] = await Promise.all([
        openInstance('postgres', database().businessUrl, { points: 1, windowS: 1 }),
        openInstance('postgres', database().businessUrl, { points: 1, windowS: 1 }),
      ]);
      try {
        const bucket = aBucket('table');
        expect((await a.store.limiter.consume(bucket)).allowed).to.equal(true);
        expect((await b.store.limiter.consume(bucket)).allowed).to.equal(false);
      } finally {
        await Promise.all([a.store.close(), b.store.close()]);
      }
    });
  });

  describe(`on Redis (${REDIS_URL})`, function () {
    before(() => requireRedis());
    sharedStoreBehaviour('redis', () => REDIS_URL, 6379);
  });

  it('refuses RATE_LIMIT_STORE=postgres without a database to count in, naming DATABASE_URL', async () => {
    const { logger } = capturedLogger();
    let error: unknown;
    try {
      await openSharedRateLimitStore({ rateLimitStore: 'postgres', rateLimitPoints: 5, rateLimitWindowS: 60, redisUrl: REDIS_URL }, { databaseUrl: null, logger });
    } catch (thrown) {
      error = thrown;
    }
    expect(error).to.be.instanceOf(ConfigError);
    expect((error as Error).message).to.contain('DATABASE_URL');
  });
});
