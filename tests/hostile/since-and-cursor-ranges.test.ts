import { expect } from 'chai';
import fc from 'fast-check';
import { expectWellFormedAnswer, hostileRuns, hostileText } from '../support/hostile-input.js';
import { aMinimalApplicationBody, aTenant, type Tenant } from '../support/http-fixtures.js';
import { API_PATH, startTestServer, type TestServer } from '../support/http-test-server.js';
import { rawRequest, type RawResponse } from '../support/raw-http.js';
import {
  dateTimeParts,
  extraFractionDigits,
  formatParts,
  instantOf,
  isLeapSecond,
  isValidRfc3339,
  offsetsInMinutes,
  partsAt,
} from '../support/rfc3339-model.js';

const LISTS = ['/vacancies', '/candidates'] as const;
type List = (typeof LISTS)[number];

/** A listed record as the model sees it: its place in the list order. */
interface Listed {
  readonly id: string;
  readonly at: number;
}

/** The first and last millisecond a cursor's position may name: years 0000 to 9999 in UTC. */
const FIRST_POSITION = Date.parse('0000-01-01T00:00:00.000Z');
const LAST_POSITION = Date.parse('9999-12-31T23:59:59.999Z');

/** Every byte as %XX: any text reaches the server as its UTF-8 (a lone surrogate as U+FFFD). */
function queryValue(text: string): string {
  return [...Buffer.from(text, 'utf8')].map((byte) => `%${byte.toString(16).padStart(2, '0')}`).join('');
}

describe('GET /vacancies and GET /candidates with since and cursor positions anywhere in years 0000..9999', function () {
  this.timeout(120_000);
  let server: TestServer;
  let tenant: Tenant;
  /** Each list in order, as a client reads it without since. */
  const everything = new Map<List, Listed[]>();

  before(async () => {
    server = await startTestServer();
    tenant = await aTenant(server);
    for (let i = 0; i < 4; i++) await tenant.addVacancy({ id: `v-${i}`, status: 'open' });
    for (let i = 0; i < 5; i++) expect((await tenant.api.post('/applications', aMinimalApplicationBody(`v-${i % 2}`))).status).to.equal(201);
    for (const list of LISTS) everything.set(list, await listAll(list, ''));
    expect(everything.get('/vacancies')).to.have.length(4);
    expect(everything.get('/candidates')).to.have.length(5);
  });
  after(() => server.close());

  function get(path: string): Promise<RawResponse> {
    return rawRequest(server.origin, { method: 'GET', path: `${API_PATH}${path}`, headers: { 'x-api-key': tenant.key } });
  }

  async function listAll(list: List, query: string): Promise<Listed[]> {
    const response = await get(`${list}?limit=500${query}`);
    expectWellFormedAnswer(response, [200]);
    expect(response.body.nextCursor).to.equal(null);
    return response.body.items.map((item: { id: string; updatedAt: string }) => ({ id: item.id, at: Date.parse(item.updatedAt) }));
  }

  function recordsAfter(list: List, at: number, id = ''): string[] {
    return (everything.get(list) ?? []).filter((r) => r.at > at || (r.at === at && id !== '' && r.id > id)).map((r) => r.id);
  }

  function ids(response: RawResponse): string[] {
    return response.body.items.map((item: { id: string }) => item.id);
  }

  function expectProblemAt(response: RawResponse, code: string, parameter: string): void {
    expectWellFormedAnswer(response, [400]);
    expect(response.body.code, response.text).to.equal(code);
    expect(response.body.errors.map((e: { pointer: string }) => e.pointer), response.text).to.deep.equal([`/${parameter}`]);
  }

  /** The page of `list` for `since`: exactly the records modified after the instant the model reads. */
  async function expectSinceAnswer(list: List, text: string, instant: number): Promise<void> {
    const response = await get(`${list}?limit=500&since=${queryValue(text)}`);
    expectWellFormedAnswer(response, [200]);
    expect(ids(response), `${list} since ${text}`).to.deep.equal(recordsAfter(list, instant));
    expect(response.body.nextCursor).to.equal(null);
  }

  describe('since', () => {
    it('answers since=0000-01-01 and since=0001-01-01T00:00:00+05:00 (an instant in year 0000) with every record', async () => {
      for (const list of LISTS) {
        for (const since of ['0000-01-01', '0001-01-01T00:00:00+05:00', '0000-01-01T00:00:00+00:01', '0000-01-01T00:00:00.000Z']) {
          await expectSinceAnswer(list, since, Number.NEGATIVE_INFINITY);
          expect(recordsAfter(list, Number.NEGATIVE_INFINITY)).to.have.length.above(0);
        }
      }
    });

    it('answers since=9999-12-31T23:59:59-12:00 (an instant in year 10000) with no record', async () => {
      for (const list of LISTS) {
        for (const since of ['9999-12-31T23:59:59-12:00', '9999-12-31T23:59:59.999999999-23:59', '9999-12-31T23:59:59.999Z', '9999-12-31']) {
          await expectSinceAnswer(list, since, Number.POSITIVE_INFINITY);
        }
      }
    });

    it('answers every valid date or date-time from year 0000 to 9999, at any offset, with the records after it; refuses the others naming since', async () => {
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...LISTS), dateTimeParts, async (list, parts) => {
          const text = formatParts(parts);
          if (isValidRfc3339(parts)) return expectSinceAnswer(list, text, instantOf(parts));
          const response = await get(`${list}?since=${queryValue(text)}`);
          // A leap second is RFC 3339; whether it is read as one is since.ts's choice, but never a 5xx.
          if (isLeapSecond(parts) && isValidRfc3339({ ...parts, second: 59 })) return expectWellFormedAnswer(response, [200, 400]);
          expectProblemAt(response, 'validation_failed', 'since');
        }),
        hostileRuns(200),
      );
    });

    it('draws the line at the millisecond: since just before, at and after a record, written at any offset', async () => {
      const records = LISTS.flatMap((list) => (everything.get(list) ?? []).map((record) => ({ list, record })));
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...records), fc.integer({ min: -2, max: 2 }), offsetsInMinutes, extraFractionDigits, async ({ list, record }, delta, offset, extra) => {
          const parts = partsAt(record.at + delta, offset, extra);
          expect(instantOf(parts), formatParts(parts)).to.equal(record.at + delta);
          await expectSinceAnswer(list, formatParts(parts), record.at + delta);
        }),
        hostileRuns(150),
      );
    });

    it('answers any text as since with the records after some instant or a 400 naming since, never a 5xx', async () => {
      const nearlyDates = fc.tuple(dateTimeParts, fc.nat(), fc.string({ unit: 'binary', maxLength: 3 })).map(([parts, at, text]) => {
        const valid = formatParts(parts);
        const index = at % (valid.length + 1);
        return `${valid.slice(0, index)}${text}${valid.slice(index)}`;
      });
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...LISTS), fc.oneof(nearlyDates, hostileText(40), fc.string({ unit: 'binary', maxLength: 40 })), async (list, text) => {
          const response = await get(`${list}?limit=500&since=${queryValue(text)}`);
          expectWellFormedAnswer(response, [200, 400]);
          if (response.status === 400) return expectProblemAt(response, 'validation_failed', 'since');
          const all = (everything.get(list) ?? []).map((r) => r.id);
          expect(all.slice(all.length - response.body.items.length), text).to.deep.equal(ids(response));
        }),
        hostileRuns(150),
      );
    });
  });

  describe('cursors', () => {
    /** First pages of queries with a next page: their cursors are edited below. */
    const SOURCES: readonly { list: List; query: string; limit: number }[] = [
      { list: '/vacancies', query: '', limit: 2 },
      { list: '/vacancies', query: '&status=all&since=0000-01-01', limit: 1 },
      { list: '/candidates', query: '', limit: 2 },
      { list: '/candidates', query: `&since=${queryValue('0001-01-01T00:00:00+05:00')}`, limit: 3 },
    ];
    const cursors: { source: (typeof SOURCES)[number]; payload: Record<string, unknown> }[] = [];

    before(async () => {
      for (const source of SOURCES) {
        const page = await get(`${source.list}?limit=${source.limit}${source.query}`);
        expectWellFormedAnswer(page, [200]);
        expect(page.body.nextCursor, source.query).to.be.a('string');
        cursors.push({ source, payload: JSON.parse(Buffer.from(page.body.nextCursor, 'base64url').toString('utf8')) });
      }
    });

    function pageAfter(cursor: (typeof cursors)[number], t: unknown, i: unknown): Promise<RawResponse> {
      const edited = Buffer.from(JSON.stringify({ ...cursor.payload, t, i })).toString('base64url');
      return get(`${cursor.source.list}?limit=${cursor.source.limit}${cursor.source.query}&cursor=${edited}`);
    }

    /** The model's page after (t, i); each source query lists every record, as `everything` holds them. */
    function expectPageAfter(response: RawResponse, cursor: (typeof cursors)[number], t: number, i: string): void {
      expectWellFormedAnswer(response, [200]);
      const rest = recordsAfter(cursor.source.list, t, i);
      expect(ids(response), `after ${t} ${JSON.stringify(i)}`).to.deep.equal(rest.slice(0, cursor.source.limit));
      expect(response.body.nextCursor === null, 'nextCursor').to.equal(rest.length <= cursor.source.limit);
    }

    it('answers a nextCursor edited to a position in year 0000 with the first records, and one at the end of 9999 with none', async () => {
      for (const cursor of cursors) {
        for (const t of [FIRST_POSITION, Date.parse('0000-06-15T12:00:00.000Z'), Date.parse('0001-01-01T00:00:00.000Z') - 1]) {
          expectPageAfter(await pageAfter(cursor, t, 'a'), cursor, t, 'a');
        }
        expectPageAfter(await pageAfter(cursor, LAST_POSITION, 'zzz'), cursor, LAST_POSITION, 'zzz');
      }
    });

    it('answers 400 invalid_cursor at /cursor for a position just outside years 0000..9999', async () => {
      for (const cursor of cursors) {
        for (const t of [FIRST_POSITION - 1, LAST_POSITION + 1, Date.parse('-271821-04-20T00:00:00.000Z'), Date.parse('+275760-09-13T00:00:00.000Z')]) {
          expectProblemAt(await pageAfter(cursor, t, 'a'), 'invalid_cursor', 'cursor');
        }
      }
    });

    it('answers a cursor edited to any position with the records after it, or 400 invalid_cursor at /cursor, never a 5xx', async () => {
      const records = [...everything.values()].flat();
      const positions = fc.oneof(
        fc.double({ min: FIRST_POSITION, max: LAST_POSITION, noNaN: true }).map(Math.floor),
        fc.tuple(fc.constantFrom(FIRST_POSITION, LAST_POSITION, 0, ...records.map((r) => r.at)), fc.integer({ min: -3, max: 3 })).map(([t, d]) => t + d),
        fc.maxSafeInteger(),
        fc.double(),
        fc.constantFrom<unknown>(-8.64e15, 8.64e15, -8.64e15 - 1, 8.64e15 + 1, 2 ** 53, -(2 ** 53), 1e21, 0.5, Number.NaN, null, '0', [0], { t: 0 }),
      );
      const idsInCursor = fc.oneof(
        fc.constantFrom(...records.map((r) => r.id)),
        fc.constantFrom(...records.map((r) => r.id)).chain((id) => fc.string({ maxLength: 2 }).map((suffix) => `${id.slice(0, -1)}${suffix}`)),
        hostileText(70),
        fc.string({ unit: 'binary', maxLength: 70 }),
        fc.constantFrom<unknown>('', 'a', '\u0000', '\ud800', 'x'.repeat(64), 'x'.repeat(65), 7, null),
      );
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...cursors), positions, idsInCursor, async (cursor, t, i) => {
          const response = await pageAfter(cursor, t, i);
          // What the JSON text holds: -0 becomes 0, NaN null.
          const [sentT, sentI] = JSON.parse(JSON.stringify([t, i])) as [unknown, unknown];
          const holdable = typeof sentT === 'number' && Number.isSafeInteger(sentT) && sentT >= FIRST_POSITION && sentT <= LAST_POSITION;
          if (holdable && isCursorId(sentI)) return expectPageAfter(response, cursor, sentT, sentI);
          expectProblemAt(response, 'invalid_cursor', 'cursor');
        }),
        hostileRuns(200),
      );
    });

    it('answers any text as a cursor with 400 invalid_cursor at /cursor, never a 5xx', async () => {
      const base64Url = fc.string({ unit: fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'), minLength: 1, maxLength: 600 });
      const encodedJson = fc.jsonValue().map((value) => Buffer.from(JSON.stringify(value)).toString('base64url'));
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...cursors), fc.oneof(base64Url, encodedJson, hostileText(80, 1), fc.string({ unit: 'binary', minLength: 1, maxLength: 80 })), async (cursor, text) => {
          const response = await get(`${cursor.source.list}?limit=${cursor.source.limit}${cursor.source.query}&cursor=${queryValue(text)}`);
          expectProblemAt(response, 'invalid_cursor', 'cursor');
        }),
        hostileRuns(150),
      );
    });
  });
});

/** An id a cursor may carry: 1..64 UTF-16 units, no control character, well-formed (it round-trips through UTF-8). */
function isCursorId(value: unknown): value is string {
  return (
    typeof value === 'string' &&
    value.length >= 1 &&
    value.length <= 64 &&
    !/[\u0000-\u001f]/.test(value) &&
    Buffer.from(value, 'utf8').toString('utf8') === value
  );
}
