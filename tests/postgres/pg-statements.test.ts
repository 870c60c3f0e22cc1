import { expect } from 'chai';
import type { PostgresTimeouts } from '../../adapters/persistence/postgres/pg-database.js';
import { executeBound, executeInlined, executeInlinedCount, type PgSession } from '../../adapters/persistence/postgres/pg-statements.js';
import { inOwnTransaction } from '../../adapters/persistence/postgres/pg-transaction.js';
import { PgUnitOfWork } from '../../adapters/persistence/postgres/pg-unit-of-work.js';
import { withOwnSession, withSession } from '../../adapters/persistence/postgres/transaction-scope.js';
import { StoreUnavailableError } from '../../application/ports/store-unavailable.error.js';
import { nextId } from '../support/builders.js';
import { rejectionOf } from '../support/catching.js';
import { usePostgresTestDatabase } from '../support/postgres-test-database.js';
import { RecordingDatabase } from './support/recording-database.js';

/** Connections of the suite's own pool: few, so that every one of them can be looked at. */
const POOL_MAX = 3;
const TIMEOUTS: PostgresTimeouts = { statementMs: 4_000, connectMs: 5_000, acquireMs: 5_000, idleInTransactionMs: 9_000 };
const BOUNDS = 'set local statement_timeout = 4000; set local idle_in_transaction_session_timeout = 9000';
const BEGIN = 'begin isolation level read committed';

/** ADR 25: the repositories' statements through PgDatabase, in a transaction of its own or a unit of work's, or in autocommit. */
describe('Statements through PgDatabase (PostgreSQL)', () => {
  const database = usePostgresTestDatabase();
  const table = `pg_statements_${process.pid}`;
  let db: RecordingDatabase;
  const alone = (): PgSession => ({ db, transaction: undefined });
  const given = () => db.stats();

  before(async () => {
    db = new RecordingDatabase({ url: database().businessUrl, poolMax: POOL_MAX, timeouts: TIMEOUTS });
    // In the test database, which is dropped after the suite with it.
    await executeInlined(alone(), `create table ${table} (id int primary key, note text)`);
  });
  after(() => db.close());
  afterEach(() => {
    db.fail = undefined;
  });

  it('runs in the transaction it is called in: it sees the transaction\'s own writes, and what the transaction undoes is gone', async () => {
    const failure = await rejectionOf(
      inOwnTransaction(db, async (session) => {
        await executeInlined(session, `insert into ${table} (id, note) values (?, ?)`, [1, "it's ? here"]);
        await executeBound(session, `insert into ${table} (id, note) values (?, ?)`, [2, 'bound ?\\']);
        const rows = await executeInlined<{ id: number; note: string }>(session, `select id, note from ${table} order by id`);
        expect(rows).to.deep.equal([{ id: 1, note: "it's ? here" }, { id: 2, note: 'bound ?\\' }]);
        throw new Error('undo');
      }),
    );
    expect((failure as Error).message).to.equal('undo');
    expect(await executeInlined(alone(), `select id from ${table}`)).to.deep.equal([]);
  });

  it('refuses to run on the connection of a transaction that has ended, which may serve another unit of work by then', async () => {
    let ended: PgSession | undefined;
    await inOwnTransaction(db, async (session) => {
      ended = session;
      await executeInlined(session, 'select 1');
    });
    const messages = db.watch();
    const refused = await rejectionOf(executeInlined(ended as PgSession, `insert into ${table} (id, note) values (3, 'late')`));
    expect((refused as Error).message).to.match(/transaction that has ended/);
    expect(messages, 'nothing sent').to.deep.equal([]);
    expect(await executeInlined(alone(), `select id from ${table} where id = 3`)).to.deep.equal([]);
  });

  it('refuses an undefined value and a count of values that does not match the placeholders, before sending anything', async () => {
    const sql = `insert into ${table} (id, note) values (?, ?)`;
    await inOwnTransaction(db, async (session) => {
      await executeInlined(session, 'select 1');
      const messages = db.watch();
      expect(((await rejectionOf(executeBound(session, sql, [4, undefined]))) as Error).message).to.match(/undefined/);
      expect(((await rejectionOf(executeBound(session, sql, [4]))) as Error).message).to.match(/Expected 2 values, saw 1/);
      expect(((await rejectionOf(executeInlined(session, sql, [4, undefined]))) as Error).message).to.match(/undefined/);
      expect(((await rejectionOf(executeInlined(session, sql, [4, 'a', 'b']))) as Error).message).to.match(/Expected 2 values, saw 3/);
      expect(messages, 'nothing sent').to.deep.equal([]);
    });
    expect(await executeInlined(alone(), `select id from ${table} where id = 4`)).to.deep.equal([]);
  });

  it('outside a transaction sends a bound statement inlined, behind the bounds in its message, in one implicit transaction', async () => {
    const messages = db.watch();
    await executeBound(alone(), `insert into ${table} (id, note) values (?, ?)`, [5, 'alone']);
    expect(messages).to.deep.equal([`${BOUNDS};\ninsert into ${table} (id, note) values (5, 'alone');`]);
    const [row] = await executeInlined<{ timeout: string; idle: string; note: string }>(
      alone(),
      `select current_setting('statement_timeout') as timeout, current_setting('idle_in_transaction_session_timeout') as idle, note from ${table} where id = ?`,
      [5],
    );
    expect(row).to.deep.equal({ timeout: '4s', idle: '9s', note: 'alone' });
  });

  it('outside a transaction takes a pooled connection for each statement and gives it back, also when the statement fails', async () => {
    const answers = await Promise.all(Array.from({ length: 30 }, (_, n) => executeInlined<{ n: number }>(alone(), 'select ?::int as n', [n])));
    expect(answers.map(([row]) => row?.n)).to.deep.equal(Array.from({ length: 30 }, (_, n) => n));
    const failed = await rejectionOf(executeInlined(alone(), 'select * from a_table_that_is_not_there'));
    expect((failed as { code?: string }).code).to.equal('42P01');
    expect(given().idle, 'every connection given back').to.equal(given().total);
    expect(given().total).to.be.at.most(POOL_MAX);
  });

  it('leaves no bound on the session after a transaction or an autocommit statement: SET LOCAL ends with them', async () => {
    await inOwnTransaction(db, (session) => executeInlined(session, 'select 1'));
    await executeInlined(alone(), 'select 1');
    const clients = await Promise.all(Array.from({ length: POOL_MAX }, () => db.connect()));
    try {
      for (const client of clients) {
        const { rows } = await client.query<{ timeout: string; idle: string }>(
          "select current_setting('statement_timeout') as timeout, current_setting('idle_in_transaction_session_timeout') as idle",
        );
        expect(rows[0]).to.deep.equal({ timeout: '0', idle: '0' });
      }
    } finally {
      clients.forEach((client) => db.release(client));
    }
  });

  /** ADR 20: a unit of work's own transaction on a pooled connection. */
  describe('in a unit of work', () => {
    it('costs the round trips it always did: BEGIN, bounds and the company lock in one message; each statement; the COMMIT', async () => {
      const unitOfWork = new PgUnitOfWork(db);
      const messages = db.watch();
      const timeouts = await unitOfWork.run(nextId('co'), 'write', async () => {
        await withSession(db, (session) => executeInlined(session, `insert into ${table} (id, note) values (?, ?)`, [6, 'one']));
        return withSession(db, (session) => executeInlined<{ timeout: string; idle: string }>(
          session,
          "select current_setting('statement_timeout') as timeout, current_setting('idle_in_transaction_session_timeout') as idle",
        ));
      });
      expect(timeouts).to.deep.equal([{ timeout: '4s', idle: '9s' }]);
      expect(messages).to.have.length(4);
      expect(messages[0]).to.match(new RegExp(`^${BEGIN};\\n${BOUNDS};\\nwith locked as materialized \\(select pg_advisory_xact_lock\\(`));
      expect(messages[1]).to.equal(`insert into ${table} (id, note) values (6, 'one')`);
      expect(messages[3]).to.equal('commit');
    });

    it('a read costs one message for its lock and clock, behind the bounds, and one for each statement, with no transaction', async () => {
      const unitOfWork = new PgUnitOfWork(db, { barrierReuseMs: 0 });
      const messages = db.watch();
      await unitOfWork.run(nextId('co'), 'read', () => withSession(db, (session) => executeInlined(session, `select id from ${table} where id = ?`, [6])));
      expect(messages).to.have.length(2);
      expect(messages[0]).to.match(new RegExp(`^${BOUNDS};\\nwith locked as materialized \\(select pg_advisory_xact_lock\\(`));
      expect(messages[1]).to.equal(`${BOUNDS};\nselect id from ${table} where id = 6;`);
    });

    it('sends the repositories\' statements on the unit of work\'s connection: they see each other, and a failure undoes them all', async () => {
      const unitOfWork = new PgUnitOfWork(db);
      const seen: number[] = [];
      const failure = await rejectionOf(
        unitOfWork.run(nextId('co'), 'write', async () => {
          await withSession(db, (session) => executeInlined(session, `insert into ${table} (id, note) values (?, ?)`, [10, 'inlined']));
          await withSession(db, (session) => executeBound(session, `insert into ${table} (id, note) values (?, ?)`, [11, 'bound']));
          const rows = await withSession(db, (session) => executeInlined<{ id: number }>(session, `select id from ${table} where id >= 10 order by id`));
          seen.push(...rows.map((row) => row.id));
          // Not seen outside: the rows are not committed, on another connection.
          expect(await withOwnSession(db, (own) => executeInlined(own, `select id from ${table} where id >= 10`))).to.deep.equal([]);
          throw new Error('undo');
        }),
      );
      expect((failure as Error).message).to.equal('undo');
      expect(seen).to.deep.equal([10, 11]);
      expect(await executeInlined(alone(), `select id from ${table} where id >= 10`)).to.deep.equal([]);
      expect(given().idle, 'the connection given back').to.equal(given().total);
    });

    it('takes repository calls made at once one after another, each with all its statements, and a call made inside a call at once; the first failure fails the unit of work', async () => {
      const unitOfWork = new PgUnitOfWork(db);
      const order: string[] = [];
      const call = (name: string, fails = false) =>
        withSession(db, async (session) => {
          order.push(`${name} starts`);
          await executeInlined(session, 'select 1');
          if (fails) await executeInlined(session, 'select * from a_table_that_is_not_there');
          // Inside a call: not queued behind the call it is part of, which would wait for ever.
          const [row] = await withSession(db, (own) => executeInlined<{ n: number }>(own, 'select ?::int as n', [name.length]));
          order.push(`${name} ends`);
          return row?.n;
        });
      let answers: PromiseSettledResult<number | undefined>[] = [];
      const failure = await rejectionOf(
        unitOfWork.run(nextId('co'), 'write', async () => {
          answers = await Promise.allSettled([call('a'), call('bb', true), call('ccc')]);
        }),
      );
      expect(order).to.deep.equal(['a starts', 'a ends', 'bb starts', 'ccc starts']);
      expect(answers.map((answer) => (answer.status === 'fulfilled' ? answer.value : (answer.reason as { code?: string }).code))).to.deep.equal([1, '42P01', '25P02']);
      expect((failure as { code?: string }).code, "the first failure, not the aborted transaction's").to.equal('42P01');
      expect(given().idle, 'the connection given back').to.equal(given().total);
    });

    it('commits what succeeds, and counts the rows a statement changed', async () => {
      const unitOfWork = new PgUnitOfWork(db);
      const deleted = await unitOfWork.run(nextId('co'), 'write', async () => {
        await withSession(db, (session) => executeInlined(session, `insert into ${table} (id, note) values (20, 'a'), (21, 'b'), (22, 'c')`));
        return withSession(db, (session) => executeInlinedCount(session, `delete from ${table} where id in (?, ?)`, [20, 21]));
      });
      expect(deleted).to.equal(2);
      expect(await executeInlined(alone(), `select id from ${table} where id >= 20 and id < 30`)).to.deep.equal([{ id: 22 }]);
    });

    it('refuses a statement of the unit of work once it has ended, also one made straight on its session', async () => {
      const unitOfWork = new PgUnitOfWork(db);
      let late: Promise<unknown> | undefined;
      let lateCall: Promise<unknown> | undefined;
      await unitOfWork.run(nextId('co'), 'write', async () => {
        const session = await withSession(db, async (own) => own);
        // Left running by the work (a bug): it comes after the COMMIT, still in the unit of work's async context.
        const afterCommit = new Promise((resolve) => setTimeout(resolve, 20));
        late = afterCommit.then(() => executeInlined(session, `insert into ${table} (id, note) values (30, 'late')`));
        lateCall = afterCommit.then(() => withSession(db, (own) => executeInlined(own, `insert into ${table} (id, note) values (31, 'late')`)));
        late.catch(() => undefined);
        lateCall.catch(() => undefined);
      });
      expect(((await rejectionOf(late as Promise<unknown>)) as Error).message).to.match(/transaction that has ended/);
      expect(((await rejectionOf(lateCall as Promise<unknown>)) as Error).message).to.match(/after its unit of work had ended/);
      expect(await executeInlined(alone(), `select id from ${table} where id in (30, 31)`)).to.deep.equal([]);
    });

    it('reports a unit of work whose connection the server ended as the database away, and the pool lends that connection no more', async () => {
      const unitOfWork = new PgUnitOfWork(db);
      let pid = 0;
      const failure = await rejectionOf(
        unitOfWork.run(nextId('co'), 'write', async () => {
          pid = await backendPid();
          // The server ends this session, as a restart would: the statement after it and the ROLLBACK cannot be sent.
          await executeInlined(alone(), 'select pg_terminate_backend(?)', [pid]);
          await withSession(db, (session) => executeInlined(session, 'select 1'));
        }),
      );
      expect(failure).to.be.instanceOf(StoreUnavailableError);
      expect(given().idle).to.equal(given().total);
      expect(await pidsOfConcurrentUnitsOfWork()).to.not.include(pid);
    });

    it('destroys a connection whose ROLLBACK failed, on a line still open, instead of lending it again', async () => {
      const unitOfWork = new PgUnitOfWork(db);
      let pid = 0;
      const failure = await rejectionOf(
        unitOfWork.run(nextId('co'), 'write', async () => {
          pid = await backendPid();
          // The ROLLBACK fails as a half-read answer would, the socket still open: nothing says where the session is.
          db.fail = (text) => (text === 'rollback' ? new Error('a ROLLBACK that failed') : undefined);
          throw new Error('the work failed');
        }),
      );
      db.fail = undefined;
      expect((failure as Error).message, 'the work\'s failure, not the ROLLBACK\'s').to.equal('the work failed');
      expect(given().idle).to.equal(given().total);
      expect(await pidsOfConcurrentUnitsOfWork()).to.not.include(pid);
    });

    it('destroys a connection whose COMMIT failed, on a line still open, and fails the unit of work', async () => {
      const unitOfWork = new PgUnitOfWork(db);
      let pid = 0;
      const failure = await rejectionOf(
        unitOfWork.run(nextId('co'), 'write', async () => {
          pid = await backendPid();
          await withSession(db, (session) => executeInlined(session, `insert into ${table} (id, note) values (35, 'lost')`));
          db.fail = (text) => (text === 'commit' ? new Error('a COMMIT that failed') : undefined);
        }),
      );
      db.fail = undefined;
      expect((failure as Error).message).to.equal('a COMMIT that failed');
      expect(given().idle).to.equal(given().total);
      expect(await pidsOfConcurrentUnitsOfWork()).to.not.include(pid);
      // The server, never told to commit, rolled the transaction back as its session ended.
      expect(await executeInlined(alone(), `select id from ${table} where id = 35`)).to.deep.equal([]);
    });

    it('fails a unit of work whose COMMIT PostgreSQL answered with ROLLBACK: a call the work left running failed after the work returned', async () => {
      const unitOfWork = new PgUnitOfWork(db);
      const outcome = await rejectionOf(
        unitOfWork.run(nextId('co'), 'write', async () => {
          await withSession(db, (session) => executeInlined(session, `insert into ${table} (id, note) values (40, 'lost')`));
          // Not awaited (a bug of the work): sent now, it fails once the work has returned, before the COMMIT is read.
          withSession(db, (session) => executeInlined(session, 'select pg_sleep(0.2); select 1 / 0')).catch(() => undefined);
          await new Promise((resolve) => setImmediate(resolve));
          return 'done';
        }),
      );
      expect((outcome as { code?: string }).code, 'the failure of the call, division by zero').to.equal('22012');
      expect(await executeInlined(alone(), `select id from ${table} where id = 40`)).to.deep.equal([]);
    });

    /** The server process of the connection the caller's statements go on (its unit of work's, inside one). */
    async function backendPid(): Promise<number> {
      const [row] = await withSession(db, (session) => executeInlined<{ pid: number }>(session, 'select pg_backend_pid() as pid'));
      return row?.pid as number;
    }

    /**
     * The backend of each of as many units of work at once as the pool holds connections: every connection of the
     * pool. Each holds its connection until all have one (no timer: a new connection may take long to open on a
     * busy machine, and a unit of work that let go of its connection first would lend it to the next one).
     */
    async function pidsOfConcurrentUnitsOfWork(): Promise<number[]> {
      let holding = 0;
      let allHold: () => void = () => undefined;
      const everyoneHolds = new Promise<void>((resolve) => (allHold = resolve));
      const rows = await Promise.all(
        Array.from({ length: POOL_MAX }, () =>
          new PgUnitOfWork(db).run(nextId('co'), 'write', async () => {
            const pid = await backendPid();
            holding += 1;
            if (holding === POOL_MAX) allHold();
            await everyoneHolds;
            return pid;
          }),
        ),
      );
      expect(new Set(rows).size, 'each unit of work on a connection of its own').to.equal(POOL_MAX);
      return rows;
    }
  });

  it('destroys a connection whose statement outlived the client\'s read timeout, and the unit of work fails as the database away', async () => {
    // Its own pool of one: the next unit of work shows whether the connection was kept. statementMs 100: the client
    // waits 2.1 s for an answer; the statement lifts the server's own bound so that only the client's can end it.
    const short = new RecordingDatabase({ url: database().businessUrl, poolMax: 1, timeouts: { ...TIMEOUTS, statementMs: 100 } });
    try {
      const pidOf = (session: PgSession) => executeInlined<{ pid: number }>(session, 'select pg_backend_pid() as pid').then(([row]) => row?.pid);
      let before: number | undefined;
      const failure = await rejectionOf(
        new PgUnitOfWork(short).run(nextId('co'), 'write', () =>
          withSession(short, async (session) => {
            before = await pidOf(session);
            await executeInlined(session, 'set local statement_timeout = 0; select pg_sleep(4)');
          }),
        ),
      );
      expect(failure).to.be.instanceOf(StoreUnavailableError);
      expect(failure).to.include({ reason: 'query_timeout' });
      expect(short.messages.at(-1), 'no ROLLBACK queued behind the lost statement').to.equal('set local statement_timeout = 0; select pg_sleep(4)');
      const after = await new PgUnitOfWork(short).run(nextId('co'), 'write', () => withSession(short, pidOf));
      expect(after, 'a new connection').to.be.a('number').and.not.equal(before);
    } finally {
      await short.close();
    }
  });
});
