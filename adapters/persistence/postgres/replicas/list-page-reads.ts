import { AsyncLocalStorage } from 'node:async_hooks';
import type { PgDatabase } from '../pg-database.js';
import { executeInlined, type PgSession } from '../pg-statements.js';
import { withSession } from '../transaction-scope.js';
import type { PageStatements, ReplicaRouter } from './replica-router.js';
import type { WalPosition } from './wal-position.js';

interface ReadBarrier {
  readonly db: PgDatabase;
  /** The primary's WAL position, read by the barrier's statement with its clock (ADR 26). */
  readonly position: WalPosition;
}

const barriers = new AsyncLocalStorage<ReadBarrier>();

/** Runs a read unit of work's work with its barrier's WAL position, for the list pages inside to route by. */
export function runWithBarrierPosition<T>(db: PgDatabase, position: WalPosition, work: () => Promise<T>): Promise<T> {
  return barriers.run({ db, position }, work);
}

/**
 * One list page (GET /vacancies, GET /candidates): on a replica that holds every change committed before the
 * read's barrier, when there are replicas and the page runs in a read unit of work whose barrier read the
 * primary's position; otherwise, and whenever the router falls back, on the primary, as before (ADR 26). Either
 * way the same statements with the same inlined text, so the same bytes.
 */
export function readListPage<T>(db: PgDatabase, router: ReplicaRouter | undefined, work: (statements: PageStatements) => Promise<T>): Promise<T> {
  const onPrimary = () => withSession(db, (session) => work(primaryStatements(session)));
  const barrier = barriers.getStore();
  if (router === undefined || barrier === undefined || barrier.db !== db) return onPrimary();
  return router.read(barrier.position, work, onPrimary);
}

/** A page's statements on the primary: the session's, values inlined (executeInlined). */
export function primaryStatements(session: PgSession): PageStatements {
  return (sql, params) => executeInlined(session, sql, params);
}
