import pg from 'pg';

/**
 * The values of the service's hand-written SQL. A statement writes `?` for each value, and a `?` in it is never
 * anything else (no jsonb `?` operator, no `?` in a literal): bound, the `?` are numbered `$1`, `$2`, … in order
 * (numberedPlaceholders); inlined, each is replaced by its value as a literal (inlinedValues, pg's escapeLiteral),
 * which lets a statement share one simple-protocol message with others (its bounds, a transaction's BEGIN, ADR 23).
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

/**
 * Where date_part's float8 seconds are exact enough for epochMs: PostgreSQL subtracts 1970 from the stored
 * microseconds in int64 and divides the difference as a float8, exact below 2^53 (years 1685 to 2255); the
 * seconds and their product by 1000 then err by less than a microsecond, so rounding finds the millisecond.
 * Near the ends of timestamptz's range it misses by one (tests/postgres/epoch-milliseconds.test.ts).
 */
const FLOAT_EXACT_FROM = "timestamptz '1800-01-01 00:00:00+00'";
const FLOAT_EXACT_UNTIL = "timestamptz '2200-01-01 00:00:00+00'";

/**
 * A timestamptz column as epoch milliseconds: exact, and independent of the session's time zone. Every stored
 * instant is a whole millisecond (a JS Date's). Numeric `extract` is exact over the whole range but slow: 0.2 ms
 * of the 0.47 ms an identifier page of 500 rows took to execute (EXPLAIN ANALYZE). The years around now take
 * float8 `date_part`, exact there; the rest `extract`. A null stays null.
 */
export function epochMs(column: string): string {
  return (
    `case when ${column} >= ${FLOAT_EXACT_FROM} and ${column} < ${FLOAT_EXACT_UNTIL} then round(date_part('epoch', ${column}) * 1000)` +
    ` else round(extract(epoch from ${column}) * 1000)::float8 end`
  );
}

export function dateFromMs(ms: number): Date {
  return new Date(ms);
}

export function nullableDateFromMs(ms: number | null): Date | null {
  return ms === null ? null : new Date(ms);
}

/** `sql` with its `?` numbered `$1`, `$2`, … for pg's bound values; the count must be the values'. */
export function numberedPlaceholders(sql: string, values: number): string {
  let n = 0;
  const text = sql.replace(/\?/g, () => `$${++n}`);
  if (n !== values) throw new Error(`Expected ${n} values, saw ${values}, in the statement: ${sql.slice(0, 80)}`);
  return text;
}

/** `sql` with each `?` replaced by its value as a literal; the count must be the values'. */
export function inlinedValues(sql: string, values: readonly unknown[]): string {
  if (values.length === 0 && !sql.includes('?')) return sql;
  let n = 0;
  const text = sql.replace(/\?/g, () => literal(values[n++]));
  if (n !== values.length) throw new Error(`Expected ${n} values, saw ${values.length}, in the statement: ${sql.slice(0, 80)}`);
  return text;
}

/**
 * A value as a SQL literal: a string (a Date as its ISO 8601 text in UTC, as boundValue sends it) quoted by pg's
 * escapeLiteral, a finite number or a bigint as its digits, a boolean, null. Anything else (undefined, an array, an
 * object) is a mistake of the statement's caller: a list goes as one jsonb text (jsonb()).
 */
function literal(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'string') return pg.escapeLiteral(value);
  if (value instanceof Date) return pg.escapeLiteral(value.toISOString());
  // In parentheses when negative: `x -?` must not become the comment `x --1`.
  if ((typeof value === 'number' && Number.isFinite(value)) || typeof value === 'bigint') return value < 0 ? `(${String(value)})` : String(value);
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  throw new TypeError(`A statement value must be a string, a Date, a finite number, a boolean or null, not ${value === undefined ? 'undefined' : typeof value}.`);
}

/**
 * A value as it is sent bound to pg (executeBound): a Date as its ISO 8601 text in
 * UTC, as em.execute inlines it. pg itself would format a Date in the process's local time with the offset cut
 * to whole minutes, which moves an instant of an offset with seconds (local mean time before about 1920:
 * Asia/Almaty's 1900-06-01T00:00:00Z was stored as 00:00:48Z), so that the stored timestamp and the rendering
 * written with it disagree. The ISO text holds years 0001..9999, publishedAt's limit in the domain;
 * TIMESTAMP_PARAM is for instants a request chooses, which may lie beyond.
 */
export function boundValue(value: unknown): unknown {
  // pg would send undefined as null: a value the caller forgot, stored as nothing.
  if (value === undefined) throw new TypeError('A statement value must not be undefined.');
  return value instanceof Date ? value.toISOString() : value;
}

/** A value for a `?::jsonb` parameter. */
export function jsonb(value: unknown): string {
  return JSON.stringify(value);
}
