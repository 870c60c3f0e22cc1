import type { Dictionary, PluralForms, TimeUnit } from './i18n/dictionary.js';

const MINUTE_MS = 60_000;

/**
 * A moment in words relative to `now`: "3 minutes ago", "in 2 days", «3 минуты назад», «через 2 дня».
 * Each step rounds to the nearest whole unit, and a unit is used until the next one reaches 1 (59 minutes,
 * then 1 hour); under half a minute either way it is "just now" or "soon".
 */
export function relativeTime(dictionary: Dictionary, moment: Date, now: Date): string {
  const difference = moment.getTime() - now.getTime();
  const span = spanOf(Math.abs(difference));
  if (span === null) return difference <= 0 ? dictionary.time.justNow : dictionary.time.soon;
  const words = `${span.count} ${pluralWord(dictionary, dictionary.time.units[span.unit], span.count)}`;
  return difference <= 0 ? dictionary.time.ago(words) : dictionary.time.in(words);
}

/** The largest unit the span reaches one of; null under half a minute. */
export function spanOf(ms: number): { count: number; unit: TimeUnit } | null {
  const minutes = Math.round(ms / MINUTE_MS);
  if (minutes < 1) return null;
  if (minutes < 60) return { count: minutes, unit: 'minute' };
  const hours = Math.round(minutes / 60);
  if (hours < 24) return { count: hours, unit: 'hour' };
  const days = Math.round(hours / 24);
  if (days < 30) return { count: days, unit: 'day' };
  const months = Math.round(days / 30.44);
  if (months < 12) return { count: months, unit: 'month' };
  return { count: Math.max(1, Math.round(days / 365.25)), unit: 'year' };
}

/** The form of a counted word that the language's plural rules ask for: 1 минуту, 2 минуты, 5 минут, 21 минуту. */
export function pluralWord(dictionary: Dictionary, forms: PluralForms, count: number): string {
  const category = new Intl.PluralRules(dictionary.locale).select(count);
  return (forms as unknown as Partial<Record<Intl.LDMLPluralRule, string>>)[category] ?? forms.other;
}

const formats = new Map<string, Intl.DateTimeFormat>();

/** A moment as a date and a time in the configured zone, named: "27 Nov 2026, 14:03 UTC". */
export function absoluteTime(dictionary: Dictionary, moment: Date, timeZone: string): string {
  const id = `${dictionary.locale}|${timeZone}`;
  let format = formats.get(id);
  if (format === undefined) {
    format = new Intl.DateTimeFormat(dictionary.locale, {
      day: 'numeric',
      month: 'short',
      year: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
      timeZone,
      timeZoneName: 'short',
    });
    formats.set(id, format);
  }
  return format.format(moment);
}

/** Whether Intl knows the zone (checked at start, so that a typo stops the page instead of every request). */
export function isTimeZone(timeZone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone });
    return true;
  } catch {
    return false;
  }
}
