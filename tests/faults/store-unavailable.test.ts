import { expect } from 'chai';
import pg from 'pg';
import { COMPANY_LOCK_NAMESPACE } from '../../adapters/persistence/postgres/company-lock.js';
import type { PostgresTimeouts } from '../../adapters/persistence/postgres/pg-database.js';
import { DatabaseProbe } from '../../adapters/persistence/postgres/database-probe.js';
import { ACQUIRE_TIMEOUT_MESSAGE } from '../../adapters/persistence/postgres/pg-database.js';
import { pgPersistence } from '../../adapters/persistence/postgres/pg-persistence.js';
import { isStalePreparedStatement, markConnectionDiscarded } from '../../adapters/persistence/postgres/prepared-statements.js';
import { unavailabilityReason } from '../../adapters/persistence/postgres/store-errors.js';
import { StoreUnavailableError } from '../../application/ports/store-unavailable.error.js';
import { ListVacancies } from '../../application/use-cases/list-vacancies.use-case.js';
import { stablePort } from '../support/stable-port.js';
import { openDatabases, type Databases } from '../../infrastructure/database/open-databases.js';
import { usePostgresTestDatabase } from '../support/postgres-test-database.js';
import { sleep } from '../rate-limit/support/stores.js';
import { adminOn } from '../scale/support/registry.js';
import { FreezingRelay, throughPort } from './support/freezing-relay.js';
import { PAGE_MAX_BYTES_DEFAULT } from '../../domain/paging/page-budget.js';

/** Short, for a quick test; connect below acquire, as by default, so a connect that hangs is named for what it is. */
const TIMEOUTS: PostgresTimeouts = { statementMs: 500, connectMs: 500, acquireMs: 1_500, idleInTransactionMs: 10_000 };
/** The client stops waiting 2 s after the server's statement timeout (mikro-orm-options.ts). */
const CLIENT_READ_TIMEOUT_MS = TIMEOUTS.statementMs + 2_000;

/** What a call failed with, and after how long; fails the test when it succeeded. */
async function failureOf(call: () => Promise<unknown>): Promise<{ error: { code?: unknown; reason?: unknown; name?: unknown }; ms: number }> {
  const started = Date.now();
  try {
    await call();
  } catch (error) {
    return { error: error as { code?: unknown; reason?: unknown }, ms: Date.now() - started };
  }
  throw new Error('the call succeeded; it was expected to fail');
}


function open(url: string): Promise<Databases> {
  return openDatabases({ databaseUrl: url, keysDatabaseUrl: url, dataDir: '', poolMax: 2, timeouts: TIMEOUTS });
}

/** The calls of a request: the key registry's read and a company's read unit of work. */
function callsOn(databases: Databases) {
  const adapters = pgPersistence(databases);
  const listVacancies = new ListVacancies(adapters.vacancies, adapters.unitOfWork, PAGE_MAX_BYTES_DEFAULT);
  return {
    findKey: (id: string) => adapters.keys.findById(id),
    listVacancies: (companyId: string) => listVacancies.execute({ companyId, since: null, status: 'all', limit: 10, cursor: null }),
  };
}

describe('StoreUnavailableError: the PostgreSQL adapters when the database does not answer', function () {
  this.timeout(60_000);
  const database = usePostgresTestDatabase();
  let companyId: string;
  let keyId: string;
  before(async () => {
    const admin = adminOn(database());
    companyId = await admin.company();
    keyId = (await admin.issueKey(companyId)).id;
    await admin.vacancy(companyId);
  });

  it('name ECONNREFUSED when nothing listens at the address, for the registry and for a unit of work alike', async () => {
    const port = await stablePort();
    const databases = await open(throughPort(database().businessUrl, port));
    try {
      const calls = callsOn(databases);
      for (const call of [() => calls.findKey(keyId), () => calls.listVacancies(companyId)]) {
        const { error, ms } = await failureOf(call);
        expect(error).to.include({ name: 'StoreUnavailableError', code: 'service_unavailable', reason: 'ECONNREFUSED' });
        expect(ms).to.be.below(TIMEOUTS.connectMs + 1_000);
      }
    } finally {
      await databases.close();
    }
  });

  it('fail within the timeouts when the database goes silent, drop the connection that saw it, and work again once it answers', async () => {
    const target = new URL(database().businessUrl);
    const relay = await FreezingRelay.start({ host: target.hostname, port: Number(target.port || 5432) });
    const url = throughPort(database().businessUrl, relay.port);
    const databases = await open(url);
    try {
      const calls = callsOn(databases);
      expect((await calls.listVacancies(companyId)).page.items).to.have.length(1);

      relay.freeze();
      // On the pooled connection: the server never sees the query, so only the client's own timeout ends it.
      const onPooled = await failureOf(() => calls.listVacancies(companyId));
      expect(onPooled.error).to.include({ code: 'service_unavailable', reason: 'query_timeout' });
      expect(onPooled.ms).to.be.below(CLIENT_READ_TIMEOUT_MS + 1_500);
      const probe = new DatabaseProbe(url, { connectTimeoutMs: TIMEOUTS.connectMs });
      try {
        expect(await probe.answers(), 'the readiness check says no').to.equal(false);
      } finally {
        await probe.close();
      }
      // A pool of its own, so the call has to open a connection: accepted by the network, never answered.
      const fresh = await open(url);
      try {
        const onNew = await failureOf(() => callsOn(fresh).findKey(keyId));
        expect(onNew.error).to.include({ code: 'service_unavailable', reason: 'connect_timeout' });
        expect(onNew.ms).to.be.below(TIMEOUTS.connectMs + 1_500);
      } finally {
        await fresh.close();
      }

      relay.thaw();
      // A connect that started while frozen may still fail the first call; none may wait on the stuck connection.
      let served = false;
      for (let attempt = 0; attempt < 5 && !served; attempt++) {
        const started = Date.now();
        served = await calls.listVacancies(companyId).then((result) => result.page.items.length === 1, () => false);
        expect(Date.now() - started, 'a call waited on the connection that saw the silence').to.be.below(CLIENT_READ_TIMEOUT_MS);
        if (!served) await sleep(200);
      }
      expect(served, 'served again once the database answers').to.equal(true);
      expect((await calls.findKey(keyId))?.id).to.equal(keyId);
    } finally {
      await databases.close();
      await relay.close();
    }
  });

  it('end a statement that outlasts the statement timeout (a company lock held elsewhere) with reason 57014, and serve once the lock is free', async () => {
    const databases = await open(database().businessUrl);
    const holder = new pg.Client({ connectionString: database().businessUrl });
    await holder.connect();
    try {
      await holder.query('begin');
      await holder.query('select pg_advisory_xact_lock($1, hashtext($2))', [COMPANY_LOCK_NAMESPACE, companyId]);
      const calls = callsOn(databases);
      const { error, ms } = await failureOf(() => calls.listVacancies(companyId));
      expect(error).to.include({ code: 'service_unavailable', reason: '57014' });
      expect(ms).to.be.within(TIMEOUTS.statementMs - 50, TIMEOUTS.statementMs + 1_500);
      await holder.query('rollback');
      expect((await calls.listVacancies(companyId)).page.items).to.have.length(1);
    } finally {
      await holder.end();
      await databases.close();
    }
  });
});

describe('unavailabilityReason', () => {
  const withCode = (code: string, message = 'x') => Object.assign(new Error(message), { code });
  const discarded = (error: Error) => {
    markConnectionDiscarded(error);
    return error;
  };

  it('names connection-level failures by a code that is safe to log', () => {
    const cases: [unknown, string][] = [
      [withCode('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:1'), 'ECONNREFUSED'],
      [withCode('ECONNRESET'), 'ECONNRESET'],
      [withCode('57P01', 'terminating connection due to administrator command'), '57P01'],
      [withCode('57P03', 'the database system is starting up'), '57P03'],
      [withCode('57014', 'canceling statement due to statement timeout'), '57014'],
      [withCode('08006'), '08006'],
      [withCode('53300', 'sorry, too many clients already'), '53300'],
      [new Error('timeout exceeded when trying to connect'), 'pool_timeout'],
      [new Error(ACQUIRE_TIMEOUT_MESSAGE), 'pool_timeout'],
      [new Error('Cannot use a pool after calling end on the pool'), 'pool_closed'],
      [new Error('Connection terminated due to connection timeout'), 'connect_timeout'],
      [new Error('Connection terminated unexpectedly'), 'connection_terminated'],
      [new Error('Client has encountered a connection error and is not queryable'), 'connection_broken'],
      [new Error('Query read timeout'), 'query_timeout'],
      [new Error('timeout expired'), 'connect_timeout'],
      [new AggregateError([withCode('ECONNREFUSED')], 'all addresses failed'), 'ECONNREFUSED'],
      [new Error('wrapped', { cause: withCode('57P01') }), '57P01'],
      [new StoreUnavailableError('EPIPE'), 'EPIPE'],
      // A prepared statement the connection can no longer run, its connection discarded for it (ADR 22): the work retried.
      [discarded(withCode('26000', 'prepared statement "ia_0123456789abcdef01234567" does not exist')), '26000'],
      [discarded(withCode('0A000', 'cached plan must not change result type')), '0A000'],
    ];
    for (const [error, reason] of cases) expect(unavailabilityReason(error), String(error)).to.equal(reason);
  });

  it('leaves every other error as it is (constraints, syntax, bugs), whatever text of a request its message quotes', () => {
    const unique = withCode('23505', "insert into candidates values ('x - Query read timeout') - duplicate key value violates unique constraint");
    const textOfARequest = new Error("insert into candidates values ('Connection terminated - it was') - value too long");
    // 0A000 is feature_not_supported: a mistake of the statement. And a stale prepared statement whose connection was
    // not discarded (an unnamed one cannot be stale) would fail again if retried on that connection.
    const unsupported = withCode('0A000', 'FOR UPDATE cannot be applied to the nullable side of an outer join');
    const notDiscarded = [withCode('0A000', 'cached plan must not change result type'), withCode('26000', 'prepared statement "x" does not exist')];
    for (const error of [unique, textOfARequest, unsupported, ...notDiscarded, withCode('42601', 'syntax error'), new TypeError('x is undefined'), 'a string', null]) {
      expect(unavailabilityReason(error), String(error)).to.equal(null);
    }
  });
});

describe('isStalePreparedStatement', () => {
  const error = (fields: Record<string, string>) => Object.assign(new Error(fields.message ?? 'x'), fields);

  it('knows a stale plan by the server function that raises it, in any language of the server\'s messages, or by its English message', () => {
    expect(isStalePreparedStatement(error({ code: '0A000', routine: 'RevalidateCachedQuery', message: 'кешированный план не должен менять тип результата' }))).to.equal(true);
    expect(isStalePreparedStatement(error({ code: '0A000', message: 'cached plan must not change result type' }))).to.equal(true);
    expect(isStalePreparedStatement(error({ code: '26000', message: 'prepared statement "ia_x" does not exist' }))).to.equal(true);
  });

  it('leaves every other feature_not_supported as it is', () => {
    expect(isStalePreparedStatement(error({ code: '0A000', routine: 'transformLockingClause', message: 'FOR UPDATE cannot be applied to the nullable side of an outer join' }))).to.equal(false);
    expect(isStalePreparedStatement(error({ code: '0A000', message: "insert into t values ('cached plan must not change result type') - x" }))).to.equal(false);
    expect(isStalePreparedStatement(error({ code: '42P05', message: 'prepared statement "ia_x" already exists' }))).to.equal(false);
  });
});
