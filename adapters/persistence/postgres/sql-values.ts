/**
 * Helpers for the hand-written SQL of list queries and conflict-aware inserts. MikroORM's `execute`
 * inlines `?` parameters as escaped literals (pg escapeLiteral; dates as ISO 8601 in UTC, since the
 * ORM runs with forceUtcTimezone).
 */

const MS_PER_HOUR = 3_600_000;

/**
 * An exact timestamptz built from the two `?` that timestampParams gives, for an instant a request chose
 * (since, a cursor's position). A Date inlined as its ISO string fails outside years 0001..9999 ("0000-…",
 * "-000001-…", "+010000-…"), though timestamptz holds 4713 BC to 294276 AD. A number is inlined as its
 * digits. Interval products go through float8: milliseconds times 1 ms lose microseconds beyond about year
 * 4250 (and before 300 BC), whole hours times 1 h plus the rest of the hour in ms stay exact over the whole
 * range. Every step is immutable, so the planner folds it to a constant that the column's index serves;
 * `timestamp` plus an interval does not depend on the session's time zone.
 */
export const TIMESTAMP_PARAM = "((timestamp 'epoch' + ? * interval '1 hour' + ? * interval '1 millisecond') at time zone 'UTC')";

/** The parameters of TIMESTAMP_PARAM for `date`: whole hours since the epoch, then milliseconds 0..3599999. */
export function timestampParams(date: Date): [number, number] {
  const ms = date.getTime();
  if (!Number.isSafeInteger(ms)) throw new RangeError('A timestamp parameter must be a valid Date.');
  const hours = Math.floor(ms / MS_PER_HOUR);
  return [hours, ms - hours * MS_PER_HOUR];
}

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

/**
 * A value as it is sent bound to pg (executeBound, insertMany's knex insert): a Date as its ISO 8601 text in
 * UTC, as em.execute inlines it. pg itself would format a Date in the process's local time with the offset cut
 * to whole minutes, which moves an instant of an offset with seconds (local mean time before about 1920:
 * Asia/Almaty's 1900-06-01T00:00:00Z was stored as 00:00:48Z), so that the stored timestamp and the rendering
 * written with it disagree. The ISO text holds years 0001..9999, publishedAt's limit in the domain;
 * TIMESTAMP_PARAM is for instants a request chooses, which may lie beyond.
 */
export function boundValue(value: unknown): unknown {
  return value instanceof Date ? value.toISOString() : value;
}

/** Columns and values for a knex insert, each value as boundValue sends it. */
export function boundColumns(columns: Readonly<Record<string, unknown>>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(columns).map(([column, value]) => [column, boundValue(value)]));
}

/** A value for a `?::jsonb` parameter. */
export function jsonb(value: unknown): string {
  return JSON.stringify(value);
}
