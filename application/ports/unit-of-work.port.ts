import { portToken } from './port-token.js';

/**
 * `write` holds the company's lock exclusively for the whole transaction; `read` holds it shared
 * and reads one consistent snapshot. This is what makes sync lose no change (DESIGN 3, No lost changes).
 */
export type LockMode = 'read' | 'write';

export interface TransactionScope {
  /** The clock, read after the lock was taken: writes stamp records with it; reads derive the watermark from it. */
  readonly now: Date;
}

/**
 * Runs work as one transaction of one company's data. Repositories called inside take part in it
 * without being handed anything: the adapter carries the transaction in its own context.
 */
export interface UnitOfWork {
  run<T>(companyId: string, mode: LockMode, work: (scope: TransactionScope) => Promise<T>): Promise<T>;
}

export const UNIT_OF_WORK = portToken<UnitOfWork>('UnitOfWork');
