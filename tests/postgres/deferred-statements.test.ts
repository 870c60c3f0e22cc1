import { expect } from 'chai';
import pg from 'pg';
import type { PostgresTimeouts } from '../../adapters/persistence/postgres/pg-database.js';
import { executeBound, executeInlined, executeInlinedLater, executeReusable } from '../../adapters/persistence/postgres/pg-statements.js';
import { PgUnitOfWork } from '../../adapters/persistence/postgres/pg-unit-of-work.js';
import { withSession } from '../../adapters/persistence/postgres/transaction-scope.js';
import { nextId } from '../support/builders.js';
import { rejectionOf } from '../support/catching.js';
import { usePostgresTestDatabase, type PostgresTestDatabaseOptions } from '../support/postgres-test-database.js';
import { RecordingDatabase } from './support/recording-database.js';

const TIMEOUTS: PostgresTimeouts = { statementMs: 4_000, connectMs: 5_000, acquireMs: 5_000, idleInTransactionMs: 9_000 };

/**
 * ADR 23: statements deferred to the unit of work's next message (executeInlinedLater), on a pool of one connection
 * (so that the next unit of work shows whether the connection was kept), without bounds, with the statement bounds
 * the service always sets (SET LOCAL in the BEGIN's message, PgDatabase.bounds), and with prepared statements as
 * well (ADR 22), whose named statements go in messages of their own. Every message is written down as PgDatabase
 * sends it (RecordingDatabase).
 */
const SETUPS: readonly { readonly name: string; readonly options: PostgresTestDatabaseOptions }[] = [
  { name: 'without bounds', options: {} },
  { name: 'with the statement bounds', options: { timeouts: TIMEOUTS } },
  { name: 'with the statement bounds and prepared statements', options: { timeouts: TIMEOUTS, preparedStatements: true } },
];

for (const { name, options } of SETUPS) {
  describe(`Statements deferred to the unit of work's next message (PostgreSQL, ${name})`, () => {
    const database = usePostgresTestDatabase({ ...options, poolMax: 1 });
    let db: RecordingDatabase;
    const table = `deferred_statements_${process.pid}`;
    const bounded = options.timeouts !== undefined;
    const prepared = options.preparedStatements === true;

    before(async () => {
      db = new RecordingDatabase({
        url: database().businessUrl, poolMax: 1, preparedStatements: prepared, ...(options.timeouts === undefined ? {} : { timeouts: options.timeouts }),
      });
      await executeInlined({ db, transaction: undefined }, `create table ${table} (id int primary key, note text)`);
    });
    after(() => db.close());

    const insert = (id: number, note: string): [string, unknown[]] => [`insert into ${table} (id, note) values (?, ?)`, [id, note]];
    /** The ids committed in [from, to), read on a connection of its own, outside the pool of one. */
    const ids = async (from: number, to: number) => {
      const outside = new pg.Client({ connectionString: database().businessUrl });
      await outside.connect();
      try {
        const { rows } = await outside.query<{ id: number }>(`select id from ${table} where id >= $1 and id < $2 order by id`, [from, to]);
        return rows.map((row) => row.id);
      } finally {
        await outside.end();
      }
    };
    const inUnitOfWork = <T>(work: () => Promise<T>) => new PgUnitOfWork(db).run(nextId('co'), 'write', work);
    /** The server process of the caller's unit of work's connection, and the statement timeout in force in its transaction. */
    const backend = async () => {
      const [row] = await withSession(db, (session) =>
        executeInlined<{ pid: number; timeout: string }>(session, "select pg_backend_pid() as pid, current_setting('statement_timeout') as timeout"),
      );
      return row as { pid: number; timeout: string };
    };

    it('sends them in the message of the COMMIT, in front of it: no round trip of their own, committed with the rest', async () => {
      let messages: string[] = [];
      await inUnitOfWork(async () => {
        messages = db.watch();
        await withSession(db, (session) => executeInlinedLater(session, [insert(50, 'first'), insert(51, "it's ? second")]));
        expect(messages, 'nothing sent yet').to.deep.equal([]);
        expect(await ids(50, 60), 'nor committed').to.deep.equal([]);
      });
      expect(messages).to.deep.equal([
        `insert into ${table} (id, note) values (50, 'first');\ninsert into ${table} (id, note) values (51, 'it''s ? second');\ncommit;`,
      ]);
      expect(await ids(50, 60)).to.deep.equal([50, 51]);
    });

    it('sends them in front of the next statement, which sees them and gets its own answer; before a bound or prepared one, in a message of their own', async () => {
      let messages: string[] = [];
      const timeouts = await inUnitOfWork(async () => {
        messages = db.watch();
        await withSession(db, (session) => executeInlinedLater(session, [insert(60, 'deferred')]));
        const rows = await withSession(db, (session) => executeReusable<{ n: number }>(session, `select count(*)::int as n from ${table} where id >= ? and id < ?`, [60, 70]));
        expect(rows, 'the read\'s own answer, after the insert').to.deep.equal([{ n: 1 }]);
        await withSession(db, (session) => executeInlinedLater(session, [insert(61, 'deferred too')]));
        // Bound: it fails unless the deferred row is there before it.
        await withSession(db, (session) => executeBound(session, `insert into ${table} (id, note) select id + 1, ? from ${table} where id = ?`, ['bound', 61]));
        return (await backend()).timeout;
      });
      const read = prepared
        ? [`insert into ${table} (id, note) values (60, 'deferred');`, `select count(*)::int as n from ${table} where id >= $1 and id < $2`]
        : [`insert into ${table} (id, note) values (60, 'deferred');\nselect count(*)::int as n from ${table} where id >= 60 and id < 70;`];
      expect(messages.slice(0, -2)).to.deep.equal([
        ...read,
        `insert into ${table} (id, note) values (61, 'deferred too');`,
        `insert into ${table} (id, note) select id + 1, $1 from ${table} where id = $2`,
      ]);
      expect(messages.at(-1)).to.equal('commit');
      expect(await ids(60, 70)).to.deep.equal([60, 61, 62]);
      expect(timeouts, 'the transaction\'s bounds in force after them').to.equal(bounded ? '4s' : '0');
    });

    it('fails the unit of work at its COMMIT when one fails there: nothing committed, rolled back, the connection kept with its bounds', async () => {
      let before = 0;
      let messages: string[] = [];
      const failure = await rejectionOf(
        inUnitOfWork(async () => {
          before = (await backend()).pid;
          await withSession(db, (session) => executeInlined(session, ...insert(70, 'sent')));
          messages = db.watch();
          await withSession(db, (session) => executeInlinedLater(session, [insert(71, 'deferred'), insert(70, 'again')]));
        }),
      );
      expect((failure as { code?: string }).code, 'the deferred insert\'s duplicate key').to.equal('23505');
      expect(messages.at(-1), 'rolled back after the failed message').to.equal('rollback');
      expect(await ids(70, 80)).to.deep.equal([]);
      const after = await inUnitOfWork(backend);
      expect(after.pid, 'the same session, rolled back, not discarded').to.equal(before);
      expect(after.timeout, 'its next transaction bounded as ever').to.equal(bounded ? '4s' : '0');
    });

    it('fails the statement they went in front of when one fails there, and with it the unit of work, though the work went on', async () => {
      const failure = await rejectionOf(
        inUnitOfWork(async () => {
          await withSession(db, (session) => executeInlined(session, ...insert(80, 'sent')));
          await withSession(db, (session) => executeInlinedLater(session, [insert(80, 'again')]));
          const read = await rejectionOf(withSession(db, (session) => executeInlined(session, `select count(*) from ${table}`)));
          expect((read as { code?: string }).code, 'the read fails with the deferred insert\'s error').to.equal('23505');
        }),
      );
      expect((failure as { code?: string }).code).to.equal('23505');
      expect(await ids(80, 90)).to.deep.equal([]);
    });

    it('fails with the error of a call the work left running, not with the deferred statements\' "transaction is aborted"', async () => {
      const outcome = await rejectionOf(
        inUnitOfWork(async () => {
          const session = await withSession(db, async (own) => own);
          await withSession(db, (own) => executeInlined(own, ...insert(90, 'sent')));
          // Not awaited (a bug of the work): sent now, it fails once the work has returned, before the COMMIT's message is read.
          withSession(db, (own) => executeInlined(own, 'select pg_sleep(0.2); select 1 / 0')).catch(() => undefined);
          await new Promise((resolve) => setImmediate(resolve));
          // Deferred while that call runs (straight on the unit of work's session, not behind it): it goes with the COMMIT.
          await executeInlinedLater(session, [insert(91, 'deferred')]);
        }),
      );
      expect((outcome as { code?: string }).code, 'the failure of the call, division by zero').to.equal('22012');
      expect(await ids(90, 100)).to.deep.equal([]);
    });

    it('never sends those of a unit of work whose work failed; outside a unit of work, sends them at once', async () => {
      let messages: string[] = [];
      const failure = await rejectionOf(
        inUnitOfWork(async () => {
          messages = db.watch();
          await withSession(db, (session) => executeInlinedLater(session, [insert(100, 'never')]));
          throw new Error('the work failed');
        }),
      );
      expect((failure as Error).message).to.equal('the work failed');
      expect(messages).to.deep.equal(['rollback']);
      await executeInlinedLater({ db, transaction: undefined }, [insert(101, 'alone'), insert(102, 'alone too')]);
      expect(await ids(100, 110)).to.deep.equal([101, 102]);
    });
  });
}
