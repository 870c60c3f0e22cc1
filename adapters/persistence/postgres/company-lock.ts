import type { LockMode } from '../../../application/ports/unit-of-work.port.js';
import { executeInlined, type PgSession } from './pg-statements.js';

/**
 * First key of the two-key advisory locks that guard one company's business data; the second is
 * hashtext(company id). A hash collision only makes two companies wait for each other.
 */
export const COMPANY_LOCK_NAMESPACE = 0x48_49_52_45;

/**
 * The advisory lock function of each mode (the UnitOfWork port): appends share the lock with each other;
 * a write holds it exclusively; a read takes it exclusively too, but for one autocommit statement only
 * (see PgUnitOfWork), as a barrier that waits for every write in flight. Reads therefore wait for
 * each other only for that statement.
 */
function lockFunction(mode: LockMode): string {
  return mode === 'append' ? 'pg_advisory_xact_lock_shared' : 'pg_advisory_xact_lock';
}

/** Takes the company's lock in the mode's strength, until the end of the (possibly implicit) transaction. */
export async function lockCompany(session: PgSession, companyId: string, mode: LockMode): Promise<void> {
  await executeInlined(session, `select ${lockFunction(mode)}(?, hashtext(?))`, [COMPANY_LOCK_NAMESPACE, companyId]);
}

/** The database server's clock, cut to whole milliseconds as stored timestamps are. */
export async function databaseNow(session: PgSession): Promise<Date> {
  const rows = await executeInlined<{ now_ms: number }>(session, 'select floor(extract(epoch from clock_timestamp()) * 1000)::float8 as now_ms');
  const ms = rows[0]?.now_ms;
  if (typeof ms !== 'number') throw new Error('The database did not return its clock.');
  return new Date(ms);
}

/**
 * Takes the company's lock, then reads the clock, in one round trip: the CTE is scanned (the lock granted)
 * before the outer row's clock_timestamp() is evaluated, so the clock is read after the lock as `now` must be.
 */
export async function lockCompanyThenReadClock(session: PgSession, companyId: string, mode: LockMode): Promise<Date> {
  const rows = await executeInlined<{ now_ms: number }>(
    session,
    `with locked as materialized (select ${lockFunction(mode)}(?, hashtext(?)))
     select floor(extract(epoch from clock_timestamp()) * 1000)::float8 as now_ms from locked`,
    [COMPANY_LOCK_NAMESPACE, companyId],
  );
  const ms = rows[0]?.now_ms;
  if (typeof ms !== 'number') throw new Error('The database did not return its clock.');
  return new Date(ms);
}

/**
 * A read's barrier (ADR 9) that also reads the primary's WAL position, in the same statement and after the lock
 * as the clock (ADR 26): every write the barrier waited for had committed, its commit record written out
 * (synchronous_commit on, the default), so a replica that has replayed up to this position holds every change
 * stamped before the clock. Text, as PostgreSQL writes a pg_lsn.
 */
export async function lockCompanyThenReadClockAndPosition(session: PgSession, companyId: string): Promise<{ readonly now: Date; readonly walPosition: string }> {
  const rows = await executeInlined<{ now_ms: number; wal_position: string }>(
    session,
    `with locked as materialized (select ${lockFunction('read')}(?, hashtext(?)))
     select floor(extract(epoch from clock_timestamp()) * 1000)::float8 as now_ms, pg_current_wal_lsn()::text as wal_position from locked`,
    [COMPANY_LOCK_NAMESPACE, companyId],
  );
  const row = rows[0];
  if (typeof row?.now_ms !== 'number' || typeof row.wal_position !== 'string') throw new Error('The database did not return its clock and WAL position.');
  return { now: new Date(row.now_ms), walPosition: row.wal_position };
}
