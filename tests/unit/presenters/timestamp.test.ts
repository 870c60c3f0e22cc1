import { expect } from 'chai';
import fc from 'fast-check';
import { idItem, idItemBytes } from '../../../adapters/presenters/id-item.presenter.js';
import { isoTimestamp, isoTimestampLength } from '../../../adapters/presenters/timestamp.js';

/** The whole range of a JS Date, with its ends, the ends of the four-digit years and midnights around them. */
const EDGES = [-8.64e15, 8.64e15, Date.parse('0000-01-01T00:00:00.000Z'), Date.parse('9999-12-31T23:59:59.999Z'), 0, Date.parse('2026-12-31T23:59:59.999Z')];
const instant = fc.oneof(
  fc.date({ min: new Date(-8.64e15), max: new Date(8.64e15), noInvalidDate: true }),
  fc.tuple(fc.constantFrom(...EDGES), fc.integer({ min: -2, max: 2 })).map(([edge, step]) => new Date(Math.min(8.64e15, Math.max(-8.64e15, edge + step)))),
  // A page's records: one day after another, so that the day the formatter keeps is reused and then replaced.
  fc.integer({ min: 0, max: 86_400_000 * 3 }).map((ms) => new Date(Date.parse('2026-12-01T00:00:00.000Z') + ms)),
);

describe('The wire form of a timestamp', () => {
  it('is toISOString\'s text for every instant a Date holds, in any order of calls', () => {
    fc.assert(
      fc.property(fc.array(instant, { minLength: 1, maxLength: 50 }), (dates) => {
        for (const date of dates) expect(isoTimestamp(date), String(date.getTime())).to.equal(date.toISOString());
      }),
      { seed: 20_261_202, numRuns: 2_000 },
    );
  });

  it('has the length isoTimestampLength says, and an identifier item JSON.stringify\'s text and the bytes idItemBytes says', () => {
    const id = fc.oneof(
      fc.string({ unit: fc.oneof(fc.constantFrom('"', '\\', '\u0000', '\u2028', '\ud800', 'я', '😀'), fc.string({ unit: 'binary', minLength: 1, maxLength: 1 })), maxLength: 40 }),
      // Plain ASCII, counted by length, with now and then a character JSON escapes or one of two bytes.
      fc.string({ unit: fc.oneof({ arbitrary: fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 1 }), weight: 20 }, fc.constantFrom('"', '\\', '\u001f', '\u007f', '\u0080')), maxLength: 40 }),
      fc.uuid(),
    );
    fc.assert(
      fc.property(id, instant, (text, date) => {
        expect(isoTimestampLength(date)).to.equal(date.toISOString().length);
        expect(idItem(text, date)).to.equal(JSON.stringify({ id: text, updatedAt: date.toISOString() }));
        expect(idItemBytes(text, date)).to.equal(Buffer.byteLength(idItem(text, date), 'utf8'));
      }),
      { seed: 20_261_203, numRuns: 2_000 },
    );
  });
});
