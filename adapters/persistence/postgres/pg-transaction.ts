import type pg from 'pg';
import type { PgDatabase } from './pg-database.js';
import { inOneMessage, type PgSession, type PgTransaction } from './pg-statements.js';
import { storeCall } from './store-errors.js';

/** A transaction's state as runTransaction keeps it. */
export interface RunningTransaction extends PgTransaction {
  /**
   * The first statement that failed in it. PostgreSQL aborts a transaction at a failed statement and answers its
   * COMMIT with ROLLBACK, without an error: work that caught such a failure and went on must not look committed.
   */
  failed?: { readonly error: unknown };
}

/** The isolation level every transaction runs at; its text goes in front of the first statement (ADR 20). */
const BEGIN = 'begin isolation level read committed';
const COMMIT = 'commit';
const ROLLBACK = 'rollback';

/**
 * One READ COMMITTED transaction on a lent connection. The BEGIN and the bounds (SET LOCAL, PgDatabase.bounds) are
 * not sent alone: they go in front of the transaction's first statement, in its message, which saves a round trip
 * (ADR 20). Statements the work deferred go in front of the COMMIT. A COMMIT or ROLLBACK that fails leaves the
 * session in an unknown state: the connection is destroyed rather than lent again. A failure to reach the database
 * comes out as StoreUnavailableError (store-errors.ts).
 */
export function runTransaction<T, R extends RunningTransaction>(
  db: PgDatabase,
  fields: (client: pg.PoolClient, deferred: string[]) => R,
  work: (transaction: R) => Promise<T>,
  beforeCommit?: (transaction: R) => Promise<void>,
): Promise<T> {
  return storeCall(async () => {
    const client = await db.connect();
    const transaction = fields(client, [BEGIN, ...(db.bounds === '' ? [] : [db.bounds])]);
    try {
      const result = await work(transaction);
      await beforeCommit?.(transaction);
      if (transaction.failed !== undefined) throw transaction.failed.error;
      await commit(db, transaction);
      return result;
    } catch (error) {
      if (!transaction.ended) {
        transaction.ended = true;
        // A connection already marked broken (a read timeout) would queue the ROLLBACK behind the lost statement.
        if (!db.isBroken(client) && transaction.deferred[0] !== BEGIN) {
          await db.query(client, { text: ROLLBACK }).catch((rollbackError: unknown) => db.markBroken(client, rollbackError as Error));
        }
      }
      throw error;
    } finally {
      db.release(client);
    }
  });
}

async function commit(db: PgDatabase, transaction: RunningTransaction): Promise<void> {
  const { client } = transaction;
  transaction.ended = true;
  const deferred = transaction.deferred.splice(0);
  // Nothing was sent nor deferred: only the BEGIN and its bounds wait, and there is nothing to commit.
  if (deferred[0] === BEGIN && deferred.length === (db.bounds === '' ? 1 : 2)) return;
  let answer: pg.QueryResult | pg.QueryResult[];
  try {
    answer = (await db.query(client, { text: deferred.length === 0 ? COMMIT : inOneMessage([...deferred, COMMIT]) })) as typeof answer;
  } catch (error) {
    // A COMMIT alone that failed may have left the session anywhere (a broken line). With deferred statements in
    // front, one of them most likely failed and left the transaction aborted, its COMMIT unrun: a ROLLBACK ends it,
    // and only a ROLLBACK that fails too destroys the connection.
    if (deferred.length === 0) db.markBroken(client, error as Error);
    else await db.query(client, { text: ROLLBACK }).catch((rollbackError: unknown) => db.markBroken(client, rollbackError as Error));
    // A call the work left running that failed meanwhile aborted the transaction first: its error, not "aborted".
    throw transaction.failed?.error ?? error;
  }
  // PostgreSQL answers the COMMIT of an aborted transaction with ROLLBACK and no error: a call that the work left
  // running failed after the check. Nothing was stored, and the caller must not be told otherwise.
  if ((Array.isArray(answer) ? answer.at(-1) : answer)?.command === 'ROLLBACK') {
    throw transaction.failed?.error ?? new Error('The transaction was rolled back at its COMMIT: a statement in it had failed.');
  }
}

/** Work whose statements go in one transaction of its own (a registry write, a bulk insert outside a unit of work). */
export function inOwnTransaction<T>(db: PgDatabase, work: (session: PgSession) => Promise<T>): Promise<T> {
  return runTransaction(db, (client, deferred): RunningTransaction => ({ client, deferred, ended: false }), (transaction) => work({ db, transaction }));
}
