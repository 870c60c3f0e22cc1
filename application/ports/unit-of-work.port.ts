import { portToken } from './port-token.js';

/**
 * How a unit of work stands towards the other units of work of the same company. This is what makes
 * sync lose no change (DESIGN 3, No lost changes; docs/adr/0009-appends-and-barrier-reads.md):
 *
 * - `write`: excludes every other unit of work of the company, reads and writes, for its whole transaction.
 *   For changes that read, decide and write (a move checks the board, a batch replaces records).
 * - `append`: a write that excludes reads and `write`s but runs alongside other appends. Only for work that
 *   adds records whose one possible conflict with a concurrent append, a repeated externalId, the store
 *   itself settles (a unique constraint): new applications, so that a company's applications do not queue
 *   one behind the other.
 * - `read`: waits until every write of the company in flight has committed, then reads the clock, then
 *   reads. Every change it cannot see is stamped later than its clock, because that change's write took
 *   its lock after the read's clock was read. Reads of one company run together.
 */
export type LockMode = 'read' | 'append' | 'write';

export interface TransactionScope {
  /** The clock, read after the lock was taken: writes stamp records with it; reads derive the watermark from it. */
  readonly now: Date;
}

/**
 * Runs work as one transaction of one company's data (a read: one view of every write committed before
 * its clock). Repositories called inside take part in it without being handed anything: the adapter
 * carries the transaction in its own context.
 */
export interface UnitOfWork {
  run<T>(companyId: string, mode: LockMode, work: (scope: TransactionScope) => Promise<T>): Promise<T>;
}

export const UNIT_OF_WORK = portToken<UnitOfWork>('UnitOfWork');
