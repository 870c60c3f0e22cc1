import type pg from 'pg';

/** The server-side bounds of PostgresTimeouts that this module applies; 0 leaves a setting at the server's value. */
export interface TransactionBounds {
  readonly statementMs: number;
  readonly idleInTransactionMs: number;
  /**
   * plan_cache_mode = force_custom_plan as well (DB_PREPARED_STATEMENTS=on, ADR 22): a prepared statement is
   * planned for its values and the tables as they are at each execution, never with a generic plan made once
   * for a table that was small then (a sequential scan it would keep as the table grows).
   */
  readonly customPlans?: boolean;
}

type Callback = (error: Error | null, result: unknown) => void;
type Send = (config: QueryConfig, callback: Callback) => void;

interface QueryConfig {
  readonly text: string;
  readonly values?: readonly unknown[];
  readonly name?: string;
  readonly [option: string]: unknown;
}

/**
 * Sets statement_timeout and idle_in_transaction_session_timeout on every transaction of one pg connection
 * of a knex pool (its `afterCreate` hook), with SET LOCAL: they end with their transaction and leave
 * nothing on the server connection, so they hold behind a transaction pooler, which hands each transaction
 * to whichever server connection is free (ADR 15). No extra round trip: a plain-text statement that the
 * session receives while idle (a BEGIN, an autocommit statement) carries them in front of it, in the same
 * simple-protocol message, which PostgreSQL runs as one transaction block, so SET LOCAL covers what
 * follows (a BEGIN there turns that block into the explicit transaction and keeps them). Statements inside
 * a transaction block go as they are. A statement with bind values (extended protocol, which carries one
 * statement a message) sent while idle runs in a transaction of its own: two more round trips, which
 * MikroORM never causes (it inlines values; knex's bound statements run inside units of work).
 *
 * A transaction's BEGIN is not sent alone either: it is answered here and goes in front of the
 * transaction's first statement, in its message (SET LOCAL …; BEGIN …; the statement), which saves every
 * transaction a round trip (a unit of work's first statement takes the company lock). Whatever fails
 * there fails that statement, inside the explicit transaction, which the caller then rolls back as it
 * would have after a BEGIN of its own; a first statement with bind values gets the BEGIN in a message of
 * its own before it, as before.
 *
 * Calls are taken one at a time, so that each is decided on the state the server reported after the
 * previous one (knex never overlaps calls on a connection; pg would queue them in the same order anyway).
 */
export function boundEveryTransaction(connection: pg.Client, bounds: TransactionBounds): void {
  const settings = settingsOf(bounds);
  if (settings.length === 0) return;
  const prefix = settings.join('; ');
  // I: idle, T: in a transaction block, E: in a failed one (ReadyForQuery).
  let status = 'I';
  connection.connection.on('readyForQuery', (message: { status?: string }) => {
    if (typeof message.status === 'string') status = message.status;
  });
  const query = connection.query.bind(connection) as unknown as (config: QueryConfig | string, callback: Callback) => void;
  // A config of a text alone goes to pg as that text, which pg takes as it is (an object it copies, property by property).
  const send: Send = (config, callback) => query(Object.keys(config).length === 1 ? config.text : config, callback);
  /** Whether a call is being decided or answered; calls made meanwhile wait in `waiting`, in order. */
  let busy = false;
  const waiting: (() => void)[] = [];
  // The next waiting call is decided after whatever else the connection reads now (a ReadyForQuery behind the
  // ErrorResponse that called back a failed statement), as a call made by the caller's continuation would be.
  const release = (): void => {
    const next = waiting.shift();
    if (next === undefined) busy = false;
    else queueMicrotask(next);
  };

  /** The BEGIN answered here and not sent yet (the server is idle): it goes with the next statement. */
  let begin: string | null = null;

  const decide = (config: QueryConfig, callback: Callback): void => {
    // A COMMIT or ROLLBACK ends the transaction block whether it succeeds or fails (a COMMIT refused by a deferred
    // constraint rolls back). pg calls back a failure at the ErrorResponse, possibly before the ReadyForQuery that
    // says so has been read: the next call must not be decided as inside a transaction (its BEGIN would go
    // without the bounds).
    if (status !== 'I' && TRANSACTION_END.test(config.text)) {
      return send(config, (error, result) => {
        status = 'I';
        callback(error, result);
      });
    }
    if (status !== 'I') return send(config, callback);
    const bound = (config.values?.length ?? 0) > 0 || config.name !== undefined;
    if (!bound && begin === null && BEGIN.test(config.text)) {
      begin = config.text.trim().replace(/;+$/, '');
      return queueMicrotask(() => callback(null, begun()));
    }
    const lead = begin === null ? prefix : `${prefix}; ${begin}`;
    const skipped = begin === null ? settings.length : settings.length + 1;
    const inTransaction = begin !== null;
    begin = null;
    // The server is inside the transaction from this message on. pg calls back a failed statement at its
    // ErrorResponse, before the ReadyForQuery that says so: the ROLLBACK that follows must go as it is.
    if (inTransaction) status = 'T';
    if (!bound) return send({ ...config, text: `${lead}; ${config.text}` }, (error, result) => callback(error, error ? result : withoutFirst(result, skipped)));
    if (inTransaction) {
      return send({ text: lead }, (beginError) => (beginError ? callback(beginError, undefined) : send(config, callback)));
    }
    send({ text: `${prefix}; begin` }, (beginError) => {
      if (beginError) return callback(beginError, undefined);
      send(config, (error, result) => {
        send({ text: error ? 'rollback' : 'commit' }, (endError) => callback(error ?? endError, result));
      });
    });
  };

  const bounded = (...args: unknown[]): unknown => {
    const callback = args.at(-1);
    const config = queryConfigOf(args);
    if (typeof callback !== 'function' || config === null) return (query as unknown as (...a: unknown[]) => unknown)(...args);
    const take = (): void => {
      let answered = false;
      // A call the caller makes from its callback waits: the rest of what the connection reads now comes first.
      const answer: Callback = (error, result) => {
        answered = true;
        try {
          (callback as Callback)(error, result);
        } finally {
          release();
        }
      };
      try {
        decide(config, answer);
      } catch (error) {
        // Thrown by the caller's own callback: not answered twice.
        if (answered) throw error;
        answer(error as Error, undefined);
      }
    };
    if (busy) waiting.push(take);
    else {
      busy = true;
      take();
    }
    return undefined;
  };
  Object.defineProperty(connection, 'query', { value: bounded, configurable: true, writable: true });
}

/**
 * The end of a transaction block as knex sends it (`COMMIT;`, `ROLLBACK`); not `ROLLBACK TO SAVEPOINT …`, and not a
 * message of statements that ends in a COMMIT (the unit of work's deferred statements in front of it, ADR 23): one
 * of those may fail and leave the transaction aborted, its COMMIT unrun, and the ROLLBACK that follows must then go
 * as it is; the ReadyForQuery after such a message gives the state.
 */
const TRANSACTION_END = /^\s*(commit|rollback)\s*;?\s*$/i;

/** A transaction's opening statement as knex sends it (`BEGIN;`, `BEGIN TRANSACTION ISOLATION LEVEL …;`). */
const BEGIN = /^\s*begin\b[^;]*;?\s*$/i;

/** What pg answers a BEGIN with, for the BEGIN answered here. */
function begun(): unknown {
  return { command: 'BEGIN', rowCount: null, oid: null, rows: [], fields: [] };
}

/** The SET LOCAL statements of the positive bounds (whole milliseconds, as the settings take them), and of custom plans. */
function settingsOf(bounds: TransactionBounds): string[] {
  const ms = (value: number) => String(Math.floor(value));
  return [
    ...(bounds.statementMs > 0 ? [`set local statement_timeout = ${ms(bounds.statementMs)}`] : []),
    ...(bounds.idleInTransactionMs > 0 ? [`set local idle_in_transaction_session_timeout = ${ms(bounds.idleInTransactionMs)}`] : []),
    ...(bounds.customPlans === true ? ['set local plan_cache_mode = force_custom_plan'] : []),
  ];
}

/** knex calls query({ text, values }, callback); a plain (text, callback) or (text, values, callback) is taken too. */
function queryConfigOf(args: readonly unknown[]): QueryConfig | null {
  const [first, second] = args;
  if (typeof first === 'string') return { text: first, ...(Array.isArray(second) ? { values: second } : {}) };
  if (typeof first === 'object' && first !== null && typeof (first as QueryConfig).text === 'string' && typeof (first as { submit?: unknown }).submit !== 'function') {
    return first as QueryConfig;
  }
  return null;
}

/** pg answers a message of several statements with one result each: the caller sees only its own. */
function withoutFirst(result: unknown, count: number): unknown {
  if (!Array.isArray(result)) return result;
  const own = result.slice(count);
  return own.length === 1 ? own[0] : own;
}
