import { expect } from 'chai';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import fc from 'fast-check';
import { parseSince, SINCE_DATE_PATTERN, SINCE_DATE_TIME_PATTERN, SINCE_NO_FILTER } from '../../../domain/paging/since.js';

function iso(text: string): string | null | undefined {
  const parsed = parseSince(text);
  return parsed instanceof Date ? parsed.toISOString() : parsed;
}

describe('parseSince (the since parameter, DESIGN 3)', () => {
  it('means "no filter" for an empty value and for the literal null', () => {
    expect(parseSince('')).to.equal(null);
    expect(parseSince('null')).to.equal(null);
  });

  it('reads an RFC 3339 date-time in UTC, with Z or z and T or t', () => {
    expect(iso('2026-03-01T12:34:56Z')).to.equal('2026-03-01T12:34:56.000Z');
    expect(iso('2026-03-01t12:34:56z')).to.equal('2026-03-01T12:34:56.000Z');
    expect(iso('2026-03-01T12:34:56.789Z')).to.equal('2026-03-01T12:34:56.789Z');
  });

  it('converts any numeric offset written as ±hh:mm to the same instant in UTC', () => {
    expect(iso('2026-03-01T10:00:00+05:00')).to.equal('2026-03-01T05:00:00.000Z');
    expect(iso('2026-03-01T10:00:00-03:30')).to.equal('2026-03-01T13:30:00.000Z');
    expect(iso('2026-03-01T10:00:00+00:00')).to.equal('2026-03-01T10:00:00.000Z');
    expect(iso('2026-03-01T10:00:00-00:00')).to.equal('2026-03-01T10:00:00.000Z');
    expect(iso('2026-01-01T02:00:00+05:00')).to.equal('2025-12-31T21:00:00.000Z');
  });

  it('refuses an offset without the colon (+0500), which RFC 3339 does not allow', () => {
    expect(parseSince('2026-03-01T10:00:00+0500')).to.equal(undefined);
    expect(parseSince('2026-03-01T10:00:00-0330')).to.equal(undefined);
  });

  it('refuses an offset without its minutes (+05), which RFC 3339 does not allow either', () => {
    expect(parseSince('2026-03-01T10:00:00+05')).to.equal(undefined);
    expect(parseSince('2026-03-01T10:00:00-03')).to.equal(undefined);
  });

  it('takes a space between date and time, as RFC 3339 (5.6, NOTE) lets applications do, but no other white space', () => {
    expect(iso('2026-03-01 10:00:00Z')).to.equal('2026-03-01T10:00:00.000Z');
    expect(parseSince('2026-03-01\t10:00:00Z')).to.equal(undefined);
    expect(parseSince('2026-03-01  10:00:00Z')).to.equal(undefined);
  });

  it('refuses an offset whose "+" became a space (an unencoded plus sign in a query string)', () => {
    expect(parseSince('2026-03-01T10:00:00 05:00')).to.equal(undefined);
  });

  it('reads a leap second, which RFC 3339 allows only at 23:59 UTC, as the last millisecond of that minute', () => {
    expect(iso('2016-12-31T23:59:60Z')).to.equal('2016-12-31T23:59:59.999Z');
    expect(iso('2016-12-31T23:59:60.999999Z')).to.equal('2016-12-31T23:59:59.999Z');
    expect(iso('2017-01-01T05:29:60+05:30')).to.equal('2016-12-31T23:59:59.999Z');
    expect(iso('2016-12-31T18:59:60-05:00')).to.equal('2016-12-31T23:59:59.999Z');
    expect(iso('2016-06-30t23:59:60z')).to.equal('2016-06-30T23:59:59.999Z');
  });

  it('keeps "strictly later than" right around a leap second: the second before it is earlier, the next minute later', () => {
    const leap = parseSince('2016-12-31T23:59:60Z') as Date;
    expect(leap.getTime()).to.be.greaterThan((parseSince('2016-12-31T23:59:59.998Z') as Date).getTime());
    expect(leap.getTime()).to.be.lessThan((parseSince('2017-01-01T00:00:00Z') as Date).getTime());
  });

  it('refuses second 60 anywhere but at 23:59 UTC', () => {
    for (const text of ['2016-12-31T23:59:60+01:00', '2016-12-31T22:59:60Z', '2016-12-31T23:58:60Z', '2017-01-01T05:30:60+05:30', '2016-12-31T23:59:61Z']) {
      expect(parseSince(text), text).to.equal(undefined);
    }
  });

  it('reads every year from 0000 to 9999, with any offset', () => {
    expect(iso('0000-01-01')).to.equal('0000-01-01T00:00:00.000Z');
    expect(iso('0000-02-29T00:00:00Z')).to.equal('0000-02-29T00:00:00.000Z');
    expect(iso('0000-01-01T00:00:00+23:59')).to.equal('-000001-12-31T00:01:00.000Z');
    expect(iso('9999-12-31T23:59:59.999-23:59')).to.equal('+010000-01-01T23:58:59.999Z');
  });

  it('reads a date alone as midnight UTC of that day', () => {
    expect(iso('2026-03-01')).to.equal('2026-03-01T00:00:00.000Z');
    expect(iso('2024-02-29')).to.equal('2024-02-29T00:00:00.000Z');
  });

  it('reads years before 100, such as the zero time 0001-01-01T00:00:00Z that Go and .NET clients send', () => {
    expect(iso('0001-01-01T00:00:00Z')).to.equal('0001-01-01T00:00:00.000Z');
    expect(iso('0001-01-01')).to.equal('0001-01-01T00:00:00.000Z');
    expect(iso('0099-12-31T23:59:59.999Z')).to.equal('0099-12-31T23:59:59.999Z');
  });

  it('cuts fractions finer than a millisecond instead of rounding them', () => {
    expect(iso('2026-03-01T10:00:00.1Z')).to.equal('2026-03-01T10:00:00.100Z');
    expect(iso('2026-03-01T10:00:00.12Z')).to.equal('2026-03-01T10:00:00.120Z');
    expect(iso('2026-03-01T10:00:00.123456Z')).to.equal('2026-03-01T10:00:00.123Z');
    expect(iso('2026-03-01T10:00:00.999999999Z')).to.equal('2026-03-01T10:00:00.999Z');
    expect(iso('2026-03-01T10:00:00.12345678901234567890Z')).to.equal('2026-03-01T10:00:00.123Z');
  });

  it('accepts exactly what the published schema admits: an empty value or null, or a pattern with its date or date-time format', () => {
    const ajv = new Ajv2020({ strict: true });
    addFormatsModule.default(ajv);
    const admits = ajv.compile({
      anyOf: [
        { type: 'string', enum: [...SINCE_NO_FILTER] },
        { type: 'string', format: 'date', pattern: SINCE_DATE_PATTERN },
        { type: 'string', format: 'date-time', pattern: SINCE_DATE_TIME_PATTERN },
      ],
    });
    // Near misses of every part: ranges a digit beyond, offsets with and without colon or minutes, other separators.
    const d = (n: number) => fc.integer({ min: 0, max: 10 ** n - 1 }).map((v) => String(v).padStart(n, '0'));
    const pick = <T>(...values: T[]) => fc.constantFrom(...values);
    const zone = fc.oneof(pick('Z', 'z', '', 'UTC'), fc.tuple(pick('+', '-', ' '), d(2), pick(':', '', ':'), fc.option(d(2), { nil: '' })).map((p) => p.join('')));
    const fraction = fc.oneof(pick('', '.', '.5'), d(1).chain((n) => fc.string({ unit: pick('0', '9'), minLength: Number(n), maxLength: Number(n) }).map((f) => `.${f}`)));
    const dateTime = fc.tuple(d(4), d(2), d(2), pick('T', 't', ' ', '\t', '_', ''), fc.integer({ min: 0, max: 25 }), fc.integer({ min: 55, max: 61 }), fc.integer({ min: 55, max: 61 }), fraction, zone)
      .map(([y, mo, day, sep, h, mi, sec, f, z]) => `${y}-${mo}-${day}${sep}${String(h).padStart(2, '0')}:${mi % 60 === mi ? mi : mi - 10}:${sec}${f}${z}`);
    const texts = fc.oneof(dateTime, fc.tuple(d(4), d(2), d(2)).map((p) => p.join('-')), fc.stringMatching(new RegExp(SINCE_DATE_TIME_PATTERN)), pick('', 'null', 'Null', ' '));
    fc.assert(fc.property(texts, (text) => (parseSince(text) !== undefined) === admits(text)), { numRuns: 5_000 });
  });

  for (const text of [
    'yesterday',
    'NULL',
    'undefined',
    '1772323200000',
    '2026-02-30',
    '2025-02-29',
    '2026-02-30T00:00:00Z',
    '2026-13-01',
    '2026-00-10',
    '2026-3-1',
    '01.03.2026',
    '2026-03-01T25:00:00Z',
    '2026-03-01T24:00:00Z',
    '2026-03-01T10:60:00Z',
    '2026-03-01T10:00:60Z',
    '2026-03-01T10:00Z',
    '2026-03-01T10:00:00',
    '2026-03-01T10:00:00.Z',
    '2026-03-01T10:00:00+24:00',
    '2026-03-01T10:00:00+05:60',
    '2026-03-01T10:00:00+5:00',
    ' 2026-03-01',
    '2026-03-01 ',
    '2026-03-01\n',
  ]) {
    it(`refuses ${JSON.stringify(text)}`, () => {
      expect(parseSince(text)).to.equal(undefined);
    });
  }
});
