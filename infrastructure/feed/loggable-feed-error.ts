/** Fields of an error that are identifiers (codes, names of schema objects), never values. */
const IDENTIFIERS = ['code', 'errno', 'sqlState', 'constraint', 'table', 'column', 'routine'] as const;

/**
 * What of an error the feed may log: its name, its identifiers and its stack frames, never its message nor
 * anything it wraps. Every event the feed handles carries personal data, and an error from deep down quotes
 * it: MikroORM's message inlines the statement with the event's values, PostgreSQL's `detail` repeats the key
 * (`Key (email)=(...)`), JSON.parse quotes its input. The stack frames and the event's id (logged beside it)
 * are what finds the bug; the event itself is in the queue.
 *
 * Not `loggableError` of the HTTP adapter: that one keeps the message of any error a driver did not make, and
 * the object it returns holds a `message`, so pino's error serializer takes it for an error and renames its
 * type to "Object". This one has no `message`: pino logs it as it is.
 */
export function loggableFeedError(error: unknown): Record<string, unknown> {
  // A thrown value that is not an error may be anything, the event's data included: only its kind.
  if (!(error instanceof Error)) return { type: error === null ? 'null' : typeof error };
  const fields = error as unknown as Record<string, unknown>;
  const kept: Record<string, unknown> = { type: error.name };
  for (const name of IDENTIFIERS) {
    const value = fields[name];
    if (typeof value === 'string' || typeof value === 'number') kept[name] = value;
  }
  kept.stack = [`${error.name}: [message withheld: it may quote the event]`, ...framesOf(error)].join('\n');
  return kept;
}

/** The `at ...` lines of the stack, after its first line(s): the message, which may span several. */
function framesOf(error: Error): string[] {
  let stack = typeof error.stack === 'string' ? error.stack : '';
  const header = `${error.name}: ${error.message}`;
  if (stack.startsWith(header)) stack = stack.slice(header.length);
  else if (error.message !== '') stack = stack.split(error.message).join('');
  return stack.split('\n').filter((line) => /^\s+at \S/.test(line));
}
