import type pg from 'pg';
import type { PgDatabase } from './pg-database.js';
import { preparedName } from './prepared-statements.js';
import { boundValue, inlinedValues, numberedPlaceholders } from './sql-values.js';

/**
 * How the repositories' statements reach PostgreSQL: on the connection of a transaction (a unit of work's, ADR 20,
 * or a registry write's), or alone in autocommit on a connection of the pool. Statements are written with `?` for
 * each value (sql-values.ts); a `?` in them is never anything else.
 */
export interface PgSession {
  readonly db: PgDatabase;
  /** The transaction its statements go in; undefined: each statement alone, in autocommit. */
  readonly transaction: PgTransaction | undefined;
}

/** A transaction on one lent connection (pg-transaction.ts begins and ends it). */
export interface PgTransaction {
  readonly client: pg.PoolClient;
  /** Set before the COMMIT or ROLLBACK is sent: from then on no statement of it goes on the connection. */
  ended: boolean;
  /**
   * Statements not sent yet, one each, in order: the BEGIN and its bounds until the first statement, and those of
   * executeInlinedLater. They go in front of the transaction's next statement, in its message, or of its COMMIT.
   */
  readonly deferred: string[];
}

export type Answer = pg.QueryResult | pg.QueryResult[];

/** A statement with its values inlined as literals (sql-values.ts): one simple-protocol message. Its rows. */
export async function executeInlined<T>(session: PgSession, sql: string, params: readonly unknown[] = []): Promise<T[]> {
  return rowsOf<T>(await send(session, { text: inlinedValues(sql, params) }));
}

/** As executeInlined, for a statement whose answer is the number of rows it changed. */
export async function executeInlinedCount(session: PgSession, sql: string, params: readonly unknown[] = []): Promise<number> {
  const answer = await send(session, { text: inlinedValues(sql, params) });
  return (Array.isArray(answer) ? answer.at(-1) : answer)?.rowCount ?? 0;
}

/**
 * Statements whose answers nobody reads, values inlined, each one statement. In a transaction they are not sent now:
 * they go in front of its next statement, in its message, or of its COMMIT (ADR 23), and still run in their order
 * among its statements; their failure fails the statement or COMMIT they went with. Outside one they are sent at
 * once, in one message (one implicit transaction).
 */
export async function executeInlinedLater(session: PgSession, statements: readonly (readonly [sql: string, params: readonly unknown[]])[]): Promise<void> {
  if (statements.length === 0) return;
  const texts = statements.map(([sql, params]) => inlinedValues(sql, params));
  const { transaction } = session;
  if (transaction === undefined) {
    await send(session, { text: inOneMessage(texts) });
    return;
  }
  if (transaction.ended) throw new Error(ENDED);
  transaction.deferred.push(...texts);
}

/**
 * A statement with its values bound (extended protocol, one unnamed statement: nothing prepared stays on the server
 * connection, ADR 15), for writes that carry documents. Outside a transaction it goes inlined: bound, alone on an
 * idle connection, its bounds could not go in front of it in its message.
 */
export async function executeBound<T>(session: PgSession, sql: string, params: readonly unknown[]): Promise<T[]> {
  if (session.transaction === undefined) return executeInlined<T>(session, sql, params);
  return rowsOf<T>(await send(session, boundConfig(sql, params)));
}

/**
 * As executeBound, for a statement whose text is the same on every call: where the connections keep prepared
 * statements (ADR 22) it is prepared once per connection, under a name of its text.
 */
export async function executeBoundReusable<T>(session: PgSession, sql: string, params: readonly unknown[]): Promise<T[]> {
  if (session.transaction === undefined) return executeInlined<T>(session, sql, params);
  const config = boundConfig(sql, params);
  return rowsOf<T>(await send(session, session.db.keepsPreparedStatements ? { ...config, name: preparedName(config.text) } : config));
}

/**
 * A statement whose text is the same on every call (a point read, the ledger's claim): in a transaction where the
 * connections keep prepared statements, bound and prepared once per connection; anywhere else as executeInlined
 * sends it. Never for a text that varies with its values, which would stay prepared once for each variant.
 */
export async function executeReusable<T>(session: PgSession, sql: string, params: readonly unknown[] = []): Promise<T[]> {
  if (session.transaction === undefined || !session.db.keepsPreparedStatements) return executeInlined<T>(session, sql, params);
  const config = boundConfig(sql, params);
  return rowsOf<T>(await send(session, { ...config, name: preparedName(config.text) }));
}

/** Statements in one simple-protocol message, each ended by its `;`, in order. */
export function inOneMessage(texts: readonly string[]): string {
  return texts.map((text) => (/;\s*$/.test(text) ? text : `${text};`)).join('\n');
}

export const ENDED = 'A statement of a transaction that has ended.';

function boundConfig(sql: string, params: readonly unknown[]): pg.QueryConfig {
  return { text: numberedPlaceholders(sql, params.length), values: params.map(boundValue) };
}

function send(session: PgSession, config: pg.QueryConfig): Promise<Answer> {
  const { db, transaction } = session;
  if (transaction === undefined) return sendAlone(db, config);
  if (transaction.ended) return Promise.reject(new Error(ENDED));
  if (transaction.deferred.length === 0) return db.query(transaction.client, config);
  const deferred = transaction.deferred.splice(0);
  // A bound statement is a message of its own (extended protocol): the deferred ones go in a message before it.
  if (config.values !== undefined || config.name !== undefined) {
    return db.query(transaction.client, { text: inOneMessage(deferred) }).then(() => db.query(transaction.client, config));
  }
  return db.query(transaction.client, { text: inOneMessage([...deferred, config.text]) });
}

/** A text statement in autocommit on a lent connection, its bounds in front of it in its message (one implicit transaction). */
async function sendAlone(db: PgDatabase, config: pg.QueryConfig): Promise<Answer> {
  const client = await db.connect();
  try {
    return await db.query(client, { text: db.bounds === '' ? config.text : inOneMessage([db.bounds, config.text]) });
  } finally {
    db.release(client);
  }
}

function rowsOf<T>(answer: Answer): T[] {
  const result = Array.isArray(answer) ? answer.at(-1) : answer;
  return (result?.rows ?? []) as T[];
}
