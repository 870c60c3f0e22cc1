import { expect } from 'chai';
import {
  comparePositions,
  decodeCursor,
  encodeCursor,
  InvalidCursorError,
  queryFingerprint,
  type PagePosition,
} from '../../../domain/paging/cursor.js';

const FP = queryFingerprint(['vacancies', 'company-1', null, 'open']);
const POSITION: PagePosition = { modifiedAt: new Date('2026-11-01T10:00:00.123Z'), id: '0190b1c2-0000-7000-8000-000000000001' };

function raw(text: string): string {
  return Buffer.from(text, 'utf8').toString('base64url');
}

function decodeError(cursor: string, fingerprint = FP): unknown {
  try {
    decodeCursor(cursor, fingerprint);
  } catch (error) {
    return error;
  }
  return undefined;
}

describe('cursor', () => {
  describe('encodeCursor and decodeCursor', () => {
    it('give back the position they were given, to the millisecond', () => {
      const decoded = decodeCursor(encodeCursor(POSITION, FP), FP);
      expect(decoded.id).to.equal(POSITION.id);
      expect(decoded.modifiedAt.toISOString()).to.equal('2026-11-01T10:00:00.123Z');
    });

    it('carry an id in any script', () => {
      const position = { modifiedAt: new Date(0), id: 'вакансия-№1' };
      expect(decodeCursor(encodeCursor(position, FP), FP).id).to.equal('вакансия-№1');
    });

    it('make an opaque base64url text, safe in a query string without escaping', () => {
      expect(encodeCursor(POSITION, FP)).to.match(/^[A-Za-z0-9_-]+$/);
    });

    it('refuse a cursor made for another query with InvalidCursorError', () => {
      const cursor = encodeCursor(POSITION, FP);
      const error = decodeError(cursor, queryFingerprint(['vacancies', 'company-1', null, 'all']));
      expect(error).to.be.instanceOf(InvalidCursorError);
      expect((error as InvalidCursorError).code).to.equal('invalid_cursor');
      expect((error as Error).message).to.match(/another query/);
    });
  });

  describe('decodeCursor on malformed input', () => {
    const valid = encodeCursor(POSITION, FP);
    const payload = (fields: Record<string, unknown>) => raw(JSON.stringify({ v: 1, t: 1, i: 'x', f: FP, ...fields }));
    const cases: Record<string, string> = {
      'an empty string': '',
      'spaces': '   ',
      'characters outside base64url': '!!!',
      'standard base64 with + / and padding': Buffer.from('{"v":1}>>>??').toString('base64') + '==',
      'one character (impossible base64 length)': 'a',
      'five characters (impossible base64 length)': 'abcde',
      'a truncated cursor': valid.slice(0, -3),
      'a cursor with text appended': valid + 'A',
      'a text longer than 512 characters': 'A'.repeat(600),
      'bytes that are not UTF-8': Buffer.from([0xff, 0xfe, 0xfd]).toString('base64url'),
      'text that is not JSON': raw('not json at all'),
      'JSON null': raw('null'),
      'a JSON number': raw('42'),
      'a JSON string': raw('"cursor"'),
      'a JSON array': raw('[1,1,"x","f"]'),
      'an empty object': raw('{}'),
      'another version': payload({ v: 2 }),
      'a time that is a string': payload({ t: '2026-11-01T10:00:00Z' }),
      'a fractional time': payload({ t: 1.5 }),
      'a time beyond the range of dates': payload({ t: 9e15 }),
      'a time beyond safe integers': payload({ t: 1e20 }),
      'an empty id': payload({ i: '' }),
      'an id of 65 characters': payload({ i: 'x'.repeat(65) }),
      'an id that is a number': payload({ i: 7 }),
      'a fingerprint that is a number': payload({ f: 7 }),
      'a missing fingerprint': raw(JSON.stringify({ v: 1, t: 1, i: 'x' })),
      'an object smuggling __proto__': raw('{"__proto__":{"v":1,"t":1,"i":"x","f":"' + FP + '"}}'),
    };
    for (const [what, cursor] of Object.entries(cases)) {
      it(`throws InvalidCursorError, and nothing else, for ${what}`, () => {
        expect(decodeError(cursor)).to.be.instanceOf(InvalidCursorError);
      });
    }

    it('accepts the hand-made payload that the cases above spoil one field at a time', () => {
      expect(decodeCursor(payload({}), FP)).to.deep.equal({ modifiedAt: new Date(1), id: 'x' });
    });
  });

  describe('queryFingerprint', () => {
    it('is the same for the same query and differs when any part differs', () => {
      const base = ['candidates', 'co-1', '2026-01-01T00:00:00.000Z', 'vac-1'];
      expect(queryFingerprint(base)).to.equal(queryFingerprint([...base]));
      for (let i = 0; i < base.length; i++) {
        const changed = base.map((part, j) => (j === i ? `${part}x` : part));
        expect(queryFingerprint(changed), `part ${i}`).to.not.equal(queryFingerprint(base));
      }
    });

    it('tells apart parts that would read the same when joined, and null from "null"', () => {
      expect(queryFingerprint(['ab', 'c'])).to.not.equal(queryFingerprint(['a', 'bc']));
      expect(queryFingerprint([null])).to.not.equal(queryFingerprint(['null']));
    });
  });

  describe('comparePositions', () => {
    it('orders by time first, then by id in code-unit order as the C collation does', () => {
      const t = new Date(5);
      const positions: PagePosition[] = [
        { modifiedAt: new Date(6), id: 'A' },
        { modifiedAt: t, id: 'b' },
        { modifiedAt: t, id: 'Z' },
        { modifiedAt: t, id: 'a' },
        { modifiedAt: new Date(4), id: 'z' },
      ];
      const sorted = [...positions].sort(comparePositions).map((p) => `${p.modifiedAt.getTime()}:${p.id}`);
      expect(sorted).to.deep.equal(['4:z', '5:Z', '5:a', '5:b', '6:A']);
      expect(comparePositions({ modifiedAt: t, id: 'a' }, { modifiedAt: new Date(5), id: 'a' })).to.equal(0);
    });
  });
});
