import { AsyncLocalStorage } from 'node:async_hooks';
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type pg from 'pg';
import type { LockMode } from '../../../application/ports/unit-of-work.port.js';
import { storeCall, translateStoreError } from './store-errors.js';

/**
 * The transaction of the unit of work running in the current async context: a pooled pg connection on which the
 * unit of work sent BEGIN, and sends COMMIT or ROLLBACK (ADR 20). The repositories' statements made with `em`
 * in this context go on `connection` (direct-statement.ts); `em` itself is no transaction of MikroORM's and
 * must not be used for entity operations, which would run outside the transaction.
 */
export interface ActiveTransaction {
  readonly orm: MikroORM;
  readonly em: EntityManager;
  readonly connection: pg.Client;
  readonly companyId: string;
  readonly mode: LockMode;
  /** The database's clock read after the company's lock; set by the unit of work before its work runs. */
  now: Date;
  /** Set before the COMMIT or ROLLBACK is sent: from then on no statement of the unit of work goes on the connection. */
  ended: boolean;
  /** Repository calls on the transaction's one connection made and not finished, the running one included. */
  calls: number;
  /** The last of them: a call made while any runs starts when it has finished. */
  last: Promise<unknown>;
  /**
   * The first repository call that failed in it. PostgreSQL aborts a transaction at a failed statement and
   * answers its COMMIT with a ROLLBACK, without an error: a unit of work whose work caught such a failure and
   * went on must not look committed (MikroOrmUnitOfWork.run throws this instead of committing).
   */
  failed?: { readonly error: unknown };
  /**
   * Rows a repository read ahead for the rest of the transaction (CandidateRepository.preloadByIds), by key;
   * null for a row known to be absent. Only in a `write`, which no other transaction of the company runs beside.
   */
  readonly preloaded: Map<string, unknown>;
  /**
   * Statements sent with executeInlinedLater and not sent yet, one statement each, in order: they go in front of
   * the transaction's next statement, in its message, or of its COMMIT (direct-statement.ts).
   */
  readonly deferred: string[];
}

const active = new AsyncLocalStorage<ActiveTransaction>();
/** Set inside a repository call that holds its transaction's line, so that its own nested calls do not queue behind it. */
const holding = new AsyncLocalStorage<ActiveTransaction>();

export function runWithTransaction<T>(transaction: ActiveTransaction, work: () => Promise<T>): Promise<T> {
  return active.run(transaction, work);
}

/** The unit of work's transaction on this ORM, if the caller runs inside one. */
export function activeTransaction(orm: MikroORM): ActiveTransaction | undefined {
  const transaction = active.getStore();
  return transaction !== undefined && transaction.orm === orm ? transaction : undefined;
}

/** The unit of work's transaction whose statements `em` makes, if the caller runs inside it. */
export function transactionOf(em: EntityManager): ActiveTransaction | undefined {
  const transaction = active.getStore();
  return transaction !== undefined && transaction.em === em ? transaction : undefined;
}

/**
 * Runs one repository call with the right EntityManager: inside `UnitOfWork.run` on the same database,
 * the unit of work's, whose statements go on its transaction's connection; otherwise a fresh fork of its own
 * (autocommit). A failure to
 * reach the database comes out as StoreUnavailableError (store-errors.ts).
 *
 * A transaction has one connection, so calls that a use case makes concurrently inside it (Promise.all)
 * could only interleave on that connection, which pg deprecates: they are queued and run one by one.
 */
export function withEntityManager<T>(orm: MikroORM, work: (em: EntityManager) => Promise<T>): Promise<T> {
  const transaction = activeTransaction(orm);
  if (transaction === undefined) return withFreshEntityManager(orm, work);
  if (transaction.ended) {
    return Promise.reject(new Error('A repository was called after its unit of work had ended; await every call inside the work.'));
  }
  // One async function a call (a profile of the feed's consumer found the promises of each statement's layers).
  const inTransaction = async (counted: boolean): Promise<T> => {
    try {
      return await work(transaction.em);
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

/**
 * A new fork with an empty identity map and no transaction. Context resolution is off: MikroORM would
 * otherwise fork whatever transaction its own async context holds under the same name, possibly one of
 * another ORM instance (the registry's fork would then query the business database).
 */
export function freshEntityManager(orm: MikroORM): EntityManager {
  return orm.em.fork({ disableContextResolution: true });
}

/** One call on a fresh fork, outside any unit of work (the key registry's calls), its failures translated as withEntityManager's. */
export function withFreshEntityManager<T>(orm: MikroORM, work: (em: EntityManager) => Promise<T>): Promise<T> {
  return storeCall(() => work(freshEntityManager(orm)));
}
