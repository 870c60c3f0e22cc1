import { expect } from 'chai';
import pg from 'pg';
import { COMPANY_LOCK_NAMESPACE } from '../../adapters/persistence/postgres/company-lock.js';
import { ApiClient } from '../support/api-client.js';
import { aMinimalApplicationBody } from '../support/http-fixtures.js';
import { createThrowawayDatabaseUrl } from '../support/postgres-test-database.js';
import { startServiceOn, type ServiceOnPostgres } from '../postgres/support/service-on-postgres.js';

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

describe('GET /readyz while requests hold every connection of the pool (PostgreSQL)', function () {
  this.timeout(60_000);
  let database: { url: string; drop: () => Promise<void> };
  let service: ServiceOnPostgres;
  let holder: pg.Client | undefined;

  before(async () => {
    database = await createThrowawayDatabaseUrl();
    // One pooled connection: one request waiting inside its transaction holds them all.
    service = await startServiceOn(database.url, {
      dbPoolMax: 1,
      dbTimeouts: { statementMs: 20_000, connectMs: 5_000, acquireMs: 20_000, idleInTransactionMs: 30_000 },
      rateLimitStore: 'memory',
    });
  });

  after(async () => {
    await holder?.end().catch(() => undefined);
    await service?.close();
    await database?.drop();
  });

  it('answers 200: the database answers, on readiness\'s own connection, and the busy instance is not reported down', async () => {
    const vacancies = await service.api.get<{ items: { id: string }[] }>('/vacancies?status=all');
    const vacancyId = vacancies.body.items[0]?.id as string;
    holder = new pg.Client({ connectionString: database.url });
    await holder.connect();
    // Another session holds the company's lock: an application waits for it inside its transaction, on the pool's one connection.
    await holder.query('begin');
    await holder.query('select pg_advisory_xact_lock($1, hashtext($2))', [COMPANY_LOCK_NAMESPACE, service.companyId]);
    const posted = service.api.post('/applications', aMinimalApplicationBody(vacancyId, { externalId: 'waits-for-the-lock' }));
    const waiting = async () =>
      Number((await holder?.query<{ n: string }>("select count(*) as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'"))?.rows[0]?.n);
    const since = Date.now();
    while ((await waiting()) < 1 && Date.now() - since < 10_000) await sleep(20);
    expect(await waiting(), 'the application waits for the lock on the pooled connection').to.equal(1);

    const probe = new ApiClient(service.origin);
    const ready = await probe.get('/readyz');
    expect(ready.status, JSON.stringify(ready.body)).to.equal(200);

    await holder.query('rollback');
    expect((await posted).status).to.equal(201);
  });
});
