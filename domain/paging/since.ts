const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?([Zz]|[+-]\d{2}:\d{2})$/;
const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * Reads the `since` parameter (DESIGN 3): an RFC 3339 date-time with a timezone (any offset), or a date
 * (midnight UTC). Empty or the literal `null` means no filter and gives null. Anything else gives undefined.
 * Fractions finer than a millisecond are cut, as stored timestamps have millisecond precision.
 */
export function parseSince(text: string): Date | null | undefined {
  if (text === '' || text === 'null') return null;
  const dateOnly = DATE_ONLY.exec(text);
  if (dateOnly) return validDate(Number(dateOnly[1]), Number(dateOnly[2]), Number(dateOnly[3]), 0, 0, 0, 0, 0);
  const m = DATE_TIME.exec(text);
  if (!m) return undefined;
  const fraction = m[7] ? Number(m[7].slice(1, 4).padEnd(3, '0')) : 0;
  return validDate(Number(m[1]), Number(m[2]), Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6]), fraction, offsetMinutes(m[8] as string));
}

function offsetMinutes(zone: string): number {
  if (zone === 'Z' || zone === 'z') return 0;
  const sign = zone.startsWith('-') ? -1 : 1;
  const digits = zone.slice(1).replace(':', '');
  const hours = Number(digits.slice(0, 2));
  const minutes = Number(digits.slice(2, 4));
  if (hours > 23 || minutes > 59) return Number.NaN;
  return sign * (hours * 60 + minutes);
}

function validDate(y: number, mo: number, d: number, h: number, mi: number, s: number, ms: number, offset: number): Date | undefined {
  if (Number.isNaN(offset) || mo < 1 || mo > 12 || d < 1 || h > 23 || mi > 59 || s > 59) return undefined;
  // Date.UTC reads years 0..99 as 1900..1999; setUTCFullYear takes the year as written (0001-01-01 is Go's zero time).
  const check = new Date(Date.UTC(2000, mo - 1, d, h, mi, s, ms));
  check.setUTCFullYear(y, mo - 1, d);
  const local = check.getTime();
  if (check.getUTCFullYear() !== y || check.getUTCMonth() !== mo - 1 || check.getUTCDate() !== d) return undefined;
  const result = new Date(local - offset * 60_000);
  return Number.isNaN(result.getTime()) ? undefined : result;
}
