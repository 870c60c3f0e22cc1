import { expect } from 'chai';
import fc from 'fast-check';
import { gzipSync } from 'node:zlib';
import {
  APPLICATION_FIELDS,
  aCompleteBody,
  expectedCard,
  overlaps,
  setAtPointer,
  validApplication,
  wrongValueFor,
  type FieldKind,
} from '../support/hostile-applications.js';
import {
  FORBIDDEN_CHARACTERS,
  anyJson,
  expectNoPollution,
  expectPointersIntoBody,
  expectWellFormedAnswer,
  hostileRuns,
  hostileText,
  prototypeSnapshot,
  resolvePointer,
} from '../support/hostile-input.js';
import { aTenant, type Tenant } from '../support/http-fixtures.js';
import { API_PATH, startTestServer, type TestServer } from '../support/http-test-server.js';
import { rawRequest, type RawResponse } from '../support/raw-http.js';

describe('POST /applications under hostile input', function () {
  this.timeout(120_000);
  let server: TestServer;
  let tenant: Tenant;
  let vacancyId: string;
  let prototypes: string;
  /** Cards the tests made on purpose (201 responses); any other card is one an invalid request created. */
  let created = 0;
  let nextId = 0;

  before(async () => {
    prototypes = prototypeSnapshot();
    server = await startTestServer();
    tenant = await aTenant(server);
    vacancyId = (await tenant.addVacancy()).id;
  });
  after(() => server.close());
  afterEach(async function () {
    if (this.currentTest?.state === 'failed') return;
    expectNoPollution(prototypes);
    expect(await countCards(), 'no card was created but by a 201').to.equal(created);
  });

  function post(body: Buffer | string, headers: Record<string, string> = {}): Promise<RawResponse> {
    return rawRequest(server.origin, {
      method: 'POST',
      path: `${API_PATH}/applications`,
      headers: { 'content-type': 'application/json', 'x-api-key': tenant.key, ...headers },
      body,
    });
  }

  async function countCards(): Promise<number> {
    let count = 0;
    let cursor: string | null = '';
    while (cursor !== null) {
      const page: { body: { items: any[]; nextCursor: string | null } } = await tenant.api.get(`/candidates?limit=500&cursor=${encodeURIComponent(cursor)}`);
      count += page.body.items.length;
      cursor = page.body.nextCursor;
    }
    return count;
  }

  async function cardById(id: string): Promise<any> {
    let cursor: string | null = '';
    while (cursor !== null) {
      const page: { body: { items: any[]; nextCursor: string | null } } = await tenant.api.get(`/candidates?limit=500&cursor=${encodeURIComponent(cursor)}`);
      const card = page.body.items.find((item: any) => item.id === id);
      if (card !== undefined) return card;
      cursor = page.body.nextCursor;
    }
    return undefined;
  }

  /** A 400 whose problems name exactly these places of the body. */
  function expectProblemsAt(response: RawResponse, document: unknown, pointers: readonly string[]): void {
    expectWellFormedAnswer(response, [400]);
    expect(response.body.code).to.equal('validation_failed');
    expectPointersIntoBody(response, document);
    const found = [...new Set((response.body.errors as { pointer: string }[]).map((e) => e.pointer))].sort();
    expect(found, response.text.slice(0, 800)).to.deep.equal([...pointers].sort());
  }

  it('stores every valid application verbatim, however odd its text, and returns it unchanged', async () => {
    await fc.assert(
      fc.asyncProperty(validApplication(vacancyId, hostileText(180)), async (generated) => {
        // Unique, so that a shrunk run is not a replay of an earlier one.
        const body = { ...generated, externalId: `${generated.externalId}#${(nextId += 1)}` };
        const response = await post(JSON.stringify(body));
        expectWellFormedAnswer(response, [201]);
        created += 1;
        const card = await cardById(response.body.id);
        const expected = expectedCard(body);
        const { resume, ...rest } = expected;
        expect(card).to.deep.include(rest);
        expect(pick(card.resume, Object.keys(resume))).to.deep.equal(resume);

        const replay = await post(JSON.stringify(body));
        expectWellFormedAnswer(replay, [200]);
        expect(replay.body).to.deep.equal({ id: response.body.id, status: 'duplicate' });
        expect(replay.headers['idempotency-conflict'], 'the same body is no conflict').to.equal(undefined);
      }),
      hostileRuns(60),
    );
  });

  it('answers 400 naming every field a mutation broke (type, length, missing, NUL or lone surrogate) and creates nothing', async () => {
    const fields = fc.constantFrom(...APPLICATION_FIELDS);
    const mutation = fields.chain((field) => {
      const kinds: fc.Arbitrary<{ pointer: string; value: unknown }>[] = [wrongValueFor(field.kind).map((value) => ({ pointer: field.pointer, value }))];
      if (field.maxLength !== undefined) {
        const max = field.maxLength;
        kinds.push(fc.tuple(hostileText(20), fc.integer({ min: 1, max: 40 })).map(([text, extra]) => ({ pointer: field.pointer, value: `${text}${'ж'.repeat(max + extra)}` })));
      }
      if (field.required) kinds.push(fc.constant({ pointer: field.pointer, value: undefined }));
      if (isText(field.kind)) kinds.push(fc.tuple(fc.constantFrom(...FORBIDDEN_CHARACTERS), fc.nat()).map(([ch, at]) => ({ pointer: field.pointer, value: insertAt(ch, at) })));
      return fc.oneof(...kinds);
    });
    const mutations = fc.uniqueArray(mutation, { minLength: 1, maxLength: 3, comparator: (a, b) => overlaps(a.pointer, b.pointer) });

    await fc.assert(
      fc.asyncProperty(mutations, async (changes) => {
        const body = aCompleteBody(vacancyId, `mutated-${(nextId += 1)}`);
        for (const { pointer, value } of changes) {
          const current = resolvePointer(body, pointer).value;
          setAtPointer(body, pointer, typeof value === 'function' ? value(current) : value);
        }
        const response = await post(JSON.stringify(body));
        expectProblemsAt(response, body, changes.map((c) => c.pointer));
      }),
      hostileRuns(150),
    );
  });

  it('answers any JSON document with a 400 that points into it, or a 404 for a vacancy that is not there', async () => {
    const documents = fc.oneof(
      anyJson,
      fc.record({ externalId: anyJson, vacancyId: anyJson, candidate: anyJson, resume: anyJson, referral: anyJson }, { requiredKeys: [] }),
      fc.tuple(anyJson, fc.dictionary(hostileText(10), anyJson, { maxKeys: 3 })).map(([junk, extra]) => ({ ...aCompleteBody(vacancyId, `junk-${(nextId += 1)}`), ...extra, candidate: junk })),
    );
    await fc.assert(
      fc.asyncProperty(documents, async (document) => {
        const response = await post(JSON.stringify(document) ?? 'null');
        expectWellFormedAnswer(response, [201, 400, 404]);
        if (response.status === 201) created += 1;
        if (response.status === 400) expectPointersIntoBody(response, document);
      }),
      hostileRuns(150),
    );
  });

  it('answers 400 for any bytes that are not a JSON document, pointing at the whole document', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 200 }), async (bytes) => {
        const response = await post(Buffer.from(bytes));
        expectWellFormedAnswer(response, [400]);
        expect(response.body.errors.map((e: any) => e.pointer)).to.deep.equal(['']);
      }),
      hostileRuns(60),
    );
  });

  it('refuses a body that is not valid UTF-8 rather than storing replacement characters', async () => {
    const invalidSequences = [[0xff], [0xc0, 0x80], [0xed, 0xa0, 0x80], [0xe2, 0x82], [0xf8, 0x88, 0x80, 0x80, 0x80], [0x80], [0xf4, 0x90, 0x80, 0x80]];
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...invalidSequences), fc.constantFrom('/candidate/name', '/coverLetter', '/externalId', '/resume/summary'), async (sequence, pointer) => {
        const body = aCompleteBody(vacancyId, `utf8-${(nextId += 1)}`);
        setAtPointer(body, pointer, `${String(resolvePointer(body, pointer).value)}\u0001MARK`);
        const text = Buffer.from(JSON.stringify(body));
        const at = text.indexOf('\\u0001MARK');
        const bytes = Buffer.concat([text.subarray(0, at), Buffer.from(sequence), text.subarray(at + '\\u0001MARK'.length)]);
        const response = await post(bytes);
        expectWellFormedAnswer(response, [400]);
        expect(response.body.errors).to.deep.equal([{ pointer: '', message: 'must be UTF-8' }]);
      }),
      hostileRuns(20),
    );
  });

  it('takes the last of duplicate keys, as JSON.parse does, at every level', async () => {
    const text = (externalId: string) =>
      `{"externalId":"first","externalId":"${externalId}","vacancyId":"nowhere","vacancyId":"${vacancyId}",` +
      `"candidate":{"name":"Первое"},"candidate":{"name":"Первое","name":"Второе","email":"a@example.kz"},"source":"x","source":"y"}`;
    const response = await post(text('dup-keys-1'));
    expectWellFormedAnswer(response, [201]);
    created += 1;
    const card = await cardById(response.body.id);
    expect(card).to.deep.include({ externalId: 'dup-keys-1', source: 'y' });
    expect(card.candidate).to.include({ name: 'Второе', email: 'a@example.kz' });

    const lastInvalid = await post(`{"externalId":"dup-keys-2","vacancyId":"${vacancyId}","candidate":{"name":"Имя","name":""}}`);
    expectWellFormedAnswer(lastInvalid, [400]);
    expect(lastInvalid.body.errors).to.deep.equal([{ pointer: '/candidate/name', message: 'must not be empty' }]);
  });

  describe('prototype keys', () => {
    const PROTO_KEYS = ['__proto__', 'constructor', 'prototype'] as const;
    const objectPointers = ['', '/candidate', '/resume', '/resume/experience/0', '/resume/education/0', '/referral'];
    const payloads = fc.oneof(
      fc.constant({ polluted: true, isAdmin: true }),
      fc.constant({ prototype: { polluted: true } }),
      fc.constant(JSON.parse('{"__proto__":{"polluted":true}}')),
      fc.constant([{ polluted: true }]),
      anyJson,
    );
    const insertions = fc.uniqueArray(fc.record({ at: fc.constantFrom(...objectPointers), key: fc.constantFrom(...PROTO_KEYS), value: payloads }), {
      minLength: 1,
      maxLength: 4,
      selector: (i) => `${i.at}/${i.key}`,
    });

    it('refuse __proto__ anywhere with a 400 pointing at it, ignore constructor and prototype like any unknown field, and pollute nothing', async () => {
      await fc.assert(
        fc.asyncProperty(insertions, async (inserts) => {
          const body = aCompleteBody(vacancyId, `proto-${(nextId += 1)}`);
          for (const { at, key, value } of inserts) setAtPointer(body, `${at}/${key}`, JSON.parse(JSON.stringify(value) ?? 'null'));
          const sent = JSON.stringify(body);
          expect(sent).to.include(`"${inserts[0]!.key}":`);
          const response = await post(sent);
          expectNoPollution(prototypes);
          const protoPointers = protoKeyPointers(JSON.parse(sent));
          if (protoPointers.length > 0) {
            expectProblemsAt(response, JSON.parse(sent), protoPointers);
            return;
          }
          expectWellFormedAnswer(response, [201]);
          created += 1;
          const card = JSON.stringify(await cardById(response.body.id));
          for (const word of ['polluted', 'isAdmin', '"prototype"', '"constructor"']) expect(card).to.not.include(word);
        }),
        hostileRuns(80),
      );
    });

    it('refuse a __proto__ written with escapes and one nested deep in an ignored field', async () => {
      const escaped = await post(`{"externalId":"p1","vacancyId":"${vacancyId}","candidate":{"name":"Имя","\\u005f_pr\\u006fto__":{"polluted":true}}}`);
      expectWellFormedAnswer(escaped, [400]);
      expect(escaped.body.errors).to.deep.equal([{ pointer: '/candidate/__proto__', message: 'is a forbidden key' }]);
      const deep = await post(`{"externalId":"p2","vacancyId":"${vacancyId}","candidate":{"name":"Имя"},"extra":${'['.repeat(60)}{"__proto__":{"polluted":1}}${']'.repeat(60)}}`);
      expectWellFormedAnswer(deep, [400]);
      expect(deep.body.errors).to.deep.equal([{ pointer: `/extra${'/0'.repeat(60)}/__proto__`, message: 'is a forbidden key' }]);
      expectNoPollution(prototypes);
    });
  });

  describe('size and depth', () => {
    const nested = (levels: number, inner = '') => `${'['.repeat(levels)}${inner}${']'.repeat(levels)}`;
    const depthProblem = [{ pointer: '', message: 'must not nest deeper than 64 levels' }];

    it('refuses nesting deeper than 64 levels wherever it is, an ignored field included, and counts no brackets inside strings', async () => {
      const whole = await post(nested(10_000));
      expectWellFormedAnswer(whole, [400]);
      expect(whole.body.errors).to.deep.equal(depthProblem);

      const inField = await post(`{"externalId":"deep-1","vacancyId":"${vacancyId}","candidate":{"name":"Имя"},"resume":{"skills":${nested(10_000)}}}`);
      expectWellFormedAnswer(inField, [400]);
      expect(inField.body.errors).to.deep.equal(depthProblem);

      const objects = (levels: number) => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;
      const body = (externalId: string, unknown: string) => `{"externalId":"${externalId}","vacancyId":"${vacancyId}","candidate":{"name":"[{[{\\\\\\"["},"unknown":${unknown}}`;
      const tooDeep = await post(body('deep-2', objects(64)));
      expectWellFormedAnswer(tooDeep, [400]);
      expect(tooDeep.body.errors).to.deep.equal(depthProblem);
      const deepest = await post(body('deep-3', objects(63)));
      expectWellFormedAnswer(deepest, [201]);
      created += 1;
      expect((await cardById(deepest.body.id)).candidate.name).to.equal('[{[{\\"[');
    });

    it('refuses the deepest nesting that fits in 5 MiB without parsing it', async () => {
      const prefix = `{"externalId":"deepest","vacancyId":"${vacancyId}","candidate":{"name":"Имя"},"resume":{"skills":`;
      const levels = Math.floor((5 * 1024 * 1024 - Buffer.byteLength(prefix) - 2) / 2);
      const started = Date.now();
      const response = await post(`${prefix}${nested(levels)}}}`);
      expectWellFormedAnswer(response, [400]);
      expect(response.body.errors).to.deep.equal(depthProblem);
      // JSON.parse of these 2.6 million levels takes seconds; the depth check, milliseconds.
      expect(Date.now() - started).to.be.below(1_000);
    });

    it('answers 400 for a 4 MiB string in a field and 413 for a body over 5 MiB, echoing neither', async () => {
      const huge = 'Ж'.repeat(2 * 1024 * 1024);
      const long = await post(JSON.stringify(aCompleteBody(vacancyId, 'huge-1')).replace('"Письмо"', `"${huge}"`));
      expectWellFormedAnswer(long, [400]);
      expect(long.body.errors).to.deep.equal([{ pointer: '/coverLetter', message: 'must be at most 20000 characters' }]);
      expect(long.text.length).to.be.below(2000);
      const tooLarge = await post(JSON.stringify({ ...aCompleteBody(vacancyId, 'huge-2'), padding: 'x'.repeat(5 * 1024 * 1024) }));
      expectWellFormedAnswer(tooLarge, [413]);
    });
  });

  describe('content encoding', () => {
    it('reads a gzip body, and answers 400 for a corrupt one and 413 for one that inflates past 5 MiB', async () => {
      const ok = await post(gzipSync(JSON.stringify(aCompleteBody(vacancyId, 'gzip-1'))), { 'content-encoding': 'gzip' });
      expectWellFormedAnswer(ok, [201]);
      created += 1;
      await fc.assert(
        fc.asyncProperty(fc.uint8Array({ minLength: 1, maxLength: 64 }), fc.constantFrom('gzip', 'deflate', 'br'), async (bytes, encoding) => {
          const response = await post(Buffer.from(bytes), { 'content-encoding': encoding });
          expectWellFormedAnswer(response, [400]);
          expect(response.body.errors.map((e: any) => e.pointer)).to.deep.equal(['']);
        }),
        hostileRuns(30),
      );
      const truncated = gzipSync(JSON.stringify(aCompleteBody(vacancyId, 'gzip-2')));
      expectWellFormedAnswer(await post(truncated.subarray(0, truncated.length - 10), { 'content-encoding': 'gzip' }), [400]);
      const bomb = gzipSync(Buffer.alloc(6 * 1024 * 1024, 0x20));
      expectWellFormedAnswer(await post(bomb, { 'content-encoding': 'gzip' }), [413]);
      expectWellFormedAnswer(await post('{}', { 'content-encoding': 'compress' }), [415]);
    });
  });
});

/** Where a document has an own `__proto__` key. */
function protoKeyPointers(document: unknown, at = ''): string[] {
  if (typeof document !== 'object' || document === null) return [];
  return Object.keys(document).flatMap((key) => [
    ...(key === '__proto__' ? [`${at}/__proto__`] : []),
    ...protoKeyPointers((document as Record<string, unknown>)[key], `${at}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`),
  ]);
}

function pick(value: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(keys.map((key) => [key, value[key]]));
}

function isText(kind: FieldKind): boolean {
  return kind === 'string' || kind === 'nullable-string';
}

/** A mutation that puts `character` into the field's current text at a code-point position. */
function insertAt(character: string, at: number) {
  return (current: unknown) => {
    const points = [...String(current)];
    const index = at % (points.length + 1);
    return [...points.slice(0, index), character, ...points.slice(index)].join('');
  };
}
