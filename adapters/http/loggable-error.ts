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
    stack: [`${e.name}: [message withheld]`, ...frames].join('\n'),
  };
}

const SQLSTATE = /^[0-9A-Z]{5}$/;

function isDatabaseError(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const e = error as Record<string, unknown>;
  return 'sql' in e || 'query' in e || (typeof e.code === 'string' && SQLSTATE.test(e.code) && 'severity' in e);
}
