import pg from 'pg';
import { pgConnectionOf } from './connection-fields.js';
import { isStalePreparedStatement, markConnectionDiscarded } from './prepared-statements.js';

/**
 * Bounds on every wait for the database, so that a database that is down, restarting or unreachable fails a
 * call within a known time (as StoreUnavailableError, store-errors.ts) instead of hanging it.
 */
export interface PostgresTimeouts {
  /**
   * statement_timeout of every transaction and autocommit statement (SET LOCAL, pgBounds): PostgreSQL cancels a
   * statement that runs longer, a wait for a company lock included (SQLSTATE 57014). The client gives up on its
   * own a little later (pg's query_timeout), for a server that no longer answers at all. 0: no limit.
   */
  readonly statementMs: number;
  /** Opening a connection: TCP, TLS and authentication (pg's connectionTimeoutMillis). */
  readonly connectMs: number;
  /** Waiting for a connection of the pool, when all are in use or one must be opened. */
  readonly acquireMs: number;
  /**
   * idle_in_transaction_session_timeout, set per transaction as well: PostgreSQL ends a session that sits inside a
   * transaction this long without a statement, releasing its locks (an instance that froze while holding a company
   * lock). 0: no limit.
   */
  readonly idleInTransactionMs: number;
}

export interface PgDatabaseSettings {
  readonly url: string;
  /** Most connections the pool opens; default 10. */
  readonly poolMax?: number;
  /** Unset: no bounds (the drivers' defaults), as migrations and tools want. */
  readonly timeouts?: PostgresTimeouts;
  /**
   * DB_PREPARED_STATEMENTS=on: the connections keep named prepared statements (ADR 22). Only for a direct
   * connection to the server or a pooler that keeps them (PgBouncer 1.21+ with max_prepared_statements).
   */
  readonly preparedStatements?: boolean;
  /** Where an idle connection's failure goes (the pool drops the connection); unheard, it would end the process. */
  readonly onIdleError?: (error: Error) => void;
}

/** How much later than the server's statement_timeout the client stops waiting for an answer. */
const CLIENT_READ_TIMEOUT_MARGIN_MS = 2_000;

/** node-postgres's error for a statement that outlived the client's query_timeout. */
const READ_TIMEOUT_MESSAGE = 'Query read timeout';

/** What a wait for a connection that ran past DB_ACQUIRE_TIMEOUT_MS fails with (store-errors.ts knows it). */
export const ACQUIRE_TIMEOUT_MESSAGE = 'Timed out waiting for a database connection';

/**
 * One database, and the one place where the service's statements meet node-postgres (ADR 25): its documented
 * Pool lends connections, `client.release(error)` destroys one that must not serve again. Every transaction and
 * every autocommit statement carries its bounds as SET LOCAL in front of it, in its own message (pgBounds), so
 * nothing stays on the server connection and a transaction pooler may hand each transaction anywhere (ADR 15).
 */
export class PgDatabase {
  readonly url: string;
  /** The SET LOCAL statements every transaction begins with, `;`-joined; empty without bounds. */
  readonly bounds: string;
  readonly keepsPreparedStatements: boolean;
  private readonly pool: pg.Pool;
  private readonly acquireMs: number | undefined;
  private closing: Promise<void> | undefined;
  /** The error listener of each lent connection (connect), removed when it is given back. */
  private readonly listeners = new WeakMap<pg.PoolClient, (error: Error) => void>();
  /** Connections lent now that must be destroyed when given back, with the reason. */
  private readonly broken = new WeakMap<pg.PoolClient, Error>();

  constructor(settings: PgDatabaseSettings) {
    const { timeouts } = settings;
    this.url = settings.url;
    this.keepsPreparedStatements = settings.preparedStatements === true;
    this.bounds = pgBounds(timeouts, this.keepsPreparedStatements);
    this.acquireMs = timeouts?.acquireMs;
    this.pool = new pg.Pool({
      ...pgConnectionOf(settings.url),
      max: settings.poolMax ?? 10,
      idleTimeoutMillis: 30_000,
      allowExitOnIdle: true,
      ...(timeouts === undefined
        ? {}
        : {
            connectionTimeoutMillis: timeouts.connectMs,
            ...(timeouts.statementMs > 0 ? { query_timeout: timeouts.statementMs + CLIENT_READ_TIMEOUT_MARGIN_MS } : {}),
          }),
    });
    this.pool.on('error', (error) => settings.onIdleError?.(error));
  }

  /**
   * A connection of the pool, within DB_ACQUIRE_TIMEOUT_MS: pg's pool bounds opening one (connectMs) and its own
   * queue by the same setting, so the wait for a busy pool is bounded here. A connection granted after the wait
   * gave up goes straight back.
   */
  async connect(): Promise<pg.PoolClient> {
    const client = await this.lend();
    // A lent connection that fails (the server ended the session: idle in transaction too long, a restart) reports
    // it on the client, and pg leaves the listening to whoever holds it; unheard, the error would end the process.
    const onError = (error: Error) => this.markBroken(client, error);
    client.on('error', onError);
    this.listeners.set(client, onError);
    return client;
  }

  private async lend(): Promise<pg.PoolClient> {
    const connecting = this.pool.connect();
    if (this.acquireMs === undefined) return connecting;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(ACQUIRE_TIMEOUT_MESSAGE)), this.acquireMs);
    });
    try {
      return await Promise.race([connecting, late]);
    } catch (error) {
      connecting.then((client) => client.release(), () => undefined);
      throw error;
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * One statement on a lent connection. A connection that must not serve again is marked so (release destroys it):
   * after the client's own read timeout (the statement may still run, or the server be gone without a word, and pg
   * would queue the next statement behind it), and after a named statement the connection can no longer use
   * (isStalePreparedStatement), which would fail every later call of it the same way.
   */
  async query(client: pg.PoolClient, config: pg.QueryConfig): Promise<pg.QueryResult | pg.QueryResult[]> {
    try {
      return (await client.query(config)) as pg.QueryResult | pg.QueryResult[];
    } catch (error) {
      if (error instanceof Error && error.message === READ_TIMEOUT_MESSAGE) this.markBroken(client, error);
      if (config.name !== undefined && isStalePreparedStatement(error)) {
        this.markBroken(client, error as Error);
        markConnectionDiscarded(error);
      }
      throw error;
    }
  }

  /** Marks a lent connection to be destroyed when it is given back: its session's state is unknown. */
  markBroken(client: pg.PoolClient, reason: Error): void {
    if (!this.broken.has(client)) this.broken.set(client, reason);
  }

  isBroken(client: pg.PoolClient): boolean {
    return this.broken.has(client);
  }

  /** Gives a connection back to the pool, or destroys it (client.release(error)) if it was marked broken. */
  release(client: pg.PoolClient): void {
    const onError = this.listeners.get(client);
    if (onError !== undefined) client.off('error', onError);
    this.listeners.delete(client);
    const reason = this.broken.get(client);
    this.broken.delete(client);
    client.release(reason);
  }

  /** Connections open, idle, and callers waiting for one: for GET /metrics. */
  stats(): { readonly total: number; readonly idle: number; readonly waiting: number } {
    return { total: this.pool.totalCount, idle: this.pool.idleCount, waiting: this.pool.waitingCount };
  }

  close(): Promise<void> {
    return (this.closing ??= this.pool.end());
  }
}

/**
 * The SET LOCAL statements of the positive bounds (whole milliseconds), and of custom plans where prepared
 * statements are kept (a prepared statement then is planned for its values at each execution, never with a generic
 * plan made once for a table that was small then, ADR 22).
 */
function pgBounds(timeouts: PostgresTimeouts | undefined, customPlans: boolean): string {
  const ms = (value: number) => String(Math.floor(value));
  return [
    ...(timeouts !== undefined && timeouts.statementMs > 0 ? [`set local statement_timeout = ${ms(timeouts.statementMs)}`] : []),
    ...(timeouts !== undefined && timeouts.idleInTransactionMs > 0 ? [`set local idle_in_transaction_session_timeout = ${ms(timeouts.idleInTransactionMs)}`] : []),
    ...(customPlans ? ['set local plan_cache_mode = force_custom_plan'] : []),
  ].join('; ');
}
