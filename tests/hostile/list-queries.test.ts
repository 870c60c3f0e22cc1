import { expect } from 'chai';
import fc from 'fast-check';
import { queryFingerprint } from '../../domain/paging/cursor.js';
import { VACANCY_STATUSES } from '../../domain/vacancy/vacancy-status.js';
import { FORBIDDEN_CHARACTERS, SQL_AND_MARKUP, expectNoPollution, expectWellFormedAnswer, hostileRuns, hostileText, prototypeSnapshot } from '../support/hostile-input.js';
import { aMinimalApplicationBody, aTenant, type Tenant } from '../support/http-fixtures.js';
import { API_PATH, startTestServer, type TestServer } from '../support/http-test-server.js';
import { rawRequest, type RawResponse } from '../support/raw-http.js';

const PARAMETERS = ['since', 'limit', 'cursor', 'status', 'vacancyId', 'fields'] as const;
const LISTS = ['/vacancies', '/candidates'] as const;
/** What each list takes; any other name, the other list's included, is a 400 naming it. */
const TAKES: Record<(typeof LISTS)[number], readonly string[]> = {
  '/vacancies': ['since', 'limit', 'cursor', 'status', 'fields'],
  '/candidates': ['since', 'limit', 'cursor', 'vacancyId', 'fields'],
};

/** Values close to valid ones, and hostile ones. */
const parameterValues = fc.oneof(
  fc.constantFrom('', 'null', 'all', 'open', 'draft', 'id', 'ID', 'id,updatedAt', '1', '500', '501', '0', '-1', '1e2', '0x10', ' 5', '5 ', '１', '2.5', '99999999999999999999', 'NaN'),
  fc.constantFrom('2026-01-01', '2026-01-01T00:00:00Z', '2026-01-01T00:00:00+05:00', '2026-02-30', '2026-01-01T24:00:00Z', '0000-01-01', '9999-12-31T23:59:59.999999999-23:59', '+275760-09-13'),
  fc.constantFrom(...SQL_AND_MARKUP, ...FORBIDDEN_CHARACTERS),
  hostileText(80),
  fc.string({ unit: 'binary', maxLength: 600 }),
);

/** A query string: known and unknown names, repeated names, values encoded or (where safe) raw, and malformed escapes. */
const queryStrings = fc
  .array(
    fc.record({
      name: fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...PARAMETERS) }, { weight: 1, arbitrary: fc.constantFrom('api_key', 'offset', '__proto__', 'constructor', 'Limit', 'limit[]', 'stauts', 'a/b~c', '') }),
      value: parameterValues,
      form: fc.constantFrom('encoded', 'encoded', 'encoded', 'bare-name', 'broken-escape'),
    }),
    { maxLength: 6 },
  )
  .map((pairs) =>
    pairs
      .map(({ name, value, form }) => {
        if (form === 'bare-name') return percentEncoded(name);
        const encoded = percentEncoded(value);
        return `${percentEncoded(name)}=${form === 'broken-escape' ? `${encoded}%${encoded.length % 2 === 0 ? 'zz' : 'E0%A4%A'}` : encoded}`;
      })
      .join('&'),
  );

describe('GET /vacancies and GET /candidates under hostile input', function () {
  this.timeout(120_000);
  let server: TestServer;
  let tenant: Tenant;
  let prototypes: string;
  const cursors: { list: (typeof LISTS)[number]; query: string; cursor: string }[] = [];

  before(async () => {
    prototypes = prototypeSnapshot();
    server = await startTestServer();
    tenant = await aTenant(server);
    for (const status of VACANCY_STATUSES) for (let i = 0; i < 2; i++) await tenant.addVacancy({ id: `v-${status}-${i}`, status });
    for (let i = 0; i < 4; i++) expect((await tenant.api.post('/applications', aMinimalApplicationBody(`v-open-${i % 2}`))).status).to.equal(201);
    for (const [list, query] of [
      ['/vacancies', 'limit=1'],
      ['/vacancies', 'status=all&limit=3'],
      ['/vacancies', 'status=draft&limit=1&since=2000-01-01'],
      ['/candidates', 'limit=1'],
      ['/candidates', 'vacancyId=v-open-0&limit=1'],
    ] as const) {
      const page = await tenant.api.get(`${list}?${query}`);
      expect(page.body.nextCursor, `${list}?${query}`).to.be.a('string');
      cursors.push({ list, query, cursor: page.body.nextCursor });
    }
  });
  after(() => server.close());
  afterEach(() => expectNoPollution(prototypes));

  function get(path: string): Promise<RawResponse> {
    return rawRequest(server.origin, { method: 'GET', path: `${API_PATH}${path}`, headers: { 'x-api-key': tenant.key } });
  }

  /**
   * A 200 page, or a 400 whose problems each name a parameter that was sent. A name the list does not take
   * makes it a 400 validation_failed with one problem for each such name, in the order they first came.
   */
  function expectPageOrQueryProblem(response: RawResponse, list: (typeof LISTS)[number], query: string): void {
    expectWellFormedAnswer(response, [200, 400]);
    const sent = new Set([...new URLSearchParams(query).keys()]);
    const unknown = [...sent].filter((name) => !TAKES[list].includes(name));
    if (unknown.length > 0) {
      expect([response.status, response.body.code], query).to.deep.equal([400, 'validation_failed']);
      const message = `is not a parameter of this operation, which takes ${TAKES[list].join(', ')}`;
      const aboutUnknown = response.body.errors.filter((problem: { parameter: string }) => !TAKES[list].includes(problem.parameter));
      expect(aboutUnknown, query).to.deep.equal(unknown.map((name) => ({ pointer: pointerTo(name), parameter: name, message })));
    }
    if (response.status === 200) {
      expect(response.body.items).to.be.an('array');
      expect(response.body.nextCursor === null || typeof response.body.nextCursor === 'string').to.equal(true);
      return;
    }
    if (response.body.code === 'invalid_cursor') {
      expect(sent.has('cursor'), query).to.equal(true);
      return;
    }
    expect(response.body.code).to.equal('validation_failed');
    for (const problem of response.body.errors) {
      expect(problem.pointer).to.equal(pointerTo(problem.parameter));
      expect(sent.has(problem.parameter), `${problem.parameter} in ${query}`).to.equal(true);
    }
  }

  it('answers any query string with a page or a 400 naming the parameters at fault, every unknown name among them', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...LISTS), queryStrings, async (list, query) => {
        expectPageOrQueryProblem(await get(`${list}?${query}`), list, query);
      }),
      hostileRuns(150),
    );
  });

  it('refuses a vacancyId with NUL, which no store can hold, naming it', async () => {
    const response = await get('/candidates?vacancyId=v-open-0%00');
    expectWellFormedAnswer(response, [400]);
    expect(response.body.errors).to.deep.equal([
      { pointer: '/vacancyId', parameter: 'vacancyId', message: 'must not contain NUL (U+0000) or unpaired surrogate characters' },
    ]);
  });

  it('answers 400 invalid_cursor, never a 5xx, for a cursor that was flipped, cut, padded or taken from another query', async () => {
    const mutations = fc.oneof(
      fc.nat().map((bit) => (cursor: string) => flipBit(cursor, bit)),
      fc.nat().map((at) => (cursor: string) => cursor.slice(0, at % cursor.length)),
      fc.tuple(fc.nat(), fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 3 })).map(([at, text]) => (cursor: string) => {
        const index = at % (cursor.length + 1);
        return `${cursor.slice(0, index)}${text}${cursor.slice(index)}`;
      }),
      fc.constant((cursor: string) => cursor.repeat(2)),
      fc.constant((cursor: string) => `${cursor}=`),
      fc.constant((cursor: string) => cursor.toUpperCase()),
      fc.constant((cursor: string) => 'A'.repeat(cursor.length)),
    );
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...cursors), fc.array(mutations, { minLength: 1, maxLength: 3 }), async (source, changes) => {
        const cursor = changes.reduce((current, change) => change(current), source.cursor);
        const query = `${source.query}&cursor=${encodeURIComponent(cursor)}`;
        const response = await get(`${source.list}?${query}`);
        expectPageOrQueryProblem(response, source.list, query);
        if (cursor !== source.cursor && response.status === 400) expect(response.body.code).to.equal('invalid_cursor');
      }),
      hostileRuns(200),
    );

    for (const source of cursors) {
      for (const other of cursors.filter((c) => c !== source)) {
        const response = await get(`${other.list}?${other.query}&cursor=${encodeURIComponent(source.cursor)}`);
        expectWellFormedAnswer(response, [400]);
        expect(response.body.code, `${source.query} on ${other.query}`).to.equal('invalid_cursor');
      }
    }
  });

  it('answers 400 invalid_cursor for a forged cursor of the right query with a position no store could hold', async () => {
    const fingerprint = queryFingerprint(['vacancies', tenant.companyId, null, 'open']);
    const forge = (payload: unknown) => Buffer.from(typeof payload === 'string' ? payload : JSON.stringify(payload)).toString('base64url');
    const ok = await get(`/vacancies?cursor=${forge({ v: 1, t: Date.parse('2000-01-01T00:00:00Z'), i: 'a', f: fingerprint })}`);
    expectWellFormedAnswer(ok, [200]);
    const forged = [
      { v: 1, t: 0, i: 'v\u0000', f: fingerprint },
      { v: 1, t: 0, i: '\ud800', f: fingerprint },
      { v: 1, t: -8.64e15, i: 'a', f: fingerprint },
      { v: 1, t: 8.64e15, i: 'a', f: fingerprint },
      { v: 1, t: Date.parse('+010000-01-01T00:00:00Z'), i: 'a', f: fingerprint },
      { v: 1, t: 1.5, i: 'a', f: fingerprint },
      { v: 1, t: '0', i: 'a', f: fingerprint },
      { v: 2, t: 0, i: 'a', f: fingerprint },
      { v: 1, t: 0, i: 'x'.repeat(65), f: fingerprint },
      { v: 1, t: 0, i: '', f: fingerprint },
      { v: 1, t: 0, i: ['a'], f: fingerprint },
      `{"v":1,"t":0,"i":"a","f":"${fingerprint}","__proto__":{"polluted":true},"i":{"constructor":{"prototype":{"polluted":true}}}}`,
      [1, 0, 'a', fingerprint],
      null,
    ];
    for (const payload of forged) {
      const response = await get(`/vacancies?cursor=${forge(payload)}`);
      expectWellFormedAnswer(response, [400]);
      expect(response.body.code, JSON.stringify(payload)).to.equal('invalid_cursor');
    }
  });
});

/** `/<name>` as a JSON Pointer (RFC 6901). */
function pointerTo(name: string): string {
  return `/${name.replaceAll('~', '~0').replaceAll('/', '~1')}`;
}

/** Every byte of the UTF-8 form but unreserved ones as %XX; unlike encodeURIComponent, takes lone surrogates (as U+FFFD). */
function percentEncoded(text: string): string {
  return [...Buffer.from(text, 'utf8')].map((byte) => (/[A-Za-z0-9_.~-]/.test(String.fromCharCode(byte)) ? String.fromCharCode(byte) : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`)).join('');
}

/** Flips one bit of the bytes a base64url cursor stands for. */
function flipBit(cursor: string, bit: number): string {
  const bytes = Buffer.from(cursor, 'base64url');
  if (bytes.length === 0) return cursor;
  const index = Math.floor(bit / 8) % bytes.length;
  bytes[index] = bytes[index]! ^ (1 << bit % 8);
  return bytes.toString('base64url');
}
