import { expect } from 'chai';
import fc from 'fast-check';
import { expectNoPollution, expectWellFormedAnswer, hostileRuns, prototypeSnapshot } from '../support/hostile-input.js';
import { aMinimalApplicationBody, aTenant, type Tenant } from '../support/http-fixtures.js';
import { API_PATH, startTestServer, type TestServer } from '../support/http-test-server.js';
import { rawExchange, rawRequest, type RawResponse } from '../support/raw-http.js';

const CLIENT_REQUEST_ID = /^[\x21-\x7e]{1,128}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A header value node:http will send: visible ASCII, inner spaces and tabs, and latin-1 bytes (UTF-8 of Cyrillic arrives so). */
const headerValues = fc.oneof(
  fc.string({ unit: fc.constantFrom(...'aZ09-_:./!~"\\{}', ' ', '\t'), maxLength: 140 }),
  fc.string({ unit: fc.integer({ min: 0x21, max: 0x7e }).map((c) => String.fromCharCode(c)), minLength: 120, maxLength: 136 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }).map((text) => Buffer.from(text, 'utf8').toString('latin1')),
  fc.integer({ min: 129, max: 8_000 }).map((n) => 'r'.repeat(n)),
);

describe('Headers, methods and paths under hostile input', function () {
  this.timeout(60_000);
  let server: TestServer;
  let tenant: Tenant;
  let vacancyId: string;
  let prototypes: string;

  before(async () => {
    prototypes = prototypeSnapshot();
    server = await startTestServer();
    tenant = await aTenant(server);
    vacancyId = (await tenant.addVacancy()).id;
  });
  after(() => server.close());
  afterEach(() => expectNoPollution(prototypes));

  const send = (method: string, path: string, headers: Record<string, string | readonly string[]>, body?: string) =>
    rawRequest(server.origin, { method, path: `${API_PATH}${path}`, headers, ...(body === undefined ? {} : { body }) });

  it('echoes an X-Request-Id of 1 to 128 visible ASCII characters and replaces any other, on success and error alike', async () => {
    const keys = fc.constantFrom<'valid' | 'none' | 'bad'>('valid', 'none', 'bad');
    await fc.assert(
      fc.asyncProperty(headerValues, keys, fc.constantFrom('/vacancies', '/candidates', '/vacancies?limit=0'), async (requestId, key, path) => {
        const headers: Record<string, string> = { 'x-request-id': requestId };
        if (key !== 'none') headers['x-api-key'] = key === 'valid' ? tenant.key : `${tenant.key}x`;
        const response = await send('GET', path, headers);
        expectWellFormedAnswer(response, [200, 400, 401]);
        // The server reads a header without the spaces and tabs around it.
        const received = requestId.replace(/^[ \t]+|[ \t]+$/g, '');
        const answered = String(response.headers['x-request-id']);
        if (CLIENT_REQUEST_ID.test(received)) expect(answered).to.equal(received);
        else expect(answered).to.match(UUID);
      }),
      hostileRuns(150),
    );
  });

  it('answers 401 to any key that is not exactly one valid key: odd bytes, huge, repeated, or in the query string', async () => {
    const other = await tenant.issueKey(['vacancies:read']);
    const keyHeaders = fc.oneof(
      headerValues.map((value) => ({ 'x-api-key': value })),
      fc.constant({ 'x-api-key': [tenant.key, tenant.key] }),
      fc.constant({ 'x-api-key': [tenant.key, other.key] }),
      fc.constant({ 'x-api-key': ['ik_wrong', tenant.key] }),
      fc.constant({ 'x-api-key': [tenant.key, ''] }),
      fc.constant({ 'x-api-key': `${tenant.key}, ${tenant.key}` }),
      fc.constant({ 'x-api-key': `  ${tenant.key.toUpperCase()}  ` }),
      fc.constant({ 'x-api-key': `Bearer ${tenant.key}` }),
      fc.constant({ authorization: `Bearer ${tenant.key}` }),
    );
    const paths = fc.constantFrom('/vacancies', '/candidates', `/vacancies?api_key=${tenant.key}`, `/candidates?X-API-Key=${encodeURIComponent(tenant.key)}`);
    await fc.assert(
      fc.asyncProperty(keyHeaders, paths, async (headers, path) => {
        const response = await send('GET', path, headers);
        expectWellFormedAnswer(response, [401]);
        expect(response.body.code).to.equal('unauthorized');
      }),
      hostileRuns(80),
    );
  });

  it('answers 415 to a body sent as anything but application/json in UTF-8, and creates nothing', async () => {
    const contentTypes = fc.oneof(
      fc.constantFrom('text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/json; charset=utf-16', 'application/json; charset=latin1',
        'application/jsonx', 'application/json-patch+json', 'application/vnd.api+json', 'json', '*/*', 'application/*', 'application/json;;charset=big5'),
      headerValues.filter((value) => !/^[ \t]*application\/json[ \t]*(;|$)/i.test(value)),
    );
    await fc.assert(
      fc.asyncProperty(contentTypes, async (contentType) => {
        const body = JSON.stringify(aMinimalApplicationBody(vacancyId, { externalId: 'must-never-exist' }));
        const response = await send('POST', '/applications', { 'x-api-key': tenant.key, 'content-type': contentType }, body);
        expectWellFormedAnswer(response, [415]);
        expect(response.body.code).to.equal('unsupported_media_type');
      }),
      hostileRuns(60),
    );
    const listed = await tenant.api.get('/candidates');
    expect(listed.body.items).to.deep.equal([]);
    const missing = await send('POST', '/applications', { 'x-api-key': tenant.key }, JSON.stringify(aMinimalApplicationBody(vacancyId)));
    expectWellFormedAnswer(missing, [415]);
  });

  it('answers any method on any path under the API root with a problem, never a 5xx', async () => {
    const methods = fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'TRACE', 'PROPFIND', 'LOCK', 'SEARCH', 'QUERY');
    const paths = fc.oneof(
      fc.constantFrom('/vacancies', '/candidates', '/applications', '/openapi.json', '/', '', '//vacancies', '/vacancies/', '/Vacancies', '/vacancies/..', '/%2e%2e/vacancies',
        '/vacancies%00', '/vacancies;x', '/applications/1', '/../../healthz', '/%', '/%E0%A4%A', '/%ff%fe', `/${'a'.repeat(4_000)}`),
      fc.string({ unit: fc.constantFrom(...'abc/.%-_~:@!$&\'()*+,;=0F'), maxLength: 40 }).map((suffix) => `/${suffix}`),
    );
    await fc.assert(
      fc.asyncProperty(methods, paths, fc.boolean(), async (method, path, withKey) => {
        const response: RawResponse = await send(method, path, withKey ? { 'x-api-key': tenant.key } : {});
        expect(response.status, `${method} ${path}`).to.be.below(500);
        if (response.status >= 400) expectWellFormedAnswer(response, [response.status]);
      }),
      hostileRuns(200),
    );
  });

  it('answers headers beyond the limit or with control characters with a problem document, and keeps serving', async () => {
    const huge = await send('GET', '/vacancies', { 'x-api-key': tenant.key, 'x-request-id': 'r'.repeat(20_000) }).catch((error: Error) => error);
    if (!(huge instanceof Error)) {
      // Node may also reset the connection while the client is still sending; when it answers, the answer is a problem.
      expect(huge.status).to.equal(431);
      expect(huge.headers['content-type']).to.equal('application/problem+json');
      expect(huge.body).to.include({ status: 431, code: 'headers_too_large', type: 'urn:problem-type:integration-api:headers_too_large' });
    }
    const { host } = new URL(server.origin);
    for (const header of ['X-Request-Id: a\u0001b', 'X-API-Key: ik_\u0000', 'X-Request-Id: a\rb', 'Bad Name: x']) {
      const answer = await rawExchange(server.origin, Buffer.from(`GET ${API_PATH}/vacancies HTTP/1.1\r\nHost: ${host}\r\n${header}\r\nConnection: close\r\n\r\n`, 'latin1'));
      const [head = '', body = ''] = answer.split('\r\n\r\n');
      expect(head, JSON.stringify(header)).to.match(/^HTTP\/1\.1 400 /);
      expect(head, JSON.stringify(header)).to.match(/\r\nContent-Type: application\/problem\+json\r\n/);
      const problem = JSON.parse(body) as Record<string, unknown>;
      expect(problem, JSON.stringify(header)).to.include({ status: 400, code: 'malformed_request', title: 'Malformed request' });
      expect(problem.requestId).to.match(UUID);
      expect(head).to.include(`X-Request-Id: ${problem.requestId as string}`);
    }
    const after = await tenant.api.get('/vacancies');
    expect(after.status).to.equal(200);
  });
});
