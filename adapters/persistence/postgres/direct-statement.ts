import type { EntityManager, Knex } from '@mikro-orm/postgresql';
import type pg from 'pg';
import { isStalePreparedStatement, keepsPreparedStatements, markConnectionDiscarded, preparedName } from './prepared-statements.js';
import { boundValue } from './sql-values.js';
import { transactionOf, type ActiveTransaction } from './transaction-scope.js';

type Answer = pg.QueryResult | pg.QueryResult[];

/**
 * The statements of a unit of work go straight to its connection (pg), as em.execute and knex would send them
 * but without their per-call layers (MikroORM's execute and query context, knex's raw builder, runner and
 * transaction client): a profile of the feed's consumer, which sends a dozen statements a batch, put a fifth of
 * its CPU in those layers and the garbage they leave (issue 12). Outside a transaction a statement takes a
 * connection from knex's pool and gives it back, as knex's runner does.
 *
 * The connection is the unit of work's (ADR 20), or the one knex holds for a transaction of em's; the hooks the
 * pool put on it (statement bounds with the deferred BEGIN, transaction-timeouts.ts; the read-timeout guard,
 * read-timeout-guard.ts) see these calls as they see knex's, since they are made the way knex makes them (a
 * config and a callback). Errors come out as em.execute's do (MikroORM's driver exceptions), for storeCall to
 * translate.
 */

/**
 * em.execute's statement: the values inlined into the text by MikroORM's platform (formatQuery, the same text
 * em.execute sends), one simple-protocol message. The rows of its answer; of the last statement for a message
 * of several.
 */
export async function executeInlined<T>(em: EntityManager, sql: string, params: readonly unknown[] = []): Promise<T[]> {
  return rowsOf<T>(await send(em, { text: em.getPlatform().formatQuery(sql, params as unknown[]) }));
}

/** As executeInlined, for a statement whose answer is the number of rows it changed (a DELETE without RETURNING). */
export async function executeInlinedCount(em: EntityManager, sql: string, params: readonly unknown[] = []): Promise<number> {
  const answer = await send(em, { text: em.getPlatform().formatQuery(sql, params as unknown[]) });
  return (Array.isArray(answer) ? answer.at(-1) : answer)?.rowCount ?? 0;
}

/**
 * Statements whose answers nobody reads (writes the caller needs nothing back from), values inlined as
 * executeInlined inlines them; each one statement, not ended by a `--` comment (a `;` is put after each).
 * Inside a unit of work they are not sent now: they wait for the transaction's next statement and go in front of
 * it in its message, or in front of its COMMIT (MikroOrmUnitOfWork), which saves their round trip. They still run in their order among the transaction's
 * statements, before any sent after them, so a later read of the transaction sees them. Their failure fails the
 * statement or the COMMIT they went with (PostgreSQL runs none of the message after it), and so the unit of work,
 * as it would have failed it at once, though from a later call. Outside a unit of work they are sent at once, in
 * one message (in autocommit, one transaction).
 */
export async function executeInlinedLater(em: EntityManager, statements: readonly (readonly [sql: string, params: readonly unknown[]])[]): Promise<void> {
  if (statements.length === 0) return;
  const texts = statements.map(([sql, params]) => em.getPlatform().formatQuery(sql, params as unknown[]));
  const unit = transactionOf(em);
  if (unit === undefined) {
    await send(em, { text: inOneMessage(texts) });
    return;
  }
  if (unit.ended) throw new Error(ENDED);
  unit.deferred.push(...texts);
}

/** Statements in one simple-protocol message, each ended by its `;`, in order. */
export function inOneMessage(texts: readonly string[]): string {
  return texts.map((text) => (/;\s*$/.test(text) ? text : `${text};`)).join('\n');
}

/**
 * A statement with its values bound (extended protocol, one unnamed statement: nothing prepared stays on the
 * server connection, ADR 15; executeBoundDirectReusable names those of a fixed text where the pool allows, ADR
 * 22), `?` numbered `$1`, `$2`, … as knex numbers them. Only inside a transaction (a unit of work's, or a knex
 * transaction of em's): sent alone on an idle connection it would cost a BEGIN and a COMMIT more
 * (transaction-timeouts.ts).
 */
export async function executeBoundDirect<T>(em: EntityManager, sql: string, values: readonly unknown[]): Promise<T[]> {
  if (!inTransaction(em)) throw new Error(`A bound statement outside a transaction: ${sql.slice(0, 80)}`);
  return rowsOf<T>(await send(em, boundConfig(sql, values)));
}

/**
 * As executeBoundDirect, for a statement whose text is the same on every call (only its values differ): on a
 * connection that keeps prepared statements (DB_PREPARED_STATEMENTS=on, ADR 22) it is prepared once per
 * connection, under a name of its text (preparedName), and later calls send only its values.
 */
export async function executeBoundDirectReusable<T>(em: EntityManager, sql: string, values: readonly unknown[]): Promise<T[]> {
  if (!inTransaction(em)) throw new Error(`A bound statement outside a transaction: ${sql.slice(0, 80)}`);
  const config = boundConfig(sql, values);
  return rowsOf<T>(await send(em, (connection) => (keepsPreparedStatements(connection) ? { ...config, name: preparedName(config.text) } : config)));
}

/**
 * A statement whose text is the same on every call, only its values differing (a point read, the ledger's
 * claim): inside a transaction on a connection that keeps prepared statements (ADR 22), its values go bound
 * and it is prepared once per connection, so PostgreSQL parses and analyses it once (it still plans every
 * execution for its values: force_custom_plan, transaction-timeouts.ts); anywhere else exactly as executeInlined
 * sends it (outside a transaction a bound statement would cost a BEGIN and a COMMIT more, transaction-timeouts.ts).
 * Never for a text that varies with its values (a list of n rows), which would stay prepared on every connection
 * once for each n. Its values are those executeInlined takes, sent as boundValue sends them (a Date as ISO 8601
 * text in UTC, as inlined).
 */
export async function executeReusable<T>(em: EntityManager, sql: string, params: readonly unknown[] = []): Promise<T[]> {
  const inlined = () => ({ text: em.getPlatform().formatQuery(sql, params as unknown[]) });
  if (!inTransaction(em)) return rowsOf<T>(await send(em, inlined()));
  return rowsOf<T>(
    await send(em, (connection) => {
      if (!keepsPreparedStatements(connection)) return inlined();
      const config = boundConfig(sql, params.map(boundValue));
      return { ...config, name: preparedName(config.text) };
    }),
  );
}

/** A bound statement's config, `?` numbered `$1`, `$2`, …, its values checked as knex checks them. */
function boundConfig(sql: string, values: readonly unknown[]): { readonly text: string; readonly values: unknown[] } {
  // knex's own checks of the values, which a mistake in a statement would otherwise pass: pg sends undefined as
  // NULL, and PostgreSQL answers a wrong count with a protocol error (class 08), which reads as "database away".
  const { text, placeholders } = numbered(sql);
  if (values.some((value) => value === undefined)) throw new Error(`Undefined binding(s) in the statement: ${sql.slice(0, 80)}`);
  if (placeholders !== values.length) throw new Error(`Expected ${placeholders} bindings, saw ${values.length}, in the statement: ${sql.slice(0, 80)}`);
  return { text, values: values as unknown[] };
}

/** Whether em's statements go in a transaction: a unit of work's (ADR 20), or a knex transaction em runs in. */
export function inTransaction(em: EntityManager): boolean {
  return transactionOf(em) !== undefined || em.getTransactionContext<Knex.Transaction>() !== undefined;
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

const ENDED = 'Transaction query already complete: a statement of a unit of work that has ended.';

/**
 * Sends on the connection of em's unit of work (ADR 20), as long as it runs: a call that a failed Promise.all left
 * queued must not run on a connection that may serve another unit of work by then. Otherwise on the connection
 * of em's knex transaction (a repository's own transaction, outside any unit of work), refused once that has
 * ended too (knex's transaction client would still hand out its connection); otherwise on a pooled one.
 */
function send(em: EntityManager, statement: Statement): Promise<Answer> {
  const unit = transactionOf(em);
  if (unit !== undefined) {
    if (unit.ended) return Promise.reject(new Error(ENDED));
    const config = configOf(statement, unit.connection);
    return unit.deferred.length === 0 ? sendOn(em, unit.connection, config) : sendAfterDeferred(em, unit, config);
  }
  const transaction = em.getTransactionContext<Knex.Transaction>();
  if (transaction !== undefined) {
    if (transaction.isCompleted()) return Promise.reject(new Error(ENDED));
    return sendPooled(em, transaction.client as Pool, statement);
  }
  return sendPooled(em, em.getKnex().client as Pool, statement);
}

/**
 * A statement of a unit of work sent with the statements deferred before it (executeInlinedLater): in one message
 * when it goes as plain text (pg answers with a result for each statement: the caller's is the last, which is the
 * one every reader of an answer takes, rowsOf); a bound statement (its own message in the extended protocol) after
 * a message of theirs.
 */
async function sendAfterDeferred(em: EntityManager, unit: ActiveTransaction, config: pg.QueryConfig): Promise<Answer> {
  const deferred = unit.deferred.splice(0);
  if ((config.values?.length ?? 0) > 0 || config.name !== undefined) {
    await sendOn(em, unit.connection, { text: inOneMessage(deferred) });
    return sendOn(em, unit.connection, config);
  }
  return sendOn(em, unit.connection, { ...config, text: inOneMessage([...deferred, config.text]) });
}

/** A statement's config, or what makes it for the connection it goes on (prepared or not, ADR 22). */
type Statement = pg.QueryConfig | ((connection: pg.Client) => pg.QueryConfig);

function configOf(statement: Statement, connection: pg.Client): pg.QueryConfig {
  return typeof statement === 'function' ? statement(connection) : statement;
}

async function sendPooled(em: EntityManager, pool: Pool, statement: Statement): Promise<Answer> {
  // A connection that cannot be had (the pool's acquire timeout) fails as knex's runner would let it fail.
  const connection = await pool.acquireConnection();
  try {
    return await sendOn(em, connection, configOf(statement, connection));
  } finally {
    await pool.releaseConnection(connection);
  }
}

/**
 * One call on the connection, made as knex makes it (a config and a callback), so that the pool's hooks see it.
 * A named statement that the connection can no longer use (isStalePreparedStatement) discards the connection.
 */
export function sendOn(em: EntityManager, connection: pg.Client, config: pg.QueryConfig): Promise<Answer> {
  return new Promise<Answer>((resolve, reject) => {
    const answer = (error: Error | null, result: Answer) => {
      if (error) {
        const converted = em.getDriver().convertException(error);
        if (config.name !== undefined && isStalePreparedStatement(error)) {
          discardConnection(connection, error);
          markConnectionDiscarded(converted);
        }
        reject(converted);
      } else resolve(result);
    };
    (connection.query as unknown as (config: pg.QueryConfig, callback: typeof answer) => void)(config, answer);
  });
}

/**
 * Marks a connection for knex's pool to close instead of lending it again (knex marks a connection so when pg
 * reports it broken, and its runner when a query timed out): after a failed COMMIT or ROLLBACK nothing says in
 * which state its session is; after a stale prepared statement, every later call of it would fail the same way.
 */
export function discardConnection(connection: pg.Client, error: unknown): void {
  (connection as pg.Client & { __knex__disposed?: unknown }).__knex__disposed ??= error;
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
