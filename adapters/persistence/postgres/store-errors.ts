import { StoreUnavailableError } from '../../../application/ports/store-unavailable.error.js';
import { ACQUIRE_TIMEOUT_MESSAGE } from './pg-database.js';
import { isDiscardedStaleStatement } from './prepared-statements.js';

/** Socket errors of Node: the server is down, restarting or unreachable. */
const SOCKET_ERRORS = new Set([
  'ECONNREFUSED', 'ECONNRESET', 'ECONNABORTED', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN',
]);

/**
 * SQLSTATEs that say the server, not the statement, failed: 57P01 admin_shutdown (a fast shutdown ends
 * every session), 57P02 crash_shutdown, 57P03 cannot_connect_now (starting up or shutting down), 57014
 * query_canceled (statement_timeout), 53300 too_many_connections, 25P03 and 57P05 (a session ended by
 * idle_in_transaction_session_timeout or idle_session_timeout). Class 08 (connection exception) is
 * matched by its prefix.
 */
const UNAVAILABLE_SQLSTATES = new Set(['57P01', '57P02', '57P03', '57014', '53300', '25P03', '57P05']);
/**
 * Of those, the ones that end this work only (a statement or idle-in-transaction timeout): the server answers. And
 * a prepared statement the connection can no longer use (26000, 0A000 of a stale plan: isDiscardedStaleStatement,
 * ADR 22), whose connection was discarded for it: the work goes through when retried on another.
 */
const WORK_ONLY_SQLSTATES = new Set(['57014', '25P03', '26000', '0A000']);

/**
 * What node-postgres and its pool say, without a code, when a connection breaks or a wait runs out: the
 * socket closed under a query, a query on a client that already broke, the client-side query_timeout,
 * the connect timeout, a wait for a connection of a busy pool (pg's queue, or DB_ACQUIRE_TIMEOUT_MS in
 * PgDatabase.connect), a pool that was ended. Matched against the whole message, so that no other error's
 * text can pass for one of these.
 */
const UNAVAILABLE_MESSAGES: ReadonlyMap<string, string> = new Map([
  ['Connection terminated unexpectedly', 'connection_terminated'],
  ['Connection terminated', 'connection_terminated'],
  ['Connection terminated due to connection timeout', 'connect_timeout'],
  ['timeout expired', 'connect_timeout'],
  ['Client has encountered a connection error and is not queryable', 'connection_broken'],
  ['Client was closed and is not queryable', 'connection_broken'],
  ['Query read timeout', 'query_timeout'],
  ['timeout exceeded when trying to connect', 'pool_timeout'],
  [ACQUIRE_TIMEOUT_MESSAGE, 'pool_timeout'],
  ['Cannot use a pool after calling end on the pool', 'pool_closed'],
]);

/** A SQLSTATE: the server answered, so another one than those above is no outage. */
const SQLSTATE = /^[0-9A-Z]{5}$/;

/**
 * Why `error` means the database cannot be reached, as a code safe to log; null when it is something
 * else (a constraint, a syntax error, a bug), which must stay what it is. Looks through `cause` and the
 * `errors` of an AggregateError (a connection attempt to several addresses).
 */
export function unavailabilityReason(error: unknown, depth = 0): string | null {
  if (depth > 4 || typeof error !== 'object' || error === null) return null;
  if (error instanceof StoreUnavailableError) return error.reason;
  const { code, message, cause, errors } = error as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown };
  if (typeof code === 'string') {
    if (isDiscardedStaleStatement(error)) return code;
    if (SOCKET_ERRORS.has(code) || UNAVAILABLE_SQLSTATES.has(code) || /^08[0-9A-Z]{3}$/.test(code)) return code;
    if (SQLSTATE.test(code)) return null;
  }
  if (typeof message === 'string') {
    const reason = UNAVAILABLE_MESSAGES.get(message);
    if (reason !== undefined) return reason;
  }
  if (Array.isArray(errors)) {
    for (const inner of errors) {
      const reason = unavailabilityReason(inner, depth + 1);
      if (reason !== null) return reason;
    }
  }
  return unavailabilityReason(cause, depth + 1);
}

/** The error as the ports promise it: a StoreUnavailableError for a connection-level failure, otherwise unchanged. */
export function translateStoreError(error: unknown): unknown {
  if (error instanceof StoreUnavailableError) return error;
  const reason = unavailabilityReason(error);
  return reason === null ? error : new StoreUnavailableError(reason, { cause: error, workOnly: WORK_ONLY_SQLSTATES.has(reason) });
}

/** Runs a call on the database and translates what it throws (see translateStoreError). */
export async function storeCall<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw translateStoreError(error);
  }
}
