import type pg from 'pg';

const READ_TIMEOUT_MESSAGE = 'Query read timeout';

type QueryCallback = (error: Error | null, result: unknown) => void;

/**
 * The knex pool's `afterCreate` hook: a connection on which a query ran past the client-side
 * `query_timeout` is closed at once. node-postgres reports the timeout but keeps the connection, with the
 * query still waiting for an answer; when the server is gone without a word (a network partition, a
 * frozen host) every later query on that connection would wait as long again. Closing its socket makes
 * knex drop it from the pool (it marks a connection that ended as disposed), and the next call opens a
 * fresh one, bounded by the connect timeout.
 */
export function closeConnectionOnReadTimeout(connection: pg.Client, done: (error: Error | null, connection: pg.Client) => void): void {
  const query = connection.query.bind(connection) as (...args: unknown[]) => unknown;
  const guarded = (...args: unknown[]): unknown => {
    const callback = args.at(-1);
    if (typeof callback !== 'function') return query(...args);
    const onAnswer: QueryCallback = (error, result) => {
      if (error?.message === READ_TIMEOUT_MESSAGE) connection.connection.stream.destroy();
      (callback as QueryCallback)(error, result);
    };
    return query(...args.slice(0, -1), onAnswer);
  };
  Object.defineProperty(connection, 'query', { value: guarded, configurable: true, writable: true });
  done(null, connection);
}
