import { expect } from 'chai';
import fc from 'fast-check';
import { canonicalApplication } from '../../../domain/inbound-application/inbound-application.js';
import { ProblemCollector, ValidationError } from '../../../domain/shared/domain-error.js';
import { canonicalJson, checkText, codePointLength, sameData } from '../../../domain/shared/text-rules.js';
import { anApplication } from '../../support/builders.js';

describe('text rules', () => {
  describe('canonicalJson', () => {
    it('writes equal data as one text, whatever the order of object keys', () => {
      const a = { b: 1, a: { d: [1, 2], c: 'x' } };
      const b = { a: { c: 'x', d: [1, 2] }, b: 1 };
      expect(canonicalJson(a)).to.equal(canonicalJson(b));
      expect(canonicalJson(a)).to.equal('{"a":{"c":"x","d":[1,2]},"b":1}');
    });

    it('keeps the order of arrays, which is meaning', () => {
      expect(canonicalJson([1, 2])).to.not.equal(canonicalJson([2, 1]));
    });

    it('writes dates as ISO 8601 UTC, drops undefined properties and keeps nulls', () => {
      expect(canonicalJson({ at: new Date('2026-11-01T10:00:00Z'), gone: undefined, none: null })).to.equal(
        '{"at":"2026-11-01T10:00:00.000Z","none":null}',
      );
    });

    it('writes scalars as JSON does', () => {
      expect(canonicalJson('я')).to.equal('"я"');
      expect(canonicalJson(1.5)).to.equal('1.5');
      expect(canonicalJson(null)).to.equal('null');
    });
  });

  describe('sameData', () => {
    it('holds for equal data in different objects and fails for any difference', () => {
      expect(sameData({ x: [1, { y: 'a' }] }, { x: [1, { y: 'a' }] })).to.equal(true);
      expect(sameData({ x: [1, { y: 'a' }] }, { x: [1, { y: 'b' }] })).to.equal(false);
      expect(sameData({ x: null }, { x: '' })).to.equal(false);
      expect(sameData(new Date(1), new Date(1))).to.equal(true);
      expect(sameData(new Date(1), new Date(2))).to.equal(false);
    });

    /** Plain data as the domain holds it: JSON values, Dates, undefined properties, numbers JSON writes as null. */
    const data = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: 'small' },
        fc.constantFrom(null, undefined, true, false, 0, -0, 1, NaN, Infinity, 'a', '', 'я', '2026-11-01T10:00:00.000Z'),
        fc.string({ maxLength: 3 }),
        fc.double(),
        fc.constant(new Date('2026-11-01T10:00:00.000Z')),
        fc.date({ noInvalidDate: true }),
        fc.array(tie('value'), { maxLength: 4 }),
        fc.dictionary(fc.constantFrom('a', 'b', 'c', 'é', '__proto__x'), tie('value'), { maxKeys: 4 }),
      ),
    })).value;

    /** The same data written otherwise: keys in another order, Dates as their ISO text, undefined properties added. */
    function rewritten(value: unknown): unknown {
      if (value instanceof Date) return value.toISOString();
      if (Array.isArray(value)) return value.map(rewritten);
      if (value !== null && typeof value === 'object') {
        const entries = Object.entries(value).reverse().map(([key, entry]) => [key, rewritten(entry)]);
        return Object.fromEntries([...entries, ['added', undefined]]);
      }
      return value;
    }

    it('is the equality of the canonical JSON texts, for any two values of plain data', () => {
      fc.assert(
        fc.property(data, data, (a, b) => {
          expect(sameData(a, b), `${canonicalJson(a)} / ${canonicalJson(b)}`).to.equal(canonicalJson(a) === canonicalJson(b));
          expect(sameData(b, a)).to.equal(sameData(a, b));
        }),
        { numRuns: 2000 },
      );
    });

    it('holds between a value and the same data written otherwise, and fails once any leaf differs', () => {
      fc.assert(
        fc.property(data, (value) => {
          expect(sameData(value, rewritten(value)), canonicalJson(value)).to.equal(true);
          expect(sameData(value, [value])).to.equal(canonicalJson(value) === canonicalJson([value]));
          const changed = { wrapped: rewritten(value), extra: 1 };
          expect(sameData({ wrapped: value }, changed)).to.equal(false);
        }),
        { numRuns: 1000 },
      );
    });
  });

  describe('codePointLength', () => {
    it('counts code points as iterating the text does, with and without surrogate pairs', () => {
      fc.assert(
        fc.property(fc.string({ unit: fc.constantFrom('a', 'я', '😀', '\uD800', '\uDC00', '\u0000') }), (text) => {
          expect(codePointLength(text)).to.equal([...text].length);
        }),
      );
    });
  });

  describe('canonicalApplication', () => {
    it('is the same text for the same application written with its keys in another order', () => {
      const application = anApplication({ externalId: 'ext-1', vacancyId: 'vac-1' });
      const reordered = Object.fromEntries(Object.entries(application).reverse()) as typeof application;
      expect(canonicalApplication(reordered)).to.equal(canonicalApplication(application));
    });

    it('differs when any field of the body differs', () => {
      const application = anApplication({ externalId: 'ext-1', vacancyId: 'vac-1' });
      const changed = { ...application, candidate: { ...application.candidate, phone: '+998 90 000 00 00' } };
      expect(canonicalApplication(changed)).to.not.equal(canonicalApplication(application));
    });
  });

  describe('codePointLength and checkText', () => {
    it('counts code points', () => {
      expect(codePointLength('Алматы')).to.equal(6);
      expect(codePointLength('👩‍💻')).to.equal(3);
      expect(codePointLength('😀')).to.equal(1);
    });

    it('reports a required null, a text under the minimum and one over the maximum at the pointer', () => {
      const problems = new ProblemCollector();
      checkText(problems, '/a', null, { max: 1, required: true });
      checkText(problems, '/b', null, { max: 1 });
      checkText(problems, '/c', '', { min: 1, max: 5 });
      checkText(problems, '/d', 'яяяяяя', { max: 5 });
      checkText(problems, '/e', 'яяяяя', { min: 1, max: 5 });
      expect(problems.problems.map((p) => p.pointer)).to.deep.equal(['/a', '/c', '/d']);
    });

    it('throws one ValidationError carrying every collected problem', () => {
      const problems = new ProblemCollector();
      expect(() => problems.throwIfAny()).to.not.throw();
      problems.add('/x', 'bad');
      problems.add('/y/0', 'worse');
      expect(() => problems.throwIfAny('Nope.'))
        .to.throw(ValidationError, 'Nope.')
        .with.property('problems')
        .that.deep.equals([{ pointer: '/x', message: 'bad' }, { pointer: '/y/0', message: 'worse' }]);
    });
  });

  describe('checkText', () => {
    it('refuses NUL and unpaired surrogates, which no store can keep, and accepts paired ones (emoji)', () => {
      const problemsOf = (value: string) => {
        const problems = new ProblemCollector();
        checkText(problems, '/x', value, { max: 100 });
        return problems.problems.map((p) => p.message);
      };
      expect(problemsOf('a\u0000b')).to.deep.equal(['must not contain the NUL character (U+0000)']);
      for (const lone of ['\uD800', 'a\uDBFFb', '\uDC00', 'x\uDFFF\uD800']) {
        expect(problemsOf(lone), JSON.stringify(lone)).to.deep.equal(['must not contain an unpaired surrogate (not valid Unicode text)']);
      }
      expect(problemsOf('Привет 👋 \u0001 control characters are kept')).to.deep.equal([]);
    });

    it('says what its plain definition says, for any text and bounds', () => {
      // The definition: NUL refused, unpaired surrogates refused, the length in code points within the bounds.
      const defined = (value: string, min: number, max: number) => [
        ...(value.includes('\u0000') ? ['must not contain the NUL character (U+0000)'] : []),
        ...(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(value) ? ['must not contain an unpaired surrogate (not valid Unicode text)'] : []),
        ...([...value].length < min ? [`must be at least ${min} characters`] : []),
        ...([...value].length > max ? [`must be at most ${max} characters`] : []),
      ];
      fc.assert(
        fc.property(
          fc.string({ unit: fc.constantFrom('a', 'я', '😀', '\uD800', '\uDC00', '\uDBFF', '\uDFFF', '\u0000'), maxLength: 8 }),
          fc.nat(6),
          fc.nat(6),
          (value, min, max) => {
            const problems = new ProblemCollector();
            checkText(problems, '/x', value, { min, max });
            expect(problems.problems.map((p) => p.message), JSON.stringify(value)).to.deep.equal(defined(value, min, max));
          },
        ),
        { numRuns: 3000 },
      );
    });
  });
});

