import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type pg from 'pg';
import type { Clock } from '../../../application/ports/clock.port.js';
import type { LockMode, TransactionScope, UnitOfWork } from '../../../application/ports/unit-of-work.port.js';
import { databaseNow, lockCompany, lockCompanyThenReadClock } from './company-lock.js';
import { discardConnection, inOneMessage, sendOn } from './direct-statement.js';
import { storeCall } from './store-errors.js';
import { activeTransaction, freshEntityManager, runWithTransaction, type ActiveTransaction } from './transaction-scope.js';
import { inChildSpan, lockAttributes } from '../../telemetry/spans.js';

export interface MikroOrmUnitOfWorkOptions {
  /**
   * Where `now` comes from. Default: the database server's clock, one clock for every app instance,
   * read after the lock, so a write that follows a read is always stamped later than that read's watermark.
   */
  readonly clock?: Clock;
  /** Test seam: awaited after a write's work succeeded and before COMMIT, with the company's lock still held. */
  readonly beforeCommit?: (transaction: { readonly companyId: string; readonly mode: LockMode; readonly now: Date }) => Promise<void>;
  /** Test seam: false leaves out the company lock, to show that sync then loses changes. Default true. */
  readonly companyLock?: boolean;
  /**
   * How long a company's completed read barrier serves later reads, in ms (default 100; 0: only reads
   * that arrive while it is in flight share it). Longer saves a round trip on more reads and makes their
   * watermarks that much older, which is safe (see `barrier`).
   */
  readonly barrierReuseMs?: number;
}

const DEFAULT_BARRIER_REUSE_MS = 100;

interface Barrier {
  readonly now: Promise<Date>;
  /** performance.now() when it completed; undefined while in flight. */
  completedAt?: number;
}

/**
 * Writes (`write`, `append`): one PostgreSQL transaction (READ COMMITTED) per unit of work, on a connection
 * of the pool (ADR 20), that takes the company's advisory lock and then the clock. Repositories find the
 * transaction through the async context (transaction-scope.ts), so use cases hand them nothing.
 *
 * Reads: no transaction. One autocommit statement takes the company's lock exclusively, which waits for
 * every write holding it, reads the clock and lets the lock go as it ends; then the work's statements run
 * in autocommit, each seeing every write committed before it, so every write committed before the clock.
 * A write whose change they miss took its lock after that statement, so its clock, and the change's
 * stamp, are later than the read's clock: the watermark (clock - 1 ms) is safe. Two round trips instead of
 * four (BEGIN, lock, page, COMMIT), and a read holds no lock while it reads, so appends need not wait for
 * reads. The barrier and the read cannot be one statement: a statement's snapshot is taken when it
 * starts, before the lock it waits for is granted, so it could miss a write yet read a clock after it.
 *
 * A database that cannot be reached, here or in a repository call inside, surfaces as StoreUnavailableError.
 */
export class MikroOrmUnitOfWork implements UnitOfWork {
  /** The latest barrier of each company: in flight, or completed not long ago. */
  private readonly barriers = new Map<string, Barrier>();
  /**
   * The EntityManager the repositories get inside this unit of work's transactions: its statements go on the
   * transaction's connection (direct-statement.ts finds the transaction by it); no entity operation runs on it.
   */
  private readonly em: EntityManager;

  constructor(
    private readonly orm: MikroORM,
    private readonly options: MikroOrmUnitOfWorkOptions = {},
  ) {
    this.em = refuseEntityOperations(freshEntityManager(orm));
  }

  async run<T>(companyId: string, mode: LockMode, work: (scope: TransactionScope) => Promise<T>): Promise<T> {
    const outer = activeTransaction(this.orm);
    if (outer !== undefined) return this.join(outer, companyId, mode, work);
    if (mode === 'read') return this.read(companyId, work);
    // The pool's acquire timeout, BEGIN, the lock, COMMIT and ROLLBACK fail outside any repository call: translated here as well.
    return storeCall(() => this.transact(companyId, mode, work));
  }

  /**
   * One transaction on a connection of knex's pool, begun, committed and rolled back here (ADR 20) rather than by
   * MikroORM's `em.transactional` and a knex transaction, which cost the feed's consumer and POST /applications
   * four times the CPU of the statements themselves (a knex instance made for every transaction, a fork of the
   * EntityManager, a flush of its empty identity map). The statements are the ones knex sent, through the same
   * hooks of the pool (the statement bounds put the BEGIN in front of the lock's statement, ADR 15).
   */
  private async transact<T>(companyId: string, mode: LockMode, work: (scope: TransactionScope) => Promise<T>): Promise<T> {
    const pool = this.orm.em.getConnection().getKnex().client as ConnectionPool;
    const connection = await pool.acquireConnection();
    const transaction: ActiveTransaction = {
      orm: this.orm, em: this.em, connection, companyId, mode, now: new Date(Number.NaN), ended: false, calls: 0, last: Promise.resolve(), preloaded: new Map(), deferred: [],
    };
    try {
      await sendOn(this.em, connection, { text: BEGIN });
      const result = await runWithTransaction(transaction, async () => {
        transaction.now = await inChildSpan('company lock', lockAttributes(companyId, mode), () => this.lockThenReadClock(this.em, companyId, mode));
        return work({ now: new Date(transaction.now.getTime()) });
      });
      await this.options.beforeCommit?.({ companyId, mode, now: new Date(transaction.now.getTime()) });
      // A repository call failed and the work went on: the transaction is aborted, its COMMIT would roll back.
      if (transaction.failed !== undefined) throw transaction.failed.error;
      transaction.ended = true;
      // The statements the work deferred (executeInlinedLater) go in the COMMIT's message, in front of it.
      const deferred = transaction.deferred.splice(0);
      const answer = await sendOn(this.em, connection, { text: deferred.length === 0 ? COMMIT : inOneMessage([...deferred, COMMIT]) }).catch(
        async (error: unknown) => {
          // A COMMIT alone that failed may have left the session anywhere (a broken line): the connection must not serve
          // another unit of work. With deferred statements in front, one of them most likely failed, which left the
          // transaction aborted and the COMMIT unrun: a ROLLBACK ends it (after a failed COMMIT it only warns), and
          // only a ROLLBACK that fails too (a broken line) discards the connection.
          if (deferred.length === 0) {
            discardConnection(connection, error);
            throw error;
          }
          await sendOn(this.em, connection, { text: ROLLBACK }).catch((rollbackError: unknown) => discardConnection(connection, rollbackError));
          // A call the work left running that failed meanwhile aborted the transaction first (see below): its error, not
          // the deferred statements' "current transaction is aborted".
          throw (transaction.failed as ActiveTransaction['failed'])?.error ?? error;
        },
      );
      // PostgreSQL answers the COMMIT of an aborted transaction with ROLLBACK and no error: a call that the work
      // left running failed after the check above. Nothing was stored, and the caller must not be told otherwise.
      if (commandOf(answer) === 'ROLLBACK') {
        // Set meanwhile, by that call (TypeScript holds it to the check above).
        const failed = transaction.failed as ActiveTransaction['failed'];
        throw failed?.error ?? new Error('The transaction was rolled back at its COMMIT: a statement in it had failed.');
      }
      return result;
    } catch (error) {
      if (!transaction.ended) {
        transaction.ended = true;
        // What failed inside the transaction is what to report: a ROLLBACK that fails too (the connection is
        // gone) only discards the connection.
        await sendOn(this.em, connection, { text: ROLLBACK }).catch((rollbackError: unknown) => discardConnection(connection, rollbackError));
      }
      throw error;
    } finally {
      await pool.releaseConnection(connection);
    }
  }

  private async read<T>(companyId: string, work: (scope: TransactionScope) => Promise<T>): Promise<T> {
    const now = await this.barrier(companyId);
    return work({ now: new Date(now.getTime()) });
  }

  /**
   * Reads of a company share barriers: the one in flight, or one that completed less than
   * `barrierReuseMs` ago. Any barrier that ended before a read's statements start serves that read
   * (ADR 9): a write those statements miss had not committed when they started, so it did not hold the
   * lock when the barrier was granted (the barrier waited for every holder to commit), and took it after
   * the barrier let go: its clock, and its rows' stamps, are later than the barrier's clock. An older
   * barrier only makes the watermark older (a client's next pass then sees a little again), never unsafe.
   */
  private barrier(companyId: string): Promise<Date> {
    const reuseMs = this.options.barrierReuseMs ?? DEFAULT_BARRIER_REUSE_MS;
    const latest = this.barriers.get(companyId);
    if (latest !== undefined && (latest.completedAt === undefined || performance.now() - latest.completedAt <= reuseMs)) return latest.now;
    const barrier: Barrier = { now: storeCall(() => inChildSpan('company lock', lockAttributes(companyId, 'read'), () => this.lockThenReadClock(freshEntityManager(this.orm), companyId, 'read'))) };
    this.barriers.set(companyId, barrier);
    barrier.now.then(
      () => {
        barrier.completedAt = performance.now();
        // Forgotten once too old to serve, so that the map holds only the companies read just now.
        setTimeout(() => {
          if (this.barriers.get(companyId) === barrier) this.barriers.delete(companyId);
        }, reuseMs).unref();
      },
      () => {
        if (this.barriers.get(companyId) === barrier) this.barriers.delete(companyId);
      },
    );
    return barrier.now;
  }

  /** The lock, then the clock: one round trip in the usual case, since every request pays for each one. */
  private async lockThenReadClock(em: EntityManager, companyId: string, mode: LockMode): Promise<Date> {
    const locking = this.options.companyLock !== false;
    if (this.options.clock === undefined) return locking ? lockCompanyThenReadClock(em, companyId, mode) : databaseNow(em);
    if (locking) await lockCompany(em, companyId, mode);
    return this.options.clock.now();
  }

  /** A unit of work inside another joins it: same transaction, same lock, same `now`. */
  private join<T>(outer: ActiveTransaction, companyId: string, mode: LockMode, work: (scope: TransactionScope) => Promise<T>): Promise<T> {
    if (outer.companyId !== companyId) throw new Error('A unit of work cannot run inside one of another company.');
    if (outer.mode === 'append' && mode === 'write') throw new Error('A write unit of work cannot run inside an append one.');
    return work({ now: new Date(outer.now.getTime()) });
  }
}

/** The statements knex sent for a transaction of MikroORM's at READ COMMITTED: the same text, so the same wire (ADR 15, 20). */
const BEGIN = 'BEGIN TRANSACTION ISOLATION LEVEL read committed;';
const COMMIT = 'COMMIT;';
const ROLLBACK = 'ROLLBACK';

/** The part of knex's client that lends the pool's connections. */
interface ConnectionPool {
  acquireConnection(): Promise<pg.Client>;
  releaseConnection(connection: pg.Client): Promise<unknown>;
}

function commandOf(answer: pg.QueryResult | pg.QueryResult[]): string | undefined {
  return (Array.isArray(answer) ? answer.at(-1) : answer)?.command;
}

/**
 * The EntityManager's own ways to the database, which know nothing of the unit of work's connection and would run
 * beside its transaction, on another connection, in autocommit (ADR 20): refused on the unit of work's em, so that
 * a repository that uses one inside a unit of work fails at once instead of writing outside it.
 */
const ENTITY_OPERATIONS = [
  'execute', 'find', 'findOne', 'findOneOrFail', 'findAll', 'findAndCount', 'findByCursor', 'count', 'insert', 'insertMany', 'nativeInsert',
  'nativeUpdate', 'nativeDelete', 'upsert', 'upsertMany', 'persist', 'persistAndFlush', 'flush', 'remove', 'transactional', 'begin',
  'createQueryBuilder', 'qb', 'lock', 'refresh',
] as const;

function refuseEntityOperations(em: EntityManager): EntityManager {
  for (const name of ENTITY_OPERATIONS) {
    Object.defineProperty(em, name, {
      value: () => {
        throw new Error(`em.${name} inside a unit of work would run outside its transaction; send the statement with direct-statement.ts.`);
      },
    });
  }
  return em;
}
