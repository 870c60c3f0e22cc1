/**
 * The written forms of `since` (DESIGN 3). The OpenAPI document publishes these very patterns, each beside
 * JSON Schema's `date` or `date-time` format, and parseSince accepts exactly what pattern and format admit
 * together: the pattern fixes the shape and the field ranges, the format the calendar and the leap second.
 * Years 0000..9999, any fraction of a second, T or t or a space between date and time, Z or z or an offset
 * written ±hh:mm. An offset without its colon (+0500) or its minutes (+05) is not RFC 3339 and is refused.
 */
export const SINCE_DATE_PATTERN = '^([0-9]{4})-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])$';
export const SINCE_DATE_TIME_PATTERN =
  '^([0-9]{4})-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])[Tt ]([01][0-9]|2[0-3]):([0-5][0-9]):([0-5][0-9]|60)(\\.[0-9]+)?' +
  '([Zz]|[+-](?:[01][0-9]|2[0-3]):[0-5][0-9])$';
/** The values that mean "no filter". */
export const SINCE_NO_FILTER: readonly string[] = ['', 'null'];

const DATE_ONLY = new RegExp(SINCE_DATE_PATTERN);
const DATE_TIME = new RegExp(SINCE_DATE_TIME_PATTERN);
const MINUTE_MS = 60_000;

/**
 * Reads the `since` parameter: an RFC 3339 date-time with a time zone, or a date (midnight UTC). Empty or the
 * literal `null` gives null (no filter); anything else gives undefined. Fractions finer than a millisecond are
 * cut, as stored timestamps have millisecond precision. A leap second (second 60, valid only where the time is
 * 23:59 in UTC) is read as 23:59:59.999 UTC, the last instant of that minute a millisecond clock can name, so
 * that "strictly later than since" still leaves out everything up to the leap second and keeps what follows.
 */
export function parseSince(text: string): Date | null | undefined {
  if (SINCE_NO_FILTER.includes(text)) return null;
  const dateOnly = DATE_ONLY.exec(text);
  if (dateOnly) return utcInstant(Number(dateOnly[1]), Number(dateOnly[2]), Number(dateOnly[3]), 0, 0, 0);
  const m = DATE_TIME.exec(text);
  if (!m) return undefined;
  const second = Number(m[6]);
  const fraction = m[7] === undefined ? 0 : Number(m[7].slice(1, 4).padEnd(3, '0'));
  const wall = utcInstant(Number(m[1]), Number(m[2]), Number(m[3]), Number(m[4]), Number(m[5]), 0);
  if (wall === undefined) return undefined;
  const instant = new Date(wall.getTime() - offsetMinutes(m[8] as string) * MINUTE_MS);
  if (second < 60) return new Date(instant.getTime() + second * 1000 + fraction);
  if (instant.getUTCHours() !== 23 || instant.getUTCMinutes() !== 59) return undefined;
  return new Date(instant.getTime() + MINUTE_MS - 1);
}

/** Minutes east of UTC; the pattern has already bounded hours to 23 and minutes to 59. */
function offsetMinutes(zone: string): number {
  if (zone === 'Z' || zone === 'z') return 0;
  const sign = zone.startsWith('-') ? -1 : 1;
  return sign * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(4, 6)));
}

/** The instant of a wall-clock time read as UTC, or undefined for a day the calendar does not have. */
function utcInstant(year: number, month: number, day: number, hour: number, minute: number, second: number): Date | undefined {
  // Date.UTC reads years 0..99 as 1900..1999; setUTCFullYear takes the year as written (0001-01-01 is Go's zero time).
  const date = new Date(Date.UTC(2000, 0, 1, hour, minute, second));
  date.setUTCFullYear(year, month - 1, day);
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return undefined;
  return date;
}
