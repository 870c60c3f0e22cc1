import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import pg from 'pg';
import { COMPANY_LOCK_NAMESPACE } from '../../adapters/persistence/postgres/company-lock.js';
import type { PostgresTimeouts } from '../../adapters/persistence/postgres/pg-database.js';
import { executeBound } from '../../adapters/persistence/postgres/pg-statements.js';
import { pgPersistence } from '../../adapters/persistence/postgres/pg-persistence.js';
import { openDatabases, type Databases } from '../../infrastructure/database/open-databases.js';
import { ApiClient } from '../support/api-client.js';
import { createThrowawayDatabaseUrl } from '../support/postgres-test-database.js';
import { PoolerStandIn } from '../postgres/support/pooler-stand-in.js';
import { startServiceOn, type ServiceOnPostgres } from '../postgres/support/service-on-postgres.js';

/**
 * DB_STATEMENT_TIMEOUT_MS and DB_IDLE_IN_TRANSACTION_TIMEOUT_MS behind a transaction pooler (ADR 15). Every
 * connection of the code under test goes through PoolerStandIn, which drops the startup parameters PgBouncer
 * refuses (as ignore_startup_parameters would): a bound sent that way would silently not apply here.
 */
const TIMEOUTS: PostgresTimeouts = { statementMs: 500, connectMs: 1_000, acquireMs: 2_000, idleInTransactionMs: 700 };
/**
 * Above the bound: PostgreSQL's cancel, the answer, the whole HTTP request on a loaded machine. Just below the client's read
 * timeout (bound + 2 s, mikro-orm-options.ts), so an answer within it still came from the server's cancel, not the client's.
 */
const WITHIN_MS = TIMEOUTS.statementMs + 1_900;
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

/** A session of the test's own holding a company's lock in an open transaction (no session state: it works through a pooler too). */
async function holdCompanyLock(url: string, companyId: string): Promise<{ release(): Promise<void> }> {
  const holder = new pg.Client({ connectionString: url });
  await holder.connect();
  await holder.query('begin');
  await holder.query('select pg_advisory_xact_lock($1, hashtext($2))', [COMPANY_LOCK_NAMESPACE, companyId]);
  return {
    async release() {
      await holder.query('rollback');
      await holder.end();
    },
  };
}

/** Whether another session gets the company lock within `ms`, trying every 50 ms. */
async function lockFreedWithin(url: string, companyId: string, ms: number): Promise<boolean> {
  const other = new pg.Client({ connectionString: url });
  await other.connect();
  try {
    const deadline = Date.now() + ms;
    for (;;) {
      await other.query('begin');
      const free = await other.query<{ got: boolean }>('select pg_try_advisory_xact_lock($1, hashtext($2)) as got', [COMPANY_LOCK_NAMESPACE, companyId]);
      await other.query('rollback');
      if (free.rows[0]?.got === true) return true;
      if (Date.now() >= deadline) return false;
      await sleep(50);
    }
  } finally {
    await other.end();
  }
}

async function timed<T>(call: () => Promise<T>): Promise<{ outcome: T | undefined; error: (Error & { reason?: unknown; code?: unknown }) | undefined; ms: number }> {
  const started = Date.now();
  try {
    const outcome = await call();
    return { outcome, error: undefined, ms: Date.now() - started };
  } catch (error) {
    return { outcome: undefined, error: error as Error, ms: Date.now() - started };
  }
}

describe('Database timeouts behind a transaction pooler, set per transaction', function () {
  this.timeout(60_000);
  let relay: PoolerStandIn;
  let database: { url: string; drop: () => Promise<void> };

  before(async () => {
    database = await createThrowawayDatabaseUrl();
    const target = new URL(database.url);
    relay = await PoolerStandIn.start({ host: target.hostname, port: Number(target.port || 5432) });
  });
  after(async () => {
    await relay?.close();
    await database?.drop();
  });

  describe('HTTP', () => {
    let service: ServiceOnPostgres;
    before(async () => {
      service = await startServiceOn(relay.urlOf(database.url), { dbPoolMax: 1, dbTimeouts: TIMEOUTS, rateLimitStore: 'memory' });
    });
    after(async () => service?.close());

    it('answers 503 with Retry-After within the statement timeout when a company lock is held elsewhere, and the pooled connection then serves the next request', async () => {
      const lock = await holdCompanyLock(database.url, service.companyId);
      let waited: Awaited<ReturnType<typeof timed<Awaited<ReturnType<ApiClient['get']>>>>>;
      try {
        waited = await timed(() => service.api.get('/vacancies'));
      } finally {
        await lock.release();
      }
      expect(waited.outcome?.status).to.equal(503);
      expect(waited.outcome?.headers.get('retry-after')).to.equal('5');
      expect(waited.ms).to.be.within(TIMEOUTS.statementMs - 50, WITHIN_MS);
      // DB_POOL_MAX=1: the one connection that saw the cancel serves this request.
      const next = await service.api.get('/vacancies');
      expect(next.status).to.equal(200);
      expect(next.body.items).to.have.length(1);
    });

    it('bounds a new application (a transaction: BEGIN, then the lock) the same way', async () => {
      const vacancyId = (await service.api.get('/vacancies')).body.items[0].id as string;
      const lock = await holdCompanyLock(database.url, service.companyId);
      let waited: Awaited<ReturnType<typeof timed<Awaited<ReturnType<ApiClient['post']>>>>>;
      const body = { externalId: 'ext-timeout-1', vacancyId, source: 'career-portal', candidate: { name: 'Алишер Каримов', email: 'alisher@example.uz' } };
      try {
        waited = await timed(() => service.api.post('/applications', body));
      } finally {
        await lock.release();
      }
      expect(waited.outcome?.status).to.equal(503);
      expect(waited.outcome?.headers.get('retry-after')).to.equal('5');
      expect(waited.ms).to.be.within(TIMEOUTS.statementMs - 50, WITHIN_MS);
      expect((await service.api.post('/applications', body)).status).to.equal(201);
    });
  });

  describe('the PostgreSQL adapters', () => {
    let databases: Databases;
    before(async () => {
      const url = relay.urlOf(database.url);
      databases = await openDatabases({ databaseUrl: url, keysDatabaseUrl: url, dataDir: '', poolMax: 1, timeouts: TIMEOUTS });
    });
    after(async () => databases?.close());

    it('bound a statement with values outside a transaction as well', async () => {
      const alone = { db: databases.business, transaction: undefined };
      const { error, ms } = await timed(() => executeBound(alone, 'select pg_sleep(?)', [3]));
      expect(error).to.include({ code: '57014' });
      expect(ms).to.be.within(TIMEOUTS.statementMs - 50, WITHIN_MS);
      expect(await executeBound(alone, 'select ?::int as one', [1])).to.deep.equal([{ one: 1 }]);
    });

    it('end a session that sits idle inside a transaction past DB_IDLE_IN_TRANSACTION_TIMEOUT_MS, which frees its lock; the pool then serves', async () => {
      const companyId = `idle-${Date.now()}`;
      // Idle far past the bound: the server's timer has time to fire first even on a loaded machine.
      const stalled = pgPersistence(databases, { beforeCommit: async () => void (await sleep(TIMEOUTS.idleInTransactionMs + 2_000)) }).unitOfWork;
      let locked!: () => void;
      const lockTaken = new Promise<void>((done) => (locked = done));
      // The work runs once the transaction holds the company's lock.
      const run = timed(() => stalled.run(companyId, 'write', async () => (locked(), 'done')));
      // BEGIN and the lock may be slow to get going on a loaded machine (a new pooled connection): wait for them, then ask until the lock is free.
      await Promise.race([lockTaken, run]);
      expect(await lockFreedWithin(database.url, companyId, 10_000), 'the company lock was released').to.equal(true);
      // Freed by the server ending the session, not by the unit of work finishing: its commit found the connection gone.
      const { error } = await run;
      expect(error, 'the stalled unit of work failed: the server ended its session').to.include({ name: 'StoreUnavailableError', code: 'service_unavailable' });
      expect(error?.reason).to.be.oneOf(['connection_broken', 'connection_terminated', '25P03']);
      const unitOfWork = pgPersistence(databases).unitOfWork;
      expect(await unitOfWork.run(companyId, 'write', async () => 'served')).to.equal('served');
    });
  });
});
