import type { EntityManager } from '@mikro-orm/postgresql';
import { executeBoundDirect, executeBoundDirectReusable, inTransaction } from './direct-statement.js';
import { boundValue } from './sql-values.js';

/**
 * Runs a statement with `?` placeholders whose values travel bound (the extended protocol: parse, bind and
 * execute in one message, one round trip), for the writes that carry documents: a card's person, resume and
 * rendering, a vacancy's description. em.execute formats every value into the SQL text in JS first
 * (MikroORM's platform.formatQuery: escaping each string character by character), which cost POST
 * /applications a tenth of its CPU, and PostgreSQL then parses the literals back.
 *
 * In the unit of work's transaction, on its connection, straight through pg as knex would send it
 * (direct-statement.ts). Outside one, em.execute as before: a bound statement sent on an idle connection
 * costs a BEGIN and a COMMIT more (transaction-timeouts.ts), which a text statement does not.
 *
 * Like em.execute, `?` stands for one value; a `?` that is no placeholder is written `\?`, as knex wants.
 * Errors come out as em.execute's do (MikroORM's driver exceptions), for storeCall to translate.
 *
 * A Date goes as its ISO 8601 text in UTC, as em.execute inlines it (boundValue, sql-values.ts, says why).
 */
export async function executeBound<T>(em: EntityManager, sql: string, params: readonly unknown[]): Promise<T[]> {
  const values = params.map(boundValue);
  if (!inTransaction(em)) return em.execute<T[]>(sql, values);
  return executeBoundDirect<T>(em, sql, values);
}

/**
 * As executeBound, for a statement whose text is the same on every call (a row's insert or update): in a
 * transaction on a connection that keeps prepared statements (DB_PREPARED_STATEMENTS=on, ADR 22) it is prepared
 * once per connection (executeBoundDirectReusable). Not for a text that varies with its values (insertMany's rows).
 */
export async function executeBoundReusable<T>(em: EntityManager, sql: string, params: readonly unknown[]): Promise<T[]> {
  const values = params.map(boundValue);
  if (!inTransaction(em)) return em.execute<T[]>(sql, values);
  return executeBoundDirectReusable<T>(em, sql, values);
}
