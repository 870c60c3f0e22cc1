import type { EntityManager, Knex } from '@mikro-orm/postgresql';
import type pg from 'pg';

type Answer = pg.QueryResult | pg.QueryResult[];

/**
 * The statements of a unit of work go straight to its connection (pg), as em.execute and knex would send them
 * but without their per-call layers (MikroORM's execute and query context, knex's raw builder, runner and
 * transaction client): a profile of the feed's consumer, which sends a dozen statements a batch, put a fifth of
 * its CPU in those layers and the garbage they leave (issue 12). Outside a transaction a statement takes a
 * connection from knex's pool and gives it back, as knex's runner does.
 *
 * The connection is the one knex holds for the transaction; the hooks the pool put on it (statement bounds with
 * the deferred BEGIN, transaction-timeouts.ts; the read-timeout guard, read-timeout-guard.ts) see these calls
 * as they see knex's, since they are made the way knex makes them (a config and a callback). Errors come out as
 * em.execute's do (MikroORM's driver exceptions), for storeCall to translate.
 */

/**
 * em.execute's statement: the values inlined into the text by MikroORM's platform (formatQuery, the same text
 * em.execute sends), one simple-protocol message. The rows of its answer; of the last statement for a message
 * of several.
 */
export async function executeInlined<T>(em: EntityManager, sql: string, params: readonly unknown[] = []): Promise<T[]> {
  const config = { text: em.getPlatform().formatQuery(sql, params as unknown[]) };
  const transaction = em.getTransactionContext<Knex.Transaction>();
  if (transaction !== undefined) return rowsOf<T>(await send(em, poolOf(transaction), config));
  return rowsOf<T>(await send(em, em.getKnex().client as Pool, config));
}

/**
 * A statement with its values bound (extended protocol, one unnamed statement: nothing prepared stays on the
 * server connection, ADR 15), `?` numbered `$1`, `$2`, … as knex numbers them.
 */
export async function executeBoundDirect<T>(em: EntityManager, transaction: Knex.Transaction, sql: string, values: readonly unknown[]): Promise<T[]> {
  // knex's own checks of the values, which a mistake in a statement would otherwise pass: pg sends undefined as
  // NULL, and PostgreSQL answers a wrong count with a protocol error (class 08), which reads as "database away".
  const { text, placeholders } = numbered(sql);
  if (values.some((value) => value === undefined)) throw new Error(`Undefined binding(s) in the statement: ${sql.slice(0, 80)}`);
  if (placeholders !== values.length) throw new Error(`Expected ${placeholders} bindings, saw ${values.length}, in the statement: ${sql.slice(0, 80)}`);
  return rowsOf<T>(await send(em, poolOf(transaction), { text, values: values as unknown[] }));
}

/**
 * The transaction's connection, as long as the transaction runs: knex's transaction client answers with it even
 * after the COMMIT or ROLLBACK (its own query path refuses that, which these calls bypass), when the connection
 * may already serve another unit of work; a call that a failed Promise.all left queued must not run there.
 */
function poolOf(transaction: Knex.Transaction): Pool {
  if (transaction.isCompleted()) throw new Error('Transaction query already complete: a statement of a unit of work that has ended.');
  return transaction.client as Pool;
}

/**
 * Where connections come from: a transaction's knex client answers with the transaction's connection (and its
 * release keeps it); the pool's client with an idle pooled connection, which goes back to the pool after the
 * statement (a statement alone runs in autocommit; its bounds go in front of it, transaction-timeouts.ts).
 */
interface Pool {
  acquireConnection(): Promise<pg.Client>;
  releaseConnection(connection: pg.Client): Promise<unknown>;
}

async function send(em: EntityManager, pool: Pool, config: pg.QueryConfig): Promise<Answer> {
  // A connection that cannot be had (the pool's acquire timeout) fails as knex's runner would let it fail.
  const connection = await pool.acquireConnection();
  try {
    return await new Promise<Answer>((resolve, reject) => {
      const answer = (error: Error | null, result: Answer) => {
        if (error) reject(em.getDriver().convertException(error));
        else resolve(result);
      };
      (connection.query as unknown as (config: pg.QueryConfig, callback: typeof answer) => void)(config, answer);
    });
  } finally {
    await pool.releaseConnection(connection);
  }
}

function rowsOf<T>(answer: Answer): T[] {
  const result = Array.isArray(answer) ? answer.at(-1) : answer;
  return (result?.rows ?? []) as T[];
}

/** knex's numbering of a statement's `?` (its PostgreSQL dialect's positionBindings): an escaped `\?` stays a `?`. */
function numbered(sql: string): { readonly text: string; readonly placeholders: number } {
  let n = 0;
  const text = sql.replace(/(\\*)\?/g, (_match: string, escapes: string) => {
    if (escapes.length % 2 === 1) return '?';
    n += 1;
    return `$${n}`;
  });
  return { text, placeholders: n };
}
