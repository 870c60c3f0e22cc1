import { createHash } from 'node:crypto';

const names = new Map<string, string>();

/**
 * The name a reusable statement is prepared under: derived from its text, so that every connection and every
 * instance names one text alike, and two texts never share a name. Only statements whose text is the same on
 * every call are named (executeReusable), so the map, like each connection's statements, holds a few dozen.
 */
export function preparedName(text: string): string {
  let name = names.get(text);
  if (name === undefined) {
    name = `ia_${createHash('sha256').update(text).digest('hex').slice(0, 24)}`;
    names.set(text, name);
  }
  return name;
}

/**
 * The server's answer to a named statement that the connection can no longer use, whatever the values: 26000
 * (the session lost it: a DISCARD ALL or DEALLOCATE behind the driver's back, a pooler that does not keep it), or
 * 0A000 "cached plan must not change result type" (a migration changed the type of a column it returns; the server
 * will not re-plan it). node-postgres keeps sending it by name, so the connection would fail it every time: it is
 * destroyed (PgDatabase.query), the error marked so (markConnectionDiscarded), and the work reported as one to
 * retry (store-errors.ts). 0A000 (feature_not_supported) otherwise names a mistake of a statement, which must stay
 * what it is: only the stale plan's counts, known by the server's function that raises it (`routine`, never
 * translated) or by its English message (a server with another lc_messages words it otherwise).
 */
export function isStalePreparedStatement(error: unknown): boolean {
  const { code, message, routine } = (error ?? {}) as { code?: unknown; message?: unknown; routine?: unknown };
  if (code === '26000') return true;
  return code === '0A000' && (routine === STALE_PLAN_ROUTINE || message === STALE_PLAN_MESSAGE);
}

const STALE_PLAN_ROUTINE = 'RevalidateCachedQuery';
const STALE_PLAN_MESSAGE = 'cached plan must not change result type';

/** Marks the error of a statement whose connection was discarded for it: retried, the work gets another. */
export function markConnectionDiscarded(error: unknown): void {
  if (typeof error === 'object' && error !== null) Object.defineProperty(error, CONNECTION_DISCARDED, { value: true });
}

/** Whether `error` is a stale prepared statement's (isStalePreparedStatement) whose connection was discarded for it. */
export function isDiscardedStaleStatement(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as Record<string, unknown>)[CONNECTION_DISCARDED] === true;
}

const CONNECTION_DISCARDED = 'connectionDiscarded';
