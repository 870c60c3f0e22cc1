import { expect } from 'chai';
import fc from 'fast-check';
import { aMinimalApplicationBody, aTenant, type Tenant } from '../support/http-fixtures.js';
import { startTestServer, type TestServer } from '../support/http-test-server.js';
import { OpenApiConformance } from '../support/openapi-conformance.js';
import { documentValidator, fieldPaths, pointersOf, SchemaArbitraries, type FieldPath } from '../support/schema-arbitraries.js';

type Json = any;

/** Requests per kind: bounded, so that the file takes seconds on either store. */
const VALID_BODIES = 80;
const BROKEN_BODIES = 80;
const VALID_QUERIES = 40;
const BROKEN_QUERIES = 30;
const SEED = Number(process.env.DOCUMENT_REQUESTS_SEED ?? Date.now() % 2 ** 31);
const QUERY_INTEGER = /^-?[0-9]+$/;
const UNPAIRED_SURROGATE = /\p{Cs}/u;

/** Each draw has a seed of its own, mixed from SEED (neighbouring seeds give alike first values), so SEED repeats a run. */
let draws = 0;
function nextSeed(): number {
  let h = Math.imul(SEED ^ Math.imul(++draws, 0x9e3779b1), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) | 0;
}
const sample = <T>(arbitrary: fc.Arbitrary<T>): T => fc.sample(arbitrary, { numRuns: 1, seed: nextSeed() })[0] as T;

/**
 * The published document is the contract for requests too: requests are generated from the document's own
 * schemas (fast-check arbitraries built from them, judged by ajv with JSON Schema's own reading of each format)
 * and sent to the real app. What the document admits is served; what breaks one field is a 400 naming exactly
 * that field; no response breaks the document.
 */
describe('Requests generated from the OpenAPI document', function () {
  this.timeout(120_000);
  let server: TestServer;
  let tenant: Tenant;
  let document: Json;
  let conformance: OpenApiConformance;
  let checkedFetch: typeof fetch;
  let arbitraries: SchemaArbitraries;
  let validator: ReturnType<typeof documentValidator>;
  const vacancyIds: string[] = [];

  before(async () => {
    server = await startTestServer();
    tenant = await aTenant(server);
    // Several of each status, so that a first page of one item has a next page under most filters.
    for (const status of ['open', 'paused', 'closed', 'archived', 'draft'] as const) {
      for (let i = 0; i < 3; i++) vacancyIds.push((await tenant.addVacancy({ status })).id);
    }
    for (const id of [...vacancyIds, ...vacancyIds]) expect((await tenant.api.post('/applications', aMinimalApplicationBody(id))).status).to.equal(201);
    document = await (await fetch(`${server.baseUrl}/openapi.json`)).json();
    conformance = new OpenApiConformance(document);
    checkedFetch = conformance.wrap(fetch);
    arbitraries = new SchemaArbitraries(document);
    validator = documentValidator(document);
  });
  after(() => server.close());
  afterEach(function () {
    if (this.currentTest?.state === 'failed') console.log(`  (repeat with DOCUMENT_REQUESTS_SEED=${SEED})`);
  });

  async function send(method: string, path: string, init: { body?: string; headers?: Record<string, string> } = {}) {
    const response = await checkedFetch(`${server.baseUrl}${path}`, {
      method,
      headers: { 'X-API-Key': tenant.key, ...(init.body === undefined ? {} : { 'Content-Type': 'application/json' }), ...init.headers },
      ...(init.body === undefined ? {} : { body: init.body }),
    });
    const text = await response.text();
    return { status: response.status, body: text === '' ? undefined : (JSON.parse(text) as Json) };
  }

  describe('POST /applications', () => {
    let bodySchema: Json;
    let admitsBody: ReturnType<typeof validator.compile>;
    const seenExternalIds = new Set<string>();

    before(() => {
      bodySchema = document.paths['/integration/v1/applications'].post.requestBody.content['application/json'].schema;
      admitsBody = validator.compile(bodySchema);
    });

    /** A body the document admits, with a real vacancy and a repeated externalId part of the time. */
    function validBody(): Json {
      const body = fc
        .tuple(
          arbitraries.valueOf(bodySchema),
          fc.oneof({ weight: 1, arbitrary: fc.constant(undefined) }, { weight: 2, arbitrary: fc.constantFrom(...vacancyIds) }),
          fc.oneof({ weight: 4, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: fc.constantFrom('repeated-1', 'repeated-2') }),
        )
        .map(([generated, vacancyId, externalId]) => ({ ...(generated as object), ...(vacancyId && { vacancyId }), ...(externalId && { externalId }) }));
      for (let attempt = 0; attempt < 20; attempt++) {
        const candidate = sample(body);
        if (admitsBody(candidate)) return candidate;
      }
      throw new Error('the document admits none of 20 generated bodies');
    }

    it('answers every body the document admits with 201, 200 for a repeated externalId, or 404 for a vacancy the company lacks', async () => {
      const statuses = new Set<number>();
      const allTaken = () => [200, 201, 404].every((status) => statuses.has(status));
      // At least VALID_BODIES, and more (up to three times as many) until every path has been taken.
      for (let i = 0; i < VALID_BODIES || (!allTaken() && i < 3 * VALID_BODIES); i++) {
        const body = validBody();
        const known = vacancyIds.includes(body.vacancyId);
        const repeated = seenExternalIds.has(body.externalId);
        const response = await send('POST', '/applications', { body: JSON.stringify(body) });
        const expected = known ? (repeated ? [200] : [201]) : repeated ? [200, 404] : [404];
        expect(response.status, `${JSON.stringify(body)} -> ${JSON.stringify(response.body)}`).to.be.oneOf(expected);
        if (response.status === 404) expect(response.body.code).to.equal('not_found');
        if (response.status === 201) seenExternalIds.add(body.externalId);
        statuses.add(response.status);
      }
      expect([...statuses].sort(), 'created, duplicate and not-found paths were all taken').to.deep.equal([200, 201, 404]);
      expect(conformance.violations).to.deep.equal([]);
    });

    it('answers a body with exactly one field broken with 400 naming exactly that field', async () => {
      const fields = fieldPaths(arbitraries, bodySchema);
      const broken = new Set<string>();
      for (let i = 0; i < BROKEN_BODIES; i++) {
        const field = fields[i % fields.length] as FieldPath;
        const { body, pointer } = breakOneField(field);
        const response = await send('POST', '/applications', { body: JSON.stringify(body) });
        const problem = `${pointer} in ${JSON.stringify(body)} -> ${JSON.stringify(response.body)}`;
        expect(response.status, problem).to.equal(400);
        expect(response.body.code, problem).to.equal('validation_failed');
        expect([...new Set((response.body.errors as { pointer: string }[]).map((e) => e.pointer))], problem).to.deep.equal([pointer]);
        broken.add(pointer);
      }
      expect([...broken].sort(), 'every field of the body was broken').to.deep.equal(fields.map((f) => f.pointer).sort());
      expect(conformance.violations).to.deep.equal([]);
    });

    /** A valid body in which `field` alone holds a value its schema refuses, or is left out when it is required. */
    function breakOneField(field: FieldPath): { body: Json; pointer: string } {
      for (let attempt = 0; attempt < 50; attempt++) {
        const body = validBody();
        const parent = parentOf(body, field.tokens);
        const last = field.tokens[field.tokens.length - 1] as string | number;
        const current = parent[last] ?? sample(arbitraries.valueOf(field.schema));
        const leaveOut = field.required && attempt % 4 === 0;
        if (leaveOut) delete parent[last];
        else parent[last] = sample(arbitraries.breakingCandidates(field.schema, current));
        // Exactly this field, and nothing else, is wrong in the document's eyes.
        if (!admitsBody(body) && pointersOf(admitsBody.errors).join() === field.pointer) return { body, pointer: field.pointer };
      }
      throw new Error(`no value found that breaks ${field.pointer} alone`);
    }

    /** The object or array that holds the field, made with valid values where the body had none. */
    function parentOf(body: Json, tokens: readonly (string | number)[]): Json {
      let at = body;
      let schema = bodySchema;
      for (const token of tokens.slice(0, -1)) {
        schema = arbitraries.resolve(schema);
        const childSchema = typeof token === 'number' ? schema.items : schema.properties[token];
        if (at[token] === undefined) at[token] = sample(arbitraries.valueOf(childSchema));
        if (Array.isArray(at[token]) && at[token].length === 0) at[token].push(sample(arbitraries.valueOf(arbitraries.resolve(childSchema).items)));
        at = at[token];
        schema = childSchema;
      }
      return at;
    }
  });

  for (const [path, operationId] of [['/integration/v1/vacancies', 'listVacancies'], ['/integration/v1/candidates', 'listCandidates']] as const) {
    describe(`GET ${path.replace('/integration/v1', '')} (${operationId})`, () => {
      const route = path.replace('/integration/v1', '');
      let parameters: Json[];

      before(() => {
        parameters = (document.paths[path].get.parameters as Json[]).map((p) => arbitraries.resolve(p));
        expect(parameters.map((p) => p.name)).to.include.members(['since', 'limit', 'cursor', 'X-Request-Id']);
      });

      const queryOf = (values: Record<string, string>) => {
        const query = new URLSearchParams();
        for (const p of parameters) if (p.in === 'query' && values[p.name] !== undefined) query.set(p.name, values[p.name]!);
        return query.toString() === '' ? '' : `?${query}`;
      };
      const headersOf = (values: Record<string, string>) =>
        Object.fromEntries(parameters.filter((p) => p.in === 'header' && values[p.name] !== undefined).map((p) => [p.name, values[p.name]!]));
      /** A query string carries text: an integer parameter's value is its base-10 digits. */
      const admitsText = (parameter: Json, text: string) => {
        const value = parameter.schema.type === 'integer' && QUERY_INTEGER.test(text) ? Number(text) : text;
        return validator.compile(parameter.schema)(value);
      };
      /** Text the parameter's schema admits; of a header value, what HTTP can carry (Latin-1 without controls, not padded). */
      const validText = (parameter: Json): string => {
        for (let attempt = 0; attempt < 50; attempt++) {
          const generated = String(sample(arbitraries.valueOf(parameter.schema)));
          const text = parameter.in === 'header' ? generated.replace(/[^ -~\u00a0-\u00ff]/g, '').trim() : generated;
          if (admitsText(parameter, text)) return text;
        }
        throw new Error(`the document admits none of 50 values generated for ${parameter.name}`);
      };

      /** Values for some of the parameters: real vacancy ids and real cursors (of the same query) part of the time. */
      async function validValues(): Promise<{ values: Record<string, string>; realCursor: boolean }> {
        const values: Record<string, string> = {};
        for (const p of parameters) {
          if (sample(fc.boolean())) continue;
          values[p.name] = p.name === 'vacancyId' && sample(fc.boolean()) ? sample(fc.constantFrom(...vacancyIds)) : validText(p);
        }
        // Half the time the cursor is one the service gave for this very query, if the query has a second page.
        if (!sample(fc.boolean())) return { values, realCursor: false };
        const first = await send('GET', `${route}${queryOf({ ...values, cursor: '', limit: '1' })}`);
        expect(first.status, JSON.stringify(values)).to.equal(200);
        if (first.body.nextCursor === null) delete values.cursor;
        else values.cursor = first.body.nextCursor;
        return { values, realCursor: first.body.nextCursor !== null };
      }

      it('answers every query the document admits with 200, or 400 invalid_cursor for a cursor it never gave', async () => {
        const statuses = new Set<string>();
        const paths = () => ({
          items: [...statuses].some((x) => x.includes('items')),
          realCursor: [...statuses].some((x) => x.includes('real cursor')),
          refusedCursor: statuses.has('400'),
        });
        // At least VALID_QUERIES, and more (up to three times as many) until every path has been taken.
        for (let i = 0; i < VALID_QUERIES || (Object.values(paths()).includes(false) && i < 3 * VALID_QUERIES); i++) {
          const { values, realCursor } = await validValues();
          const response = await send('GET', `${route}${queryOf(values)}`, { headers: headersOf(values) });
          const made = `${JSON.stringify(values)} -> ${JSON.stringify(response.body)}`;
          // If-None-Match `*` names whatever page there is: 304 (ADR 27); any other tag names no page it could have.
          const served = values['If-None-Match']?.trim() === '*' ? 304 : 200;
          if (realCursor || values.cursor === undefined || values.cursor === '') expect(response.status, made).to.equal(served);
          else {
            expect(response.status, made).to.be.oneOf([served, 400]);
            if (response.status === 400) expect(response.body.code, made).to.equal('invalid_cursor');
          }
          statuses.add(`${response.status}${realCursor ? ' real cursor' : ''}${response.body?.items?.length > 0 ? ' items' : ''}`);
        }
        expect(paths(), 'pages with items, pages after a real cursor and refused cursors were all seen').to.deep.equal({ items: true, realCursor: true, refusedCursor: true });
        expect(conformance.violations).to.deep.equal([]);
      });

      it('answers a query with exactly one parameter broken with 400 naming exactly that parameter', async () => {
        const breakable = parameters.filter((p) => p.in === 'query' && p.name !== 'cursor');
        const broken = new Set<string>();
        for (let i = 0; i < BROKEN_QUERIES; i++) {
          const parameter = breakable[i % breakable.length];
          const values: Record<string, string> = {};
          for (const p of breakable) if (p !== parameter && sample(fc.boolean())) values[p.name] = validText(p);
          values[parameter.name] = brokenText(parameter);
          const response = await send('GET', `${route}${queryOf(values)}`);
          const made = `${JSON.stringify(values)} -> ${JSON.stringify(response.body)}`;
          expect(response.status, made).to.equal(400);
          expect(response.body.code, made).to.equal('validation_failed');
          expect(response.body.errors.map((e: { pointer: string }) => e.pointer), made).to.deep.equal([`/${parameter.name}`]);
          broken.add(parameter.name);
        }
        expect([...broken].sort()).to.deep.equal(breakable.map((p) => p.name).sort());
        expect(conformance.violations).to.deep.equal([]);
      });

      it('answers a query with a parameter the document does not list with 400 naming exactly that parameter', async () => {
        const listed = parameters.filter((p) => p.in === 'query').map((p) => p.name as string);
        const breakable = parameters.filter((p) => p.in === 'query' && p.name !== 'cursor');
        const names = fc.oneof(
          fc.string({ minLength: 0, maxLength: 12 }),
          fc.constantFrom(...listed).map((name) => name.toUpperCase()),
          fc.constantFrom(...listed).map((name) => `${name}[]`),
          fc.constantFrom('api_key', 'offset', 'page', 'status', 'vacancyId', 'a/b~c'),
        ).filter((name) => !listed.includes(name));
        for (let i = 0; i < BROKEN_QUERIES; i++) {
          const name = sample(names);
          const values: Record<string, string> = {};
          for (const p of breakable) if (sample(fc.boolean())) values[p.name] = validText(p);
          const query = queryOf(values);
          const path = `${route}${query}${query === '' ? '?' : '&'}${encodeURIComponent(name)}=${encodeURIComponent(sample(fc.string({ maxLength: 8 })))}`;
          const response = await send('GET', path);
          const made = `${path} -> ${JSON.stringify(response.body)}`;
          expect([response.status, response.body.code], made).to.deep.equal([400, 'validation_failed']);
          const pointer = `/${name.replaceAll('~', '~0').replaceAll('/', '~1')}`;
          expect(response.body.errors.map((e: { pointer: string; parameter: string }) => [e.pointer, e.parameter]), made).to.deep.equal([[pointer, name]]);
          expect(response.body.errors[0].message, made).to.equal(`is not a parameter of this operation, which takes ${listed.join(', ')}`);
        }
        expect(conformance.violations).to.deep.equal([]);
      });

      function brokenText(parameter: Json): string {
        for (let attempt = 0; attempt < 100; attempt++) {
          const value = sample(arbitraries.breakingCandidates(parameter.schema, validText(parameter)));
          const text = Array.isArray(value) ? value.join(',') : String(value);
          // A URL carries UTF-8: half a surrogate pair cannot be sent (URLSearchParams would send U+FFFD instead).
          if (!UNPAIRED_SURROGATE.test(text) && !admitsText(parameter, text)) return text;
        }
        throw new Error(`no text found that breaks ${parameter.name}`);
      }
    });
  }
});
