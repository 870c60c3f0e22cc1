import { expect } from 'chai';
import type pg from 'pg';
import { PgDatabase } from '../../../adapters/persistence/postgres/pg-database.js';
import { executeInlined, executeInlinedLater } from '../../../adapters/persistence/postgres/pg-statements.js';
import { inOwnTransaction } from '../../../adapters/persistence/postgres/pg-transaction.js';
import { withOwnSession } from '../../../adapters/persistence/postgres/transaction-scope.js';

const TIMEOUTS = { statementMs: 500, connectMs: 1_000, acquireMs: 1_000, idleInTransactionMs: 1_000 };
const BOUNDS = 'set local statement_timeout = 500; set local idle_in_transaction_session_timeout = 1000';
const BEGIN = 'begin isolation level read committed';

/**
 * A lent connection that answers as a server would, without one: `failing` names the statements it refuses, and a
 * statement after a refused one in the same transaction fails as "aborted" until its ROLLBACK; `timingOut` names those
 * whose answer never comes (node-postgres's query_timeout error). It writes down every
 * message and how it was given back (release with an error: destroyed).
 */
function scriptedConnection(failing: RegExp, timingOut: RegExp) {
  const sent: string[] = [];
  const released: (Error | undefined)[] = [];
  let aborted = false;
  const client = {
    query(config: pg.QueryConfig) {
      sent.push(config.text);
      for (const statement of config.text.split(/;\s*/).filter((s) => s !== '')) {
        if (timingOut.test(statement)) return Promise.reject(new Error('Query read timeout'));
        if (failing.test(statement)) {
          aborted = true;
          return Promise.reject(new Error(`refused: ${statement}`));
        }
        if (/^rollback$/.test(statement)) aborted = false;
        else if (aborted) return Promise.reject(new Error('current transaction is aborted'));
      }
      const command = /(?:^|;\s*)(\w+)[^;]*;?\s*$/.exec(config.text)?.[1]?.toUpperCase() ?? '';
      return Promise.resolve({ command, rowCount: 0, oid: 0, fields: [], rows: [] });
    },
    release(error?: Error) {
      released.push(error);
    },
  };
  return { client: client as unknown as pg.PoolClient, sent, released };
}

/** PgDatabase lending the scripted connection: its own query, markBroken and release are the ones under test. */
class ScriptedDatabase extends PgDatabase {
  constructor(private readonly connection: pg.PoolClient) {
    super({ url: 'postgres://nobody@127.0.0.1:1/none', timeouts: TIMEOUTS });
  }

  override connect(): Promise<pg.PoolClient> {
    return Promise.resolve(this.connection);
  }
}

function setUp(failing = /^$/, timingOut = /^$/) {
  const scripted = scriptedConnection(failing, timingOut);
  return { ...scripted, db: new ScriptedDatabase(scripted.client) };
}

const failureOf = (promise: Promise<unknown>) => promise.then(() => undefined, (error: Error) => error);

describe('What a transaction and an autocommit statement send, and when a connection is destroyed (no server)', () => {
  it('sends the BEGIN and the bounds in the message of the first statement, then each statement alone, then the COMMIT', async () => {
    const { db, sent, released } = setUp();
    await inOwnTransaction(db, async (session) => {
      await executeInlined(session, 'select ?', [1]);
      await executeInlined(session, 'select ?', [2]);
    });
    expect(sent).to.deep.equal([`${BEGIN};\n${BOUNDS};\nselect 1;`, 'select 2', 'commit']);
    expect(released).to.deep.equal([undefined]);
  });

  it('sends an autocommit statement behind the bounds, in one message, and gives the connection back', async () => {
    const { db, sent, released } = setUp();
    await withOwnSession(db, (session) => executeInlined(session, 'select ?', ['x']));
    expect(sent).to.deep.equal([`${BOUNDS};\nselect 'x';`]);
    expect(released).to.deep.equal([undefined]);
  });

  it('sends nothing for a transaction that sent and deferred nothing', async () => {
    const { db, sent, released } = setUp();
    await inOwnTransaction(db, async () => undefined);
    expect(sent).to.deep.equal([]);
    expect(released).to.deep.equal([undefined]);
  });

  it('after a failed first statement sends the ROLLBACK alone (an aborted transaction refuses a SET), and keeps the connection', async () => {
    const { db, sent, released } = setUp(/^select pg_advisory_xact_lock/);
    const failure = await failureOf(inOwnTransaction(db, (session) => executeInlined(session, 'select pg_advisory_xact_lock(1)')));
    expect(failure?.message).to.equal('refused: select pg_advisory_xact_lock(1)');
    expect(sent).to.deep.equal([`${BEGIN};\n${BOUNDS};\nselect pg_advisory_xact_lock(1);`, 'rollback']);
    expect(released).to.deep.equal([undefined]);
  });

  it('sends no ROLLBACK for work that failed before any statement went, and keeps the connection', async () => {
    const { db, sent, released } = setUp();
    const failure = await failureOf(inOwnTransaction(db, async () => {
      throw new Error('the work failed');
    }));
    expect(failure?.message).to.equal('the work failed');
    expect(sent).to.deep.equal([]);
    expect(released).to.deep.equal([undefined]);
  });

  it('destroys the connection whose COMMIT alone failed: where its session is, nothing says', async () => {
    const { db, sent, released } = setUp(/^commit$/);
    const failure = await failureOf(inOwnTransaction(db, (session) => executeInlined(session, 'select 1')));
    expect(failure?.message).to.equal('refused: commit');
    expect(sent).to.deep.equal([`${BEGIN};\n${BOUNDS};\nselect 1;`, 'commit']);
    expect(released).to.have.length(1);
    expect(released[0]?.message).to.equal('refused: commit');
  });

  it('after deferred statements failed in the COMMIT\'s message sends the ROLLBACK alone and keeps the connection; the next transaction is bounded again', async () => {
    const { db, sent, released } = setUp(/^insert/);
    const failure = await failureOf(
      inOwnTransaction(db, async (session) => {
        await executeInlined(session, 'select 1');
        await executeInlinedLater(session, [['insert into t values (?)', [1]]]);
      }),
    );
    expect(failure?.message).to.equal('refused: insert into t values (1)');
    expect(sent).to.deep.equal([`${BEGIN};\n${BOUNDS};\nselect 1;`, 'insert into t values (1);\ncommit;', 'rollback']);
    expect(released).to.deep.equal([undefined]);
    await inOwnTransaction(db, (session) => executeInlined(session, 'select 2'));
    expect(sent.slice(3)).to.deep.equal([`${BEGIN};\n${BOUNDS};\nselect 2;`, 'commit']);
  });

  it('destroys the connection whose ROLLBACK failed too', async () => {
    const { db, released } = setUp(/^(select 1|rollback)$/);
    const failure = await failureOf(inOwnTransaction(db, (session) => executeInlined(session, 'select 1')));
    expect(failure?.message, 'the statement\'s failure, not the ROLLBACK\'s').to.equal('refused: select 1');
    expect(released).to.have.length(1);
    expect(released[0]?.message).to.equal('refused: rollback');
  });

  it('destroys the connection of a statement that outlived the client\'s read timeout, and sends no ROLLBACK behind it', async () => {
    const { db, sent, released } = setUp(/^$/, /^select pg_sleep/);
    const failure = await failureOf(inOwnTransaction(db, (session) => executeInlined(session, 'select pg_sleep(10)')));
    expect(failure?.name).to.equal('StoreUnavailableError');
    expect(sent).to.deep.equal([`${BEGIN};\n${BOUNDS};\nselect pg_sleep(10);`]);
    expect(released).to.have.length(1);
    expect(released[0]?.message).to.equal('Query read timeout');
  });
});
