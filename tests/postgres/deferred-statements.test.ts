import { expect } from 'chai';
import pg from 'pg';
import { executeBoundDirect, executeInlined, executeInlinedLater, executeReusable } from '../../adapters/persistence/postgres/direct-statement.js';
import type { PostgresTimeouts } from '../../adapters/persistence/postgres/mikro-orm-options.js';
import { PgUnitOfWork } from '../../adapters/persistence/postgres/pg-unit-of-work.js';
import { activeTransaction, withEntityManager, type ActiveTransaction } from '../../adapters/persistence/postgres/transaction-scope.js';
import { nextId } from '../support/builders.js';
import { rejectionOf } from '../support/catching.js';
import { usePostgresTestDatabase, type PostgresTestDatabaseOptions } from '../support/postgres-test-database.js';

const TIMEOUTS: PostgresTimeouts = { statementMs: 4_000, connectMs: 5_000, acquireMs: 5_000, idleInTransactionMs: 9_000 };

/**
 * ADR 23: statements deferred to the unit of work's next message (executeInlinedLater), on a pool of one connection
 * (so that the next unit of work shows whether the connection was kept), without the pool's hooks, with the
 * statement bounds the service always sets (transaction-timeouts.ts, read-timeout-guard.ts), and with prepared
 * statements as well (ADR 22), whose named statements go in messages of their own.
 */
const SETUPS: readonly { readonly name: string; readonly options: PostgresTestDatabaseOptions }[] = [
  { name: 'without the pool\'s hooks', options: {} },
  { name: 'with the statement bounds', options: { timeouts: TIMEOUTS } },
  { name: 'with the statement bounds and prepared statements', options: { timeouts: TIMEOUTS, preparedStatements: true } },
];

for (const { name, options } of SETUPS) {
  describe(`Statements deferred to the unit of work's next message (PostgreSQL, ${name})`, () => {
    const database = usePostgresTestDatabase({ ...options, poolMax: 1 });
    const orm = () => database().databases.business;
    const table = `deferred_statements_${process.pid}`;
    const bounded = options.timeouts !== undefined;
    const prepared = options.preparedStatements === true;

    before(async () => {
      await orm().em.getConnection().execute(`create table ${table} (id int primary key, note text)`);
    });

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
    const inUnitOfWork = <T>(work: () => Promise<T>) => new PgUnitOfWork(orm()).run(nextId('co'), 'write', work);
    /** The server process of the caller's unit of work's connection, and the statement timeout in force in its transaction. */
    const session = async () => {
      const [row] = await withEntityManager(orm(), (em) =>
        executeInlined<{ pid: number; timeout: string }>(em, "select pg_backend_pid() as pid, current_setting('statement_timeout') as timeout"),
      );
      return row as { pid: number; timeout: string };
    };

    it('sends them in the message of the COMMIT, in front of it: no round trip of their own, committed with the rest', async () => {
      let messages: string[] = [];
      await inUnitOfWork(async () => {
        messages = watchMessages();
        await withEntityManager(orm(), (em) => executeInlinedLater(em, [insert(50, 'first'), insert(51, "it's ? second")]));
        expect(messages, 'nothing sent yet').to.deep.equal([]);
        expect(await ids(50, 60), 'nor committed').to.deep.equal([]);
      });
      expect(messages).to.deep.equal([
        `insert into ${table} (id, note) values (50, 'first');\ninsert into ${table} (id, note) values (51, 'it''s ? second');\nCOMMIT;`,
      ]);
      expect(await ids(50, 60)).to.deep.equal([50, 51]);
    });

    it('sends them in front of the next statement, which sees them and gets its own answer; before a bound or prepared one, in a message of their own', async () => {
      let messages: string[] = [];
      const timeouts = await inUnitOfWork(async () => {
        messages = watchMessages();
        await withEntityManager(orm(), (em) => executeInlinedLater(em, [insert(60, 'deferred')]));
        const rows = await withEntityManager(orm(), (em) => executeReusable<{ n: number }>(em, `select count(*)::int as n from ${table} where id >= ? and id < ?`, [60, 70]));
        expect(rows, 'the read\'s own answer, after the insert').to.deep.equal([{ n: 1 }]);
        await withEntityManager(orm(), (em) => executeInlinedLater(em, [insert(61, 'deferred too')]));
        // Bound: it fails unless the deferred row is there before it.
        await withEntityManager(orm(), (em) => executeBoundDirect(em, `insert into ${table} (id, note) select id + 1, ? from ${table} where id = ?`, ['bound', 61]));
        return (await session()).timeout;
      });
      const read = prepared
        ? [`insert into ${table} (id, note) values (60, 'deferred');`, `select count(*)::int as n from ${table} where id >= $1 and id < $2`]
        : [`insert into ${table} (id, note) values (60, 'deferred');\nselect count(*)::int as n from ${table} where id >= 60 and id < 70;`];
      expect(messages.slice(0, -2)).to.deep.equal([
        ...read,
        `insert into ${table} (id, note) values (61, 'deferred too');`,
        `insert into ${table} (id, note) select id + 1, $1 from ${table} where id = $2`,
      ]);
      expect(messages.at(-1)).to.equal('COMMIT;');
      expect(await ids(60, 70)).to.deep.equal([60, 61, 62]);
      expect(timeouts, 'the transaction\'s bounds in force after them').to.equal(bounded ? '4s' : '0');
    });

    it('fails the unit of work at its COMMIT when one fails there: nothing committed, rolled back, the connection kept with its bounds', async () => {
      let before = 0;
      let messages: string[] = [];
      const failure = await rejectionOf(
        inUnitOfWork(async () => {
          before = (await session()).pid;
          await withEntityManager(orm(), (em) => executeInlined(em, ...insert(70, 'sent')));
          messages = watchMessages();
          await withEntityManager(orm(), (em) => executeInlinedLater(em, [insert(71, 'deferred'), insert(70, 'again')]));
        }),
      );
      expect((failure as { code?: string }).code, 'the deferred insert\'s duplicate key').to.equal('23505');
      expect(messages.at(-1), 'rolled back after the failed message').to.equal('ROLLBACK');
      expect(await ids(70, 80)).to.deep.equal([]);
      const after = await inUnitOfWork(session);
      expect(after.pid, 'the same session, rolled back, not discarded').to.equal(before);
      expect(after.timeout, 'its next transaction bounded as ever').to.equal(bounded ? '4s' : '0');
    });

    it('fails the statement they went in front of when one fails there, and with it the unit of work, though the work went on', async () => {
      const failure = await rejectionOf(
        inUnitOfWork(async () => {
          await withEntityManager(orm(), (em) => executeInlined(em, ...insert(80, 'sent')));
          await withEntityManager(orm(), (em) => executeInlinedLater(em, [insert(80, 'again')]));
          const read = await rejectionOf(withEntityManager(orm(), (em) => executeInlined(em, `select count(*) from ${table}`)));
          expect((read as { code?: string }).code, 'the read fails with the deferred insert\'s error').to.equal('23505');
        }),
      );
      expect((failure as { code?: string }).code).to.equal('23505');
      expect(await ids(80, 90)).to.deep.equal([]);
    });

    it('fails with the error of a call the work left running, not with the deferred statements\' "transaction is aborted"', async () => {
      const outcome = await rejectionOf(
        inUnitOfWork(async () => {
          const em = await withEntityManager(orm(), async (own) => own);
          await withEntityManager(orm(), (own) => executeInlined(own, ...insert(90, 'sent')));
          // Not awaited (a bug of the work): sent now, it fails once the work has returned, before the COMMIT's message is read.
          withEntityManager(orm(), (own) => executeInlined(own, 'select pg_sleep(0.2); select 1 / 0')).catch(() => undefined);
          await new Promise((resolve) => setImmediate(resolve));
          // Deferred while that call runs (straight on the unit of work's EntityManager, not behind it): it goes with the COMMIT.
          await executeInlinedLater(em, [insert(91, 'deferred')]);
        }),
      );
      expect((outcome as { code?: string }).code, 'the failure of the call, division by zero').to.equal('22012');
      expect(await ids(90, 100)).to.deep.equal([]);
    });

    it('never sends those of a unit of work whose work failed; outside a unit of work, sends them at once', async () => {
      let messages: string[] = [];
      const failure = await rejectionOf(
        inUnitOfWork(async () => {
          messages = watchMessages();
          await withEntityManager(orm(), (em) => executeInlinedLater(em, [insert(100, 'never')]));
          throw new Error('the work failed');
        }),
      );
      expect((failure as Error).message).to.equal('the work failed');
      expect(messages).to.deep.equal(['ROLLBACK']);
      await executeInlinedLater(orm().em.fork(), [insert(101, 'alone'), insert(102, 'alone too')]);
      expect(await ids(100, 110)).to.deep.equal([101, 102]);
    });

    const unwatch: (() => void)[] = [];
    afterEach(() => unwatch.splice(0).forEach((restore) => restore()));

    /**
     * The text of every message sent on the caller's unit of work's connection from now on, as the direct
     * statements hand it to the connection (the pool's hooks see it after, and may put the bounds in front), until
     * the test ends.
     */
    function watchMessages(): string[] {
      const connection = (activeTransaction(orm()) as ActiveTransaction).connection;
      const own = Object.getOwnPropertyDescriptor(connection, 'query');
      const query = connection.query as (...args: unknown[]) => unknown;
      const messages: string[] = [];
      Object.defineProperty(connection, 'query', {
        configurable: true,
        writable: true,
        value: (...args: unknown[]) => {
          messages.push((args[0] as { text: string }).text);
          return query.apply(connection, args);
        },
      });
      unwatch.push(() => (own === undefined ? delete (connection as { query?: unknown }).query : Object.defineProperty(connection, 'query', own)));
      return messages;
    }
  });
}
