import { EventEmitter } from 'node:events';
import { expect } from 'chai';
import type pg from 'pg';
import { boundEveryTransaction } from '../../../adapters/persistence/postgres/transaction-timeouts.js';

type Callback = (error: Error | null, result: unknown) => void;

/**
 * A pg client stand-in that answers as the server would, in pg's order: a statement that fails is called back
 * at its ErrorResponse, before the ReadyForQuery that gives the server's new state; one that succeeds at
 * its ReadyForQuery. `failing` names the statements the server refuses.
 */
function scriptedClient(failing: RegExp) {
  const sent: string[] = [];
  const wire = new EventEmitter();
  let state: 'I' | 'T' | 'E' = 'I';
  const client = {
    connection: wire,
    // pg takes a config or its text alone.
    query(given: { text: string } | string, callback: Callback) {
      const config = typeof given === 'string' ? { text: given } : given;
      sent.push(config.text);
      setImmediate(() => {
        for (const statement of config.text.split('; ')) {
          if (state === 'E' && !/^rollback/i.test(statement)) return fail(new Error('current transaction is aborted'));
          if (failing.test(statement)) return fail(new Error('canceling statement due to statement timeout'));
          if (/^begin/i.test(statement)) state = 'T';
          if (/^(commit|rollback);?$/i.test(statement)) state = 'I';
        }
        wire.emit('readyForQuery', { status: state });
        callback(null, { command: 'SELECT', rows: [] });
      });
      const fail = (error: Error) => {
        // A COMMIT that fails ends the transaction (PostgreSQL rolls it back); any other failure aborts it.
        if (/^commit/i.test(config.text)) state = 'I';
        else if (state === 'T' || /begin/i.test(config.text)) state = 'E';
        callback(error, undefined);
        setImmediate(() => wire.emit('readyForQuery', { status: state }));
      };
    },
  };
  const query = (text: string) =>
    new Promise<unknown>((done, refuse) => (client.query as unknown as (c: { text: string }, cb: Callback) => void)({ text }, (error, result) => (error ? refuse(error) : done(result))));
  return { client: client as unknown as pg.Client, sent, query, state: () => state };
}

describe('boundEveryTransaction (SET LOCAL bounds on every transaction of a connection)', () => {
  const bounds = { statementMs: 500, idleInTransactionMs: 1_000 };
  const prefix = 'set local statement_timeout = 500; set local idle_in_transaction_session_timeout = 1000';

  it("sends a transaction's BEGIN in the message of its first statement, behind the bounds", async () => {
    const { client, sent, query } = scriptedClient(/^$/);
    boundEveryTransaction(client, bounds);
    expect(await query('BEGIN;')).to.include({ command: 'BEGIN' });
    await query('select 1');
    await query('COMMIT;');
    expect(sent).to.deep.equal([`${prefix}; BEGIN; select 1`, 'COMMIT;']);
  });

  it('sends the ROLLBACK after a failed first statement as it is, though pg calls back before the server says it is in a failed transaction', async () => {
    const { client, sent, query, state } = scriptedClient(/^select pg_advisory_xact_lock/);
    boundEveryTransaction(client, bounds);
    await query('BEGIN;');
    const error = await query('select pg_advisory_xact_lock(1)').then(() => null, (refused: Error) => refused);
    expect(error?.message).to.match(/statement timeout/);
    await query('ROLLBACK;');
    expect(sent.at(-1)).to.equal('ROLLBACK;');
    expect(state()).to.equal('I');
    await query('select 2');
    expect(sent.at(-1)).to.equal(`${prefix}; select 2`);
  });

  it('decides the call after a failed COMMIT as outside a transaction, though pg calls back before the server says so', async () => {
    const { client, sent, query, state } = scriptedClient(/^COMMIT/);
    boundEveryTransaction(client, bounds);
    await query('BEGIN;');
    await query('select 1');
    const error = await query('COMMIT;').then(() => null, (refused: Error) => refused);
    expect(error?.message).to.match(/statement timeout/);
    expect(state(), 'the server has not said so yet when the next unit of work begins').to.equal('I');
    // The next unit of work on this connection, begun at once.
    await query('BEGIN;');
    await query('select 2');
    expect(sent.at(-1), 'its BEGIN deferred, behind the bounds').to.equal(`${prefix}; BEGIN; select 2`);
  });

  it('takes a message of statements ending in COMMIT (deferred statements, ADR 23) as inside the transaction: the ROLLBACK after its failure goes as it is', async () => {
    const { client, sent, query, state } = scriptedClient(/^insert/);
    boundEveryTransaction(client, bounds);
    await query('BEGIN;');
    await query('select 1');
    const error = await query('insert into t values (1);\nCOMMIT;').then(() => null, (refused: Error) => refused);
    expect(error?.message).to.match(/statement timeout/);
    await query('ROLLBACK');
    expect(sent.at(-1), 'not behind the bounds, which an aborted transaction would refuse').to.equal('ROLLBACK');
    expect(state()).to.equal('I');
    await query('select 2');
    expect(sent.at(-1)).to.equal(`${prefix}; select 2`);
  });

  it('takes calls made at once one at a time, in order, each decided on the state the server reported after the one before', async () => {
    const { client, sent, query } = scriptedClient(/^$/);
    boundEveryTransaction(client, bounds);
    const answers = await Promise.all([query('BEGIN;'), query('select 1'), query('COMMIT;'), query('select 2')]);
    expect(answers).to.have.length(4);
    expect(sent).to.deep.equal([`${prefix}; BEGIN; select 1`, 'COMMIT;', `${prefix}; select 2`]);
  });

  it('keeps a ROLLBACK TO SAVEPOINT inside the transaction', async () => {
    const { client, sent, query } = scriptedClient(/^$/);
    boundEveryTransaction(client, bounds);
    await query('BEGIN;');
    await query('select 1');
    await query('ROLLBACK TO SAVEPOINT trx2');
    await query('select 2');
    expect(sent.slice(-2)).to.deep.equal(['ROLLBACK TO SAVEPOINT trx2', 'select 2']);
  });
});
