import { expect } from 'chai';
import { ApiClient, type ApiResponse } from '../support/api-client.js';
import { usePostgresTestDatabase, type PostgresTestDatabase } from '../support/postgres-test-database.js';
import { requireRedis } from '../rate-limit/support/require-redis.js';
import { eventually, REDIS_URL, sleep } from '../rate-limit/support/stores.js';
import { adminOn } from './support/registry.js';
import { startServerProcess, type ServerProcess } from './support/server-process.js';

const RATE_LIMIT = /^"default";r=(\d+);t=(\d+)$/;
/** Small enough to spend in a test, large enough for the lifecycle tests' polling to stay within it. */
const POINTS = 20;
const WINDOW_S = 2;

function remainingOf(response: ApiResponse): number {
  const match = RATE_LIMIT.exec(response.headers.get('ratelimit') ?? '');
  expect(match, `RateLimit header: ${response.headers.get('ratelimit')}`).to.not.equal(null);
  return Number(match![1]);
}

/** Two server processes, as two instances behind a load balancer, on one PostgreSQL. */
function twoInstances(database: () => PostgresTestDatabase, env: Record<string, string>): () => [ServerProcess, ServerProcess] {
  let instances: ServerProcess[] = [];
  before(async function () {
    this.timeout(120_000);
    instances = await Promise.all([0, 1].map(() => startServerProcess({ STORE: 'postgres', DATABASE_URL: database().businessUrl, ...env })));
  });
  after(async function () {
    this.timeout(30_000);
    await Promise.all(instances.map((instance) => instance.stop()));
    for (const instance of instances) {
      expect(instance.logs().filter((l) => Number(l.level) >= 50), `errors logged by an instance:\n${instance.output()}`).to.deep.equal([]);
    }
  });
  return () => instances as [ServerProcess, ServerProcess];
}

function sharedBudgetTest(database: () => PostgresTestDatabase, instances: () => [ServerProcess, ServerProcess]): void {
  it("share one key's budget: the request past it, on either instance, gets 429 with Retry-After, and the budget returns after the window", async () => {
    const admin = adminOn(database());
    const companyId = await admin.company();
    const [warmUp, shared] = [await admin.issueKey(companyId), await admin.issueKey(companyId)];
    const clients = instances().map((instance) => new ApiClient(instance.apiUrl));
    // A first request to each instance with another key, so that start-up costs do not eat into the window.
    for (const client of clients) expect((await client.get('/vacancies', { key: warmUp.key })).status).to.equal(200);

    const responses: ApiResponse[] = [];
    for (let i = 0; i <= POINTS; i++) responses.push(await clients[i % 2]!.get('/vacancies', { key: shared.key }));
    expect(responses.map((r) => r.status)).to.deep.equal([...Array<number>(POINTS).fill(200), 429]);
    expect(responses.slice(0, POINTS).map(remainingOf), 'one budget, counted down by both instances').to.deep.equal(
      Array.from({ length: POINTS }, (_, i) => POINTS - 1 - i),
    );
    const limited = responses[POINTS]!;
    expect(limited.headers.get('ratelimit-policy')).to.equal(`"default";q=${POINTS};w=${WINDOW_S}`);
    expect(limited.body).to.include({ status: 429, code: 'rate_limited' });
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(retryAfter).to.be.within(1, WINDOW_S);
    expect((await clients[POINTS % 2 === 0 ? 1 : 0]!.get('/vacancies', { key: shared.key })).status, 'the other instance refuses too').to.equal(429);

    await sleep(retryAfter * 1_000);
    const renewed = await clients[0]!.get('/vacancies', { key: shared.key });
    expect(renewed.status).to.equal(200);
    expect(remainingOf(renewed)).to.equal(POINTS - 1);
    expect(remainingOf(await clients[1]!.get('/vacancies', { key: shared.key }))).to.equal(POINTS - 2);
  });
}

describe('Two instances on one PostgreSQL', function () {
  this.timeout(60_000);
  const database = usePostgresTestDatabase();
  const budget = { RATE_LIMIT_POINTS: String(POINTS), RATE_LIMIT_WINDOW_S: String(WINDOW_S) };

  describe('RATE_LIMIT_STORE=postgres, KEY_CACHE_TTL_MS at its default (5 s)', () => {
    const instances = twoInstances(database, { RATE_LIMIT_STORE: 'postgres', ...budget });
    sharedBudgetTest(database, instances);

    it('shut a key revoked in the registry out of every instance within 5 s', async () => {
      const admin = adminOn(database());
      const companyId = await admin.company();
      const key = await admin.issueKey(companyId);
      const clients = instances().map((instance) => new ApiClient(instance.apiUrl, key.key));
      for (const client of clients) expect((await client.get('/vacancies')).status, 'valid, and now cached by each instance').to.equal(200);

      await admin.revokeKey(key.id);
      const revokedAt = Date.now();
      const shutOutAfterMs = await Promise.all(
        clients.map(async (client) => {
          const refused = await eventually(async () => (await client.get('/vacancies')).status === 401, 7_000, 250);
          expect(refused, 'the instance refuses the revoked key').to.equal(true);
          return Date.now() - revokedAt;
        }),
      );
      // 5 s of cache, plus one polling interval to notice it.
      for (const ms of shutOutAfterMs) expect(ms).to.be.below(5_000 + 400);
    });

    it('refuse a key from the moment it expires, and write its lastUsedAt once rather than at every request', async () => {
      const admin = adminOn(database());
      const companyId = await admin.company();
      const expiresAt = new Date(Date.now() + 2_000);
      const key = await admin.issueKey(companyId, { expiresAt });
      const clients = instances().map((instance) => new ApiClient(instance.apiUrl, key.key));
      const firstUse = Date.now();
      for (const client of clients) expect((await client.get('/vacancies')).status).to.equal(200);
      const firstUseDone = Date.now();
      while (Date.now() < expiresAt.getTime() - 400) {
        await sleep(300);
        for (const client of clients) expect((await client.get('/vacancies')).status).to.equal(200);
      }
      await sleep(Math.max(0, expiresAt.getTime() - Date.now()) + 10);
      for (const client of clients) {
        const refused = await client.get('/vacancies');
        expect(refused.status, 'expired: refused at once, though the key is cached').to.equal(401);
        expect(refused.body.code).to.equal('unauthorized');
      }

      // Written in the background, at most once a minute per instance: it names the first use, not the last.
      let lastUsedAt: Date | null = null;
      expect(await eventually(async () => (lastUsedAt = await admin.lastUsedAt(companyId, key.id)) !== null, 2_000)).to.equal(true);
      expect(lastUsedAt!.getTime()).to.be.within(firstUse, firstUseDone);
    });
  });

  describe('RATE_LIMIT_STORE=redis', function () {
    before(() => requireRedis());
    const instances = twoInstances(database, { RATE_LIMIT_STORE: 'redis', REDIS_URL, ...budget });
    sharedBudgetTest(database, instances);
  });
});
