import { expect } from 'chai';
import { boundValue, inlinedValues, numberedPlaceholders } from '../../../adapters/persistence/postgres/sql-values.js';

describe('The values of hand-written SQL: `?` numbered for binding, or inlined as literals', () => {
  describe('numberedPlaceholders', () => {
    it('numbers each `?` in order, $1 to $n', () => {
      expect(numberedPlaceholders('select ? from t where a = ? and b = ?::jsonb', 3)).to.equal('select $1 from t where a = $2 and b = $3::jsonb');
      expect(numberedPlaceholders('select 1', 0)).to.equal('select 1');
    });

    it('refuses a count of values other than the `?`, before anything is sent', () => {
      expect(() => numberedPlaceholders('insert into t values (?, ?)', 1)).to.throw(/Expected 2 values, saw 1/);
      expect(() => numberedPlaceholders('insert into t values (?, ?)', 3)).to.throw(/Expected 2 values, saw 3/);
      expect(() => numberedPlaceholders('select 1', 1)).to.throw(/Expected 0 values, saw 1/);
    });
  });

  describe('inlinedValues', () => {
    it('quotes a string as a literal: a quote doubled, a backslash as an E-string, unicode as it is, a `?` in a value left alone', () => {
      expect(inlinedValues('select ?', ["it's"])).to.equal("select 'it''s'");
      expect(inlinedValues('select ?', ['a\\b'])).to.equal("select  E'a\\\\b'");
      expect(inlinedValues('select ?, ?', ['Ред. «1» 🚀', 'a ? b'])).to.equal("select 'Ред. «1» 🚀', 'a ? b'");
      expect(inlinedValues('select ?', [''])).to.equal("select ''");
    });

    it('writes numbers and bigints as digits, a negative one in parentheses so that `-?` cannot become a comment', () => {
      expect(inlinedValues('select ?, ?, ?', [42, 1.5, 12345678901234567890n])).to.equal('select 42, 1.5, 12345678901234567890');
      expect(inlinedValues('select 1 -?', [-1])).to.equal('select 1 -(-1)');
      expect(inlinedValues('select ?', [-2n])).to.equal('select (-2)');
      expect(inlinedValues('select ?', [0])).to.equal('select 0');
    });

    it('writes a Date as its ISO 8601 text in UTC, a boolean and null as keywords', () => {
      expect(inlinedValues('select ?::timestamptz', [new Date(Date.UTC(1900, 5, 1, 0, 0, 0, 7))])).to.equal("select '1900-06-01T00:00:00.007Z'::timestamptz");
      expect(inlinedValues('select ?, ?, ?', [true, false, null])).to.equal('select true, false, null');
    });

    it('leaves a statement without values as it is, and refuses a count of values other than the `?`', () => {
      expect(inlinedValues('select 1', [])).to.equal('select 1');
      // A missing value is undefined where its `?` is: refused as one.
      expect(() => inlinedValues('select ?, ?', [1])).to.throw(TypeError, /not undefined/);
      expect(() => inlinedValues('select ?', [1, 2])).to.throw(/Expected 1 values, saw 2/);
      expect(() => inlinedValues('select 1', [1])).to.throw(/Expected 0 values, saw 1/);
    });

    it('refuses undefined, an array, an object, a non-finite number, a function: a mistake of the caller, never sent', () => {
      for (const value of [undefined, [1, 2], { a: 1 }, Number.NaN, Number.POSITIVE_INFINITY, () => 1, Symbol('s')]) {
        expect(() => inlinedValues('select ?', [value]), String(typeof value)).to.throw(TypeError, /A statement value must be/);
      }
      expect(() => inlinedValues('select ?', [undefined])).to.throw(/not undefined/);
    });
  });
  describe('boundValue', () => {
    it('sends a Date as its ISO 8601 text in UTC and other values as they are, and refuses undefined, which pg would send as null', () => {
      expect(boundValue(new Date(Date.UTC(1900, 5, 1)))).to.equal('1900-06-01T00:00:00.000Z');
      expect(boundValue(null)).to.equal(null);
      expect(boundValue('a')).to.equal('a');
      expect(() => boundValue(undefined)).to.throw(TypeError, /undefined/);
    });
  });
});
