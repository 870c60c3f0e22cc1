import { InvalidArgumentError } from 'commander';
import { parseSince } from '../../domain/paging/since.js';

/** `A,B,C` as a list. Items are trimmed but blanks are kept, so that the domain reports them by position. */
export function commaList(value: string): string[] {
  return value.split(',').map((item) => item.trim());
}

/** An RFC 3339 date-time with a time zone, as every timestamp of the API. */
export function dateTimeValue(value: string): Date {
  const date = parseSince(value);
  if (date instanceof Date && /T/i.test(value)) return date;
  throw new InvalidArgumentError('Expected an RFC 3339 date-time with a time zone, such as 2027-01-01T00:00:00Z.');
}

/** A whole number from `min` to `max`, written in base 10. */
export function countValue(min: number, max: number): (value: string) => number {
  return (value) => {
    const n = /^\d+$/.test(value) ? Number(value) : Number.NaN;
    if (!(n >= min && n <= max)) throw new InvalidArgumentError(`Expected a whole number from ${min} to ${max}.`);
    return n;
  };
}
