import type { EntityManager } from '@mikro-orm/postgresql';
import type { LockMode } from '../../../application/ports/unit-of-work.port.js';

/**
 * First key of the two-key advisory locks that guard one company's business data; the second is
 * hashtext(company id). A hash collision only makes two companies wait for each other.
 */
export const COMPANY_LOCK_NAMESPACE = 0x48_49_52_45;

/** Takes the company's lock for the rest of the transaction: exclusive to write, shared to read. */
export async function lockCompany(em: EntityManager, companyId: string, mode: LockMode): Promise<void> {
  const lock = mode === 'write' ? 'pg_advisory_xact_lock' : 'pg_advisory_xact_lock_shared';
  await em.execute(`select ${lock}(?, hashtext(?))`, [COMPANY_LOCK_NAMESPACE, companyId]);
}

/** The database server's clock, cut to whole milliseconds as stored timestamps are. */
export async function databaseNow(em: EntityManager): Promise<Date> {
  const rows = await em.execute<{ now_ms: number }[]>('select floor(extract(epoch from clock_timestamp()) * 1000)::float8 as now_ms');
  const ms = rows[0]?.now_ms;
  if (typeof ms !== 'number') throw new Error('The database did not return its clock.');
  return new Date(ms);
}

/**
 * Takes the company's lock, then reads the clock, in one round trip: the CTE is scanned (the lock granted)
 * before the outer row's clock_timestamp() is evaluated, so the clock is read after the lock as `now` must be.
 */
export async function lockCompanyThenReadClock(em: EntityManager, companyId: string, mode: LockMode): Promise<Date> {
  const lock = mode === 'write' ? 'pg_advisory_xact_lock' : 'pg_advisory_xact_lock_shared';
  const rows = await em.execute<{ now_ms: number }[]>(
    `with locked as materialized (select ${lock}(?, hashtext(?)))
     select floor(extract(epoch from clock_timestamp()) * 1000)::float8 as now_ms from locked`,
    [COMPANY_LOCK_NAMESPACE, companyId],
  );
  const ms = rows[0]?.now_ms;
  if (typeof ms !== 'number') throw new Error('The database did not return its clock.');
  return new Date(ms);
}
