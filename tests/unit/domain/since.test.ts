import { expect } from 'chai';
import { parseSince } from '../../../domain/paging/since.js';

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
