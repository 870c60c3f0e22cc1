import type { Clock } from '../../../application/ports/clock.port.js';
import type { LockMode, TransactionScope, UnitOfWork } from '../../../application/ports/unit-of-work.port.js';
import type { InMemoryDatabase } from './in-memory-database.js';
import { CompanyModeLock } from './company-mode-lock.js';

/** Company locks and all-or-nothing writes, as the PostgreSQL adapter gives them. */
export class InMemoryUnitOfWork implements UnitOfWork {
  private readonly locks = new Map<string, CompanyModeLock>();

  constructor(
    private readonly database: InMemoryDatabase,
    private readonly clock: Clock,
  ) {}

  async run<T>(companyId: string, mode: LockMode, work: (scope: TransactionScope) => Promise<T>): Promise<T> {
    const lock = this.lockOf(companyId);
    const release = await lock.acquire(mode);
    try {
      const scope: TransactionScope = { now: this.clock.now() };
      return await this.database.transaction(() => work(scope));
    } finally {
      release();
      if (lock.idle) this.locks.delete(companyId);
    }
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
