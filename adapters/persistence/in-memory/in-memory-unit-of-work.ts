import { AsyncLocalStorage } from 'node:async_hooks';
import type { Clock } from '../../../application/ports/clock.port.js';
import type { LockMode, TransactionScope, UnitOfWork } from '../../../application/ports/unit-of-work.port.js';
import type { InMemoryDatabase } from './in-memory-database.js';
import { CompanyModeLock } from './company-mode-lock.js';

interface ActiveUnit {
  readonly database: InMemoryDatabase;
  readonly companyId: string;
  readonly mode: LockMode;
  readonly now: Date;
}

/** The unit of work the caller runs in, so that one started inside it joins it (as on PostgreSQL). */
const active = new AsyncLocalStorage<ActiveUnit>();

/** Company locks and all-or-nothing writes, as the PostgreSQL adapter gives them. */
export class InMemoryUnitOfWork implements UnitOfWork {
  private readonly locks = new Map<string, CompanyModeLock>();

  constructor(
    private readonly database: InMemoryDatabase,
    private readonly clock: Clock,
  ) {}

  async run<T>(companyId: string, mode: LockMode, work: (scope: TransactionScope) => Promise<T>): Promise<T> {
    const outer = active.getStore();
    // Waiting for the company's lock inside a unit of work that holds it would wait for ever: join it instead.
    if (outer !== undefined && outer.database === this.database) return this.join(outer, companyId, mode, work);
    const lock = this.lockOf(companyId);
    const release = await lock.acquire(mode);
    try {
      const now = this.clock.now();
      const scoped = () => work({ now: new Date(now.getTime()) });
      // As on PostgreSQL, where a read is no transaction: only writes and appends are joined.
      if (mode === 'read') return await this.database.transaction(scoped);
      const unit: ActiveUnit = { database: this.database, companyId, mode, now };
      return await this.database.transaction(() => active.run(unit, scoped));
    } finally {
      release();
      if (lock.idle) this.locks.delete(companyId);
    }
  }

  /** Same transaction, same lock, same `now`; refused as the PostgreSQL adapter refuses it. */
  private join<T>(outer: ActiveUnit, companyId: string, mode: LockMode, work: (scope: TransactionScope) => Promise<T>): Promise<T> {
    if (outer.companyId !== companyId) throw new Error('A unit of work cannot run inside one of another company.');
    if (outer.mode === 'append' && mode === 'write') throw new Error('A write unit of work cannot run inside an append one.');
    return work({ now: new Date(outer.now.getTime()) });
  }

  private lockOf(companyId: string): CompanyModeLock {
    let lock = this.locks.get(companyId);
    if (lock === undefined) {
      lock = new CompanyModeLock();
      this.locks.set(companyId, lock);
    }
    return lock;
  }
}
