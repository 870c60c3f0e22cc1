import { createHash } from 'node:crypto';
import type pg from 'pg';

/**
 * Connections whose pool was told that they keep named prepared statements (DB_PREPARED_STATEMENTS=on, ADR 22):
 * a direct connection to PostgreSQL, or one through a pooler that keeps a client's prepared statements across
 * server connections (PgBouncer 1.21 and later with `max_prepared_statements`). Nothing else is marked: behind a
 * transaction pooler that does not (PgBouncer 1.18), a statement prepared in one transaction would be met on
 * another server connection in the next (ADR 15).
 */
const keeping = new WeakSet<pg.Client>();

export function keepPreparedStatements(connection: pg.Client): void {
  keeping.add(connection);
}

export function keepsPreparedStatements(connection: pg.Client): boolean {
  return keeping.has(connection);
}

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
