import { expect } from 'chai';
import type { EntityManager, Knex } from '@mikro-orm/postgresql';
import { executeBoundDirect, executeInlined } from '../../adapters/persistence/postgres/direct-statement.js';
import { usePostgresTestDatabase } from '../support/postgres-test-database.js';
import { rejectionOf } from '../support/catching.js';

/** ADR 19: statements sent straight to the pg connection, in a unit of work's transaction or on a pooled connection. */
describe('Statements straight to the pg connection (PostgreSQL)', () => {
  const database = usePostgresTestDatabase();
  const orm = () => database().databases.business;
  const table = `direct_statement_${process.pid}`;

  // In the test database, which is dropped after the suite with it.
  before(async () => {
    await orm().em.getConnection().execute(`create table ${table} (id int primary key, note text)`);
  });

  it('runs in the transaction it is called in: it sees the transaction\'s own writes, and what the transaction undoes is gone', async () => {
    const failure = await rejectionOf(
      orm().em.fork().transactional(async (em) => {
        await executeInlined(em, `insert into ${table} (id, note) values (?, ?)`, [1, "it's ? here"]);
        const transaction = em.getTransactionContext<Knex.Transaction>() as Knex.Transaction;
        await executeBoundDirect(em, transaction, `insert into ${table} (id, note) values (?, ? || '\\?')`, [2, 'bound']);
        const rows = await executeInlined<{ id: number; note: string }>(em, `select id, note from ${table} order by id`);
        expect(rows).to.deep.equal([{ id: 1, note: "it's ? here" }, { id: 2, note: 'bound?' }]);
        throw new Error('undo');
      }),
    );
    expect((failure as Error).message).to.equal('undo');
    expect(await executeInlined(orm().em.fork(), `select id from ${table}`)).to.deep.equal([]);
  });

  it('refuses to run on the connection of a transaction that has ended, which may serve another unit of work by then', async () => {
    let ended: EntityManager | undefined;
    await orm().em.fork().transactional(async (em) => {
      ended = em;
    });
    const refused = await rejectionOf(executeInlined(ended as EntityManager, `insert into ${table} (id, note) values (3, 'late')`));
    expect((refused as Error).message).to.match(/already complete/);
    expect(await executeInlined(orm().em.fork(), `select id from ${table} where id = 3`)).to.deep.equal([]);
  });

  it('refuses an undefined value and a count of values that does not match the placeholders, before sending anything', async () => {
    await orm().em.fork().transactional(async (em) => {
      const transaction = em.getTransactionContext<Knex.Transaction>() as Knex.Transaction;
      const sql = `insert into ${table} (id, note) values (?, ?)`;
      expect(((await rejectionOf(executeBoundDirect(em, transaction, sql, [4, undefined]))) as Error).message).to.match(/Undefined binding/);
      expect(((await rejectionOf(executeBoundDirect(em, transaction, sql, [4]))) as Error).message).to.match(/Expected 2 bindings, saw 1/);
    });
    expect(await executeInlined(orm().em.fork(), `select id from ${table} where id = 4`)).to.deep.equal([]);
  });

  it('outside a transaction takes a pooled connection for each statement and gives it back, also when the statement fails', async () => {
    const em = orm().em.fork();
    const pool = (em.getKnex().client as { pool: { numUsed(): number; numFree(): number } }).pool;
    const answers = await Promise.all(Array.from({ length: 30 }, (_, n) => executeInlined<{ n: number }>(em, 'select ?::int as n', [n])));
    expect(answers.map(([row]) => row?.n)).to.deep.equal(Array.from({ length: 30 }, (_, n) => n));
    const failed = await rejectionOf(executeInlined(em, 'select * from a_table_that_is_not_there'));
    expect((failed as { code?: string }).code).to.equal('42P01');
    expect(pool.numUsed(), 'every connection given back').to.equal(0);
  });
});
