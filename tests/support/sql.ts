import type { PgDatabase } from '../../adapters/persistence/postgres/pg-database.js';
import { executeInlined } from '../../adapters/persistence/postgres/pg-statements.js';

/** A test's own statements on a database, each alone in autocommit, `?` for each value (as the adapters write them). */
export function sqlOn(db: PgDatabase) {
  return <T extends object[] = Record<string, any>[]>(text: string, params: readonly unknown[] = []): Promise<T> =>
    executeInlined<T[number]>({ db, transaction: undefined }, text, params) as Promise<T>;
}
