/**
 * What of an unexpected error may be logged. A database error carries the SQL and, in its message,
 * often the values of the request (names, e-mails): of those only the structured identifiers (SQLSTATE,
 * constraint, table, column) and the stack frames are kept. Any other error is logged whole.
 */
export function loggableError(error: unknown): unknown {
  if (!isDatabaseError(error)) return error;
  const e = error as Record<string, unknown> & Error;
  const frames = (e.stack ?? '').split('\n').filter((line) => line.trimStart().startsWith('at '));
  const pick = (name: string) => (typeof e[name] === 'string' ? { [name]: e[name] } : {});
  return {
    type: e.name,
    message: '[database error: message withheld, it may quote request data]',
    ...pick('code'),
    ...pick('constraint'),
    ...pick('table'),
    ...pick('column'),
    ...pick('routine'),
    ...(typeof e.code === 'string' && PREPARED_STATEMENT_MISMATCH.has(e.code) ? { hint: PREPARED_STATEMENT_HINT } : {}),
    stack: [`${e.name}: [message withheld]`, ...frames].join('\n'),
  };
}

const SQLSTATE = /^[0-9A-Z]{5}$/;
/** duplicate_prepared_statement, invalid_sql_statement_name: a connection that does not hold the statements it made. */
const PREPARED_STATEMENT_MISMATCH = new Set(['42P05', '26000']);
const PREPARED_STATEMENT_HINT =
  'a connection met prepared statements it did not make, or lost its own: DB_PREPARED_STATEMENTS=on behind a pooler that does not keep them (PgBouncer before 1.21 or without max_prepared_statements; ADR 22)? Turn it off there.';

function isDatabaseError(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const e = error as Record<string, unknown>;
  return 'sql' in e || 'query' in e || (typeof e.code === 'string' && SQLSTATE.test(e.code) && 'severity' in e);
}
