const DAY_MS = 86_400_000;
/** The moments whose wire form has a four-digit year: from 0000-01-01 to the end of 9999. */
const FOUR_DIGIT_YEARS = { from: Date.parse('0000-01-01T00:00:00.000Z'), to: Date.parse('9999-12-31T23:59:59.999Z') } as const;
/** The characters of every wire timestamp within FOUR_DIGIT_YEARS. */
const FOUR_DIGIT_YEAR_LENGTH = 24;

const TWO_DIGITS = Array.from({ length: 60 }, (_, n) => String(n).padStart(2, '0'));
const THREE_DIGITS = Array.from({ length: 1_000 }, (_, n) => String(n).padStart(3, '0'));

/** The last day formatted, `YYYY-MM-DDT`: the records of a page are mostly stamped within a few days. */
let lastDay = Number.NaN;
let lastDayText = '';

/**
 * The wire form of every timestamp (DESIGN 3): `YYYY-MM-DDTHH:mm:ss.sssZ`, milliseconds and Z always present;
 * toISOString's text. An identifier page writes 500 of them: the date is formatted once a day, the time of day
 * from tables, four times faster than toISOString each time (bench/README.md, the identifier pass).
 */
export function isoTimestamp(date: Date): string {
  const ms = date.getTime();
  if (!(ms >= FOUR_DIGIT_YEARS.from && ms <= FOUR_DIGIT_YEARS.to)) return date.toISOString();
  const day = Math.floor(ms / DAY_MS);
  if (day !== lastDay) {
    lastDayText = date.toISOString().slice(0, 11);
    lastDay = day;
  }
  let rest = ms - day * DAY_MS;
  const milliseconds = rest % 1_000;
  rest = (rest - milliseconds) / 1_000;
  const seconds = rest % 60;
  rest = (rest - seconds) / 60;
  const minutes = rest % 60;
  const hours = (rest - minutes) / 60;
  return `${lastDayText}${TWO_DIGITS[hours]}:${TWO_DIGITS[minutes]}:${TWO_DIGITS[seconds]}.${THREE_DIGITS[milliseconds]}Z`;
}

/** isoTimestamp(date).length (all ASCII: its UTF-8 bytes too), without writing it where the year has four digits. */
export function isoTimestampLength(date: Date): number {
  const ms = date.getTime();
  return ms >= FOUR_DIGIT_YEARS.from && ms <= FOUR_DIGIT_YEARS.to ? FOUR_DIGIT_YEAR_LENGTH : date.toISOString().length;
}

export function isoTimestampOrNull(date: Date | null): string | null {
  return date === null ? null : isoTimestamp(date);
}
