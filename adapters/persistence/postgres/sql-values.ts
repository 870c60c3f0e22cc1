/**
 * Helpers for the hand-written SQL of list queries and conflict-aware inserts. MikroORM's `execute`
 * inlines `?` parameters as escaped literals (pg escapeLiteral; dates as ISO 8601 in UTC, since the
 * ORM runs with forceUtcTimezone).
 */

/** A timestamptz column as epoch milliseconds: exact, and independent of the session's time zone. */
export function epochMs(column: string): string {
  return `round(extract(epoch from ${column}) * 1000)::float8`;
}

export function dateFromMs(ms: number): Date {
  return new Date(ms);
}

export function nullableDateFromMs(ms: number | null): Date | null {
  return ms === null ? null : new Date(ms);
}

/** A value for a `?::jsonb` parameter. */
export function jsonb(value: unknown): string {
  return JSON.stringify(value);
}
