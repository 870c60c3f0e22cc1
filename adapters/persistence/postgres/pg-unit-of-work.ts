import type { Clock } from '../../../application/ports/clock.port.js';
import type { LockMode, TransactionScope, UnitOfWork } from '../../../application/ports/unit-of-work.port.js';
import { databaseNow, lockCompany, lockCompanyThenReadClock, lockCompanyThenReadClockAndPosition } from './company-lock.js';
import { runWithBarrierPosition } from './replicas/list-page-reads.js';
import { walPositionOf, type WalPosition } from './replicas/wal-position.js';
import type { PgDatabase } from './pg-database.js';
import type { PgSession } from './pg-statements.js';
import { runTransaction } from './pg-transaction.js';
import { storeCall } from './store-errors.js';
import { inChildSpan, lockAttributes } from '../../telemetry/spans.js';
import { activeTransaction, runWithTransaction, type UnitTransaction } from './transaction-scope.js';

export interface PgUnitOfWorkOptions {
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
  /**
   * DATABASE_REPLICA_URLS set: a read's barrier reads the primary's WAL position with its clock, and the read's
   * list pages go where it is held (ADR 26). Default false: the barrier reads the clock only.
   */
  readonly barrierPositions?: boolean;
}

const DEFAULT_BARRIER_REUSE_MS = 100;

/** What a read's barrier read: the clock, and the primary's WAL position with it when barrierPositions is on. */
interface BarrierReading {
  readonly now: Date;
  readonly position: WalPosition | null;
}

interface Barrier {
  readonly now: Promise<BarrierReading>;
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
export class PgUnitOfWork implements UnitOfWork {
  /** The latest barrier of each company: in flight, or completed not long ago. */
  private readonly barriers = new Map<string, Barrier>();

  constructor(
    private readonly db: PgDatabase,
    private readonly options: PgUnitOfWorkOptions = {},
  ) {}

  async run<T>(companyId: string, mode: LockMode, work: (scope: TransactionScope) => Promise<T>): Promise<T> {
    const outer = activeTransaction(this.db);
    if (outer !== undefined) return this.join(outer, companyId, mode, work);
    if (mode === 'read') return this.read(companyId, work);
    return this.transact(companyId, mode, work);
  }

  /**
   * One transaction on a lent connection (runTransaction, ADR 20): its BEGIN and bounds go in front of the company
   * lock's statement, in one message; the repositories' statements find it through the async context.
   */
  private transact<T>(companyId: string, mode: LockMode, work: (scope: TransactionScope) => Promise<T>): Promise<T> {
    const { db } = this;
    return runTransaction(
      db,
      (client, deferred): UnitTransaction => ({
        db, client, deferred, companyId, mode, now: new Date(Number.NaN), ended: false, calls: 0, last: Promise.resolve(), preloaded: new Map(),
      }),
      (transaction) =>
        runWithTransaction(transaction, async () => {
          transaction.now = await inChildSpan('company lock', lockAttributes(companyId, mode), () => this.lockThenReadClock({ db, transaction }, companyId, mode));
          return work({ now: new Date(transaction.now.getTime()) });
        }),
      async (transaction) => this.options.beforeCommit?.({ companyId, mode, now: new Date(transaction.now.getTime()) }),
    );
  }

  private async read<T>(companyId: string, work: (scope: TransactionScope) => Promise<T>): Promise<T> {
    const { now, position } = await this.barrier(companyId);
    const scope = { now: new Date(now.getTime()) };
    return position === null ? work(scope) : runWithBarrierPosition(this.db, position, () => work(scope));
  }

  /**
   * Reads of a company share barriers: the one in flight, or one that completed less than
   * `barrierReuseMs` ago. Any barrier that ended before a read's statements start serves that read
   * (ADR 9): a write those statements miss had not committed when they started, so it did not hold the
   * lock when the barrier was granted (the barrier waited for every holder to commit), and took it after
   * the barrier let go: its clock, and its rows' stamps, are later than the barrier's clock. An older
   * barrier only makes the watermark older (a client's next pass then sees a little again), never unsafe.
   */
  private barrier(companyId: string): Promise<BarrierReading> {
    const reuseMs = this.options.barrierReuseMs ?? DEFAULT_BARRIER_REUSE_MS;
    const latest = this.barriers.get(companyId);
    if (latest !== undefined && (latest.completedAt === undefined || performance.now() - latest.completedAt <= reuseMs)) return latest.now;
    const barrier: Barrier = {
      now: storeCall(() => inChildSpan('company lock', lockAttributes(companyId, 'read'), () => this.readBarrier({ db: this.db, transaction: undefined }, companyId))),
    };
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

  /** A read's barrier: with the primary's WAL position when reads go to replicas (ADR 26). */
  private async readBarrier(session: PgSession, companyId: string): Promise<BarrierReading> {
    if (this.options.barrierPositions === true && this.options.clock === undefined && this.options.companyLock !== false) {
      const { now, walPosition } = await lockCompanyThenReadClockAndPosition(session, companyId);
      return { now, position: walPositionOf(walPosition) };
    }
    return { now: await this.lockThenReadClock(session, companyId, 'read'), position: null };
  }

  /** The lock, then the clock: one round trip in the usual case, since every request pays for each one. */
  private async lockThenReadClock(session: PgSession, companyId: string, mode: LockMode): Promise<Date> {
    const locking = this.options.companyLock !== false;
    if (this.options.clock === undefined) return locking ? lockCompanyThenReadClock(session, companyId, mode) : databaseNow(session);
    if (locking) await lockCompany(session, companyId, mode);
    return this.options.clock.now();
  }

  /** A unit of work inside another joins it: same transaction, same lock, same `now`. */
  private join<T>(outer: UnitTransaction, companyId: string, mode: LockMode, work: (scope: TransactionScope) => Promise<T>): Promise<T> {
    if (outer.companyId !== companyId) throw new Error('A unit of work cannot run inside one of another company.');
    if (outer.mode === 'append' && mode === 'write') throw new Error('A write unit of work cannot run inside an append one.');
    return work({ now: new Date(outer.now.getTime()) });
  }
}
