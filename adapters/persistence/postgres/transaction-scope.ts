import { AsyncLocalStorage } from 'node:async_hooks';
import type { LockMode } from '../../../application/ports/unit-of-work.port.js';
import type { PgDatabase } from './pg-database.js';
import type { PgSession } from './pg-statements.js';
import type { RunningTransaction } from './pg-transaction.js';
import { storeCall, translateStoreError } from './store-errors.js';

/**
 * The transaction of the unit of work running in the current async context (ADR 20): the repositories' calls on the
 * same database made in this context go on its connection (withSession), so use cases hand them nothing.
 */
export interface UnitTransaction extends RunningTransaction {
  readonly db: PgDatabase;
  readonly companyId: string;
  readonly mode: LockMode;
  /** The database's clock read after the company's lock; set by the unit of work before its work runs. */
  now: Date;
  /** Repository calls on the transaction's one connection made and not finished, the running one included. */
  calls: number;
  /** The last of them: a call made while any runs starts when it has finished. */
  last: Promise<unknown>;
  /**
   * Rows a repository read ahead for the rest of the transaction (CandidateRepository.preloadByIds), by key;
   * null for a row known to be absent. Only in a `write`, which no other transaction of the company runs beside.
   */
  readonly preloaded: Map<string, unknown>;
}

const active = new AsyncLocalStorage<UnitTransaction>();
/** Set inside a repository call that holds its transaction's line, so that its own nested calls do not queue behind it. */
const holding = new AsyncLocalStorage<UnitTransaction>();

export function runWithTransaction<T>(transaction: UnitTransaction, work: () => Promise<T>): Promise<T> {
  return active.run(transaction, work);
}

/** The unit of work's transaction on this database, if the caller runs inside one. */
export function activeTransaction(db: PgDatabase): UnitTransaction | undefined {
  const transaction = active.getStore();
  return transaction !== undefined && transaction.db === db ? transaction : undefined;
}

/**
 * Runs one repository call: inside `UnitOfWork.run` on the same database, on the unit of work's transaction;
 * otherwise in autocommit (withOwnSession). A failure to reach the database comes out as StoreUnavailableError.
 *
 * A transaction has one connection, so calls that a use case makes concurrently inside it (Promise.all) could only
 * interleave on that connection: they are queued and run one by one.
 */
export function withSession<T>(db: PgDatabase, work: (session: PgSession) => Promise<T>): Promise<T> {
  const transaction = activeTransaction(db);
  if (transaction === undefined) return withOwnSession(db, work);
  if (transaction.ended) {
    return Promise.reject(new Error('A repository was called after its unit of work had ended; await every call inside the work.'));
  }
  const session: PgSession = { db, transaction };
  const inTransaction = async (counted: boolean): Promise<T> => {
    try {
      return await work(session);
    } catch (error) {
      const translated = translateStoreError(error);
      transaction.failed ??= { error: translated };
      throw translated;
    } finally {
      if (counted) transaction.calls -= 1;
    }
  };
  if (holding.getStore() === transaction) return inTransaction(false);
  const start = () => holding.run(transaction, inTransaction, true);
  // Counted before it starts: a call that fails at once has finished before start() returns.
  const queued = transaction.calls > 0;
  transaction.calls += 1;
  const call = queued ? transaction.last.then(start, start) : start();
  transaction.last = call;
  return call;
}

/** One call whose statements each run alone in autocommit, outside any unit of work, its failures translated as withSession's. */
export function withOwnSession<T>(db: PgDatabase, work: (session: PgSession) => Promise<T>): Promise<T> {
  return storeCall(() => work({ db, transaction: undefined }));
}
