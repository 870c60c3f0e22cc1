import fc from 'fast-check';

/**
 * An independent model of `since` values: RFC 3339 text built from its parts, and the instant it names,
 * computed with plain integer arithmetic over the proleptic Gregorian calendar (no Date parsing), so that
 * a test can tell what the service should answer without asking the code under test.
 */
export interface DateTimeParts {
  readonly year: number;
  readonly month: number;
  readonly day: number;
  /** A date YYYY-MM-DD (midnight UTC) rather than a date-time. */
  readonly dateOnly: boolean;
  readonly hour: number;
  readonly minute: number;
  readonly second: number;
  /** The digits after the decimal point, '' for none. */
  readonly fraction: string;
  readonly separator: 'T' | 't' | ' ';
  /** 'Z', 'z' or a numeric offset. */
  readonly zone: 'Z' | 'z' | { readonly sign: '+' | '-'; readonly hours: number; readonly minutes: number };
}

const MS_PER_DAY = 86_400_000;

/** Days from 1970-01-01 to a date of the proleptic Gregorian calendar, for any year (eras of 400 years). */
export function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const monthFromMarch = (month + 9) % 12;
  const dayOfYear = Math.floor((153 * monthFromMarch + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146_097 + dayOfEra - 719_468;
}

export function daysInMonth(year: number, month: number): number {
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1] as number;
}

function offsetMinutes(parts: DateTimeParts): number {
  if (parts.dateOnly || typeof parts.zone === 'string') return 0;
  return (parts.zone.sign === '-' ? -1 : 1) * (parts.zone.hours * 60 + parts.zone.minutes);
}

/** The epoch milliseconds the text names; digits past the millisecond are cut, as stored times have none. */
export function instantOf(parts: DateTimeParts): number {
  const days = daysFromCivil(parts.year, parts.month, parts.day);
  if (parts.dateOnly) return days * MS_PER_DAY;
  const ms = Number(parts.fraction.slice(0, 3).padEnd(3, '0'));
  return days * MS_PER_DAY + ((parts.hour * 60 + parts.minute) * 60 + parts.second) * 1000 + ms - offsetMinutes(parts) * 60_000;
}

/** RFC 3339 allows it: a four-digit year, a day of that month, a second below 60 (leap seconds aside). */
export function isValidRfc3339(parts: DateTimeParts): boolean {
  return parts.year >= 0 && parts.year <= 9999 && parts.day <= daysInMonth(parts.year, parts.month) && (parts.dateOnly || parts.second <= 59);
}

export function isLeapSecond(parts: DateTimeParts): boolean {
  return !parts.dateOnly && parts.second === 60;
}

const two = (n: number) => String(n).padStart(2, '0');

export function formatParts(parts: DateTimeParts): string {
  const date = `${String(parts.year).padStart(4, '0')}-${two(parts.month)}-${two(parts.day)}`;
  if (parts.dateOnly) return date;
  const zone = typeof parts.zone === 'string' ? parts.zone : `${parts.zone.sign}${two(parts.zone.hours)}:${two(parts.zone.minutes)}`;
  const fraction = parts.fraction === '' ? '' : `.${parts.fraction}`;
  return `${date}${parts.separator}${two(parts.hour)}:${two(parts.minute)}:${two(parts.second)}${fraction}${zone}`;
}

/**
 * The text of `instant` as seen at `offset` minutes east of UTC, with `extraDigits` past the millisecond.
 * The wall-clock reading comes from Date's UTC getters, which cover years 0..9999 of the proleptic calendar.
 */
export function partsAt(instant: number, offset: number, extraDigits: string): DateTimeParts {
  const wall = new Date(instant + offset * 60_000);
  const magnitude = Math.abs(offset);
  return {
    year: wall.getUTCFullYear(),
    month: wall.getUTCMonth() + 1,
    day: wall.getUTCDate(),
    dateOnly: false,
    hour: wall.getUTCHours(),
    minute: wall.getUTCMinutes(),
    second: wall.getUTCSeconds(),
    fraction: `${String(wall.getUTCMilliseconds()).padStart(3, '0')}${extraDigits}`,
    separator: 'T',
    zone: offset === 0 ? 'Z' : { sign: offset < 0 ? '-' : '+', hours: Math.floor(magnitude / 60), minutes: magnitude % 60 },
  };
}

const digits = (maxLength: number) => fc.string({ unit: fc.constantFrom(...'0123456789'), maxLength });

export const zones: fc.Arbitrary<DateTimeParts['zone']> = fc.oneof(
  fc.constantFrom('Z' as const, 'z' as const),
  fc.record({ sign: fc.constantFrom('+' as const, '-' as const), hours: fc.integer({ min: 0, max: 23 }), minutes: fc.integer({ min: 0, max: 59 }) }),
  fc.constantFrom({ sign: '+' as const, hours: 23, minutes: 59 }, { sign: '-' as const, hours: 23, minutes: 59 }, { sign: '-' as const, hours: 12, minutes: 0 }),
);

/** Dates and date-times from year 0 to 10000 (one year too far), with days up to 31 and leap seconds: valid or not. */
export const dateTimeParts: fc.Arbitrary<DateTimeParts> = fc.record({
  year: fc.oneof(fc.integer({ min: 0, max: 10_000 }), fc.constantFrom(0, 1, 9999, 10_000)),
  month: fc.integer({ min: 1, max: 12 }),
  day: fc.oneof(fc.integer({ min: 1, max: 28 }), fc.integer({ min: 29, max: 31 })),
  dateOnly: fc.boolean(),
  hour: fc.oneof(fc.integer({ min: 0, max: 23 }), fc.constantFrom(0, 23)),
  minute: fc.oneof(fc.integer({ min: 0, max: 59 }), fc.constantFrom(0, 59)),
  second: fc.oneof({ weight: 8, arbitrary: fc.integer({ min: 0, max: 59 }) }, { weight: 1, arbitrary: fc.constantFrom(0, 59, 60) }),
  fraction: digits(9),
  separator: fc.constantFrom('T' as const, 't' as const, ' ' as const),
  zone: zones,
});

/** Offsets in minutes east of UTC that RFC 3339 can write: -23:59 .. +23:59. */
export const offsetsInMinutes = fc.oneof(fc.integer({ min: -(23 * 60 + 59), max: 23 * 60 + 59 }), fc.constantFrom(0, 300, -720, 23 * 60 + 59, -(23 * 60 + 59)));

export const extraFractionDigits = digits(6);
