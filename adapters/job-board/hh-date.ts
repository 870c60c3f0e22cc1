/** The board's date-times: ISO 8601 with an offset that may lack its colon (`2026-10-03T09:41:12+0500`). */
const HH_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(Z|([+-])(\d{2}):?(\d{2}))$/;

/** The moment, in UTC; null when the text is not such a date-time or names a day or time that does not exist. */
export function parseHhDateTime(text: string): Date | null {
  const m = HH_DATE_TIME.exec(text);
  if (m === null) return null;
  const [year, month, day, hour, minute, second] = [1, 2, 3, 4, 5, 6].map((i) => Number(m[i]));
  const millis = m[7] === undefined ? 0 : Number(m[7].slice(0, 3).padEnd(3, '0'));
  const offsetHours = m[8] === 'Z' ? 0 : Number(m[10]);
  const offsetMinutes = m[8] === 'Z' ? 0 : Number(m[11]);
  if (offsetHours > 23 || offsetMinutes > 59 || (hour as number) > 23 || (minute as number) > 59 || (second as number) > 59) return null;
  const local = new Date(Date.UTC(2000, 0, 1, hour, minute, second, millis));
  local.setUTCFullYear(year as number, (month as number) - 1, day);
  if (local.getUTCFullYear() !== year || local.getUTCMonth() !== (month as number) - 1 || local.getUTCDate() !== day) return null;
  const sign = m[9] === '-' ? -1 : 1;
  return new Date(local.getTime() - sign * (offsetHours * 60 + offsetMinutes) * 60_000);
}

/** `2022-02-01` -> `2022-02`; other text as it is. */
export function yearMonthOf(date: string): string {
  const m = /^(\d{4})-(\d{2})/.exec(date);
  return m === null ? date : `${m[1]}-${m[2]}`;
}

/**
 * A job's period as people write it: `2020-07 — 2022-01`, or `2022-02 — now` for a job the person still holds.
 * An item with no start has no period (""), as the resume's missing strings are empty (DESIGN 3).
 */
export function periodText(start: string | null, end: string | null): string {
  if (start === null || start.trim() === '') return '';
  return `${yearMonthOf(start)} — ${end === null || end.trim() === '' ? 'now' : yearMonthOf(end)}`;
}
