import { expect } from 'chai';
import { StoreUnavailableError } from '../../application/ports/store-unavailable.error.js';
import { ApiClient } from '../support/api-client.js';
import { aReferral, aResume } from '../support/builders.js';
import { aFullApplicationBody, aMinimalApplicationBody, aTenant, uniqueId } from '../support/http-fixtures.js';
import { startTestServer, type TestServer, type TestServerOptions } from '../support/http-test-server.js';
import { OpenApiConformance } from '../support/openapi-conformance.js';

/**
 * Every response the service gives, of every documented status of every operation, checked against the
 * document it publishes: status, headers and body (closed-world: no property the document does not name).
 * The checking fetch replaces the global one for this file, so the ApiClient's traffic is what is checked.
 */
describe('The OpenAPI document against live responses', () => {
  let conformance: OpenApiConformance;
  let document: unknown;
  const originalFetch = globalThis.fetch;
  const servers: TestServer[] = [];

  async function serve(options: TestServerOptions = {}) {
    const server = await startTestServer(options);
    servers.push(server);
    return server;
  }

  before(async () => {
    const server = await serve();
    document = await (await originalFetch(`${server.baseUrl}/openapi.json`)).json();
    conformance = new OpenApiConformance(document);
    globalThis.fetch = conformance.wrap(originalFetch);
  });

  after(async () => {
    globalThis.fetch = originalFetch;
    await Promise.all(servers.map((s) => s.close()));
  });

  it('documents the successes: pages of every shape, created, duplicate and duplicate with another body', async () => {
    const server = servers[0]!;
    const tenant = await aTenant(server);
    const open = await tenant.addVacancy({ publishedAt: new Date('2026-10-01T00:00:00.000Z'), workFormats: ['Удалённо', 'В офисе'] });
    const bare = await tenant.addVacancy({ status: 'archived', city: null, salaryFrom: null, salaryTo: null, salaryCurrency: null, salaryGross: null, workFormats: [], description: null, positionsCount: null });
    await tenant.addManualCandidate(open.id);
    await server.seed.addCandidates.execute({
      companyId: tenant.companyId,
      candidates: [{ vacancyId: bare.id, candidate: { name: 'Гульнара Ибрагимова', email: null, phone: null, location: null, birthDate: null, gender: 'Женский', citizenship: ['Казахстан'] }, resume: aResume({ languages: [{ name: 'Казахский', level: 'Родной' }] }), referral: aReferral({ phone: '+7 777 000 11 22' }) }],
    });
    const body = aFullApplicationBody(open.id);
    expect((await tenant.api.post('/applications', body)).status).to.equal(201);
    expect((await tenant.api.post('/applications', body)).status).to.equal(200);
    const conflict = await tenant.api.post('/applications', { ...body, coverLetter: 'Другое письмо' });
    expect(conflict.headers.get('idempotency-conflict')).to.equal('body-differs');
    expect((await tenant.api.post('/applications', aMinimalApplicationBody(bare.id))).status).to.equal(201);
    await server.seed.deleteVacancy.execute({ companyId: tenant.companyId, id: bare.id });

    for (const path of ['/vacancies', '/vacancies?status=all&limit=1', '/vacancies?since=2026-01-01', '/vacancies?since=2999-01-01T00:00:00Z', '/candidates', '/candidates?limit=2', `/candidates?vacancyId=${open.id}`]) {
      expect((await tenant.api.get(path)).status, path).to.equal(200);
    }
    const firstPage = await tenant.api.get('/candidates?limit=1');
    expect((await tenant.api.get(`/candidates?limit=1&cursor=${encodeURIComponent(firstPage.body.nextCursor)}`)).status).to.equal(200);
    for (const path of ['/vacancies?status=all&fields=id', '/candidates?fields=id&limit=1']) {
      const page = await tenant.api.get(path);
      expect((await tenant.api.get(path, { headers: { 'If-None-Match': page.headers.get('etag') as string } })).status, path).to.equal(304);
      expect((await tenant.api.get(path, { headers: { 'If-None-Match': '"changed"' } })).status, path).to.equal(200);
    }
    expect((await new ApiClient(server.baseUrl).get('/openapi.json')).status).to.equal(200);
    expect(conformance.violations).to.deep.equal([]);
  });

  it('documents every client error: 400, 401, 403, 404, 413, 415', async () => {
    const server = servers[0]!;
    const tenant = await aTenant(server);
    const vacancy = await tenant.addVacancy();
    const readOnly = tenant.api.withKey((await tenant.issueKey(['vacancies:read'])).key);
    const candidatesOnly = tenant.api.withKey((await tenant.issueKey(['candidates:read'])).key);
    const anonymous = tenant.api.withKey(undefined);

    const statuses = [
      await tenant.api.get('/vacancies?limit=0&since=yesterday'),
      await tenant.api.get('/vacancies?cursor=not-a-cursor'),
      await tenant.api.get('/candidates?limit=1&limit=2'),
      await tenant.api.post('/applications', { vacancyId: vacancy.id, candidate: { name: ' ', email: 'нет' } }),
      await tenant.api.post('/applications', '{"externalId":'),
      await anonymous.get('/vacancies'),
      await anonymous.get('/candidates'),
      await anonymous.post('/applications', aMinimalApplicationBody(vacancy.id)),
      await candidatesOnly.get('/vacancies'),
      await readOnly.get('/candidates'),
      await readOnly.post('/applications', aMinimalApplicationBody(vacancy.id)),
      await tenant.api.post('/applications', aMinimalApplicationBody('нет-такой-вакансии')),
      await tenant.api.post('/applications', JSON.stringify({ externalId: uniqueId('ext'), padding: 'я'.repeat(3 * 1024 * 1024) })),
      await tenant.api.post('/applications', 'name=Алишер', { headers: { 'Content-Type': 'application/x-www-form-urlencoded' } }),
    ].map((r) => r.status);
    expect(statuses).to.deep.equal([400, 400, 400, 400, 400, 401, 401, 401, 403, 403, 403, 404, 413, 415]);
    expect(conformance.violations).to.deep.equal([]);
  });

  it('documents 429 with Retry-After on every operation, the key budget and the address budget alike', async () => {
    const server = await serve({ config: { rateLimitPoints: 1, rateLimitWindowS: 60 } });
    const tenant = await aTenant(server);
    const anonymous = new ApiClient(server.baseUrl);
    expect((await tenant.api.get('/vacancies')).status).to.equal(200);
    expect((await anonymous.get('/openapi.json')).status).to.equal(200);
    const limited = [
      await tenant.api.get('/vacancies'),
      await tenant.api.get('/candidates'),
      await tenant.api.post('/applications', aMinimalApplicationBody('v')),
      await anonymous.get('/openapi.json'),
    ];
    expect(limited.map((r) => r.status)).to.deep.equal([429, 429, 429, 429]);
    expect(conformance.violations).to.deep.equal([]);
  });

  it('documents 500 internal_error on every operation', async () => {
    const server = await serve({ overrides: { rateLimiter: { consume: async () => Promise.reject(new Error('limiter store down')), peek: async () => Promise.reject(new Error('limiter store down')) } } });
    const tenant = await aTenant(server);
    const failed = [
      await tenant.api.get('/vacancies'),
      await tenant.api.get('/candidates'),
      await tenant.api.post('/applications', aMinimalApplicationBody('v')),
      await tenant.api.get('/openapi.json'),
    ];
    expect(failed.map((r) => r.status)).to.deep.equal([500, 500, 500, 500]);
    expect(conformance.violations).to.deep.equal([]);
  });

  it('documents 503 service_unavailable with Retry-After on every operation that needs the database', async () => {
    const down = async () => Promise.reject(new StoreUnavailableError('ECONNREFUSED'));
    const server = await serve({ overrides: { listVacancies: { execute: down }, listCandidates: { execute: down }, submitApplication: { execute: down } } });
    const tenant = await aTenant(server);
    const failed = [await tenant.api.get('/vacancies'), await tenant.api.get('/candidates'), await tenant.api.post('/applications', aMinimalApplicationBody('v'))];
    expect(failed.map((r) => [r.status, r.headers.get('retry-after')])).to.deep.equal([[503, '5'], [503, '5'], [503, '5']]);
    expect(conformance.violations).to.deep.equal([]);
  });

  it('has seen every documented status of every operation by now', () => {
    expect([...conformance.seen].sort()).to.deep.equal(conformance.documented().sort());
  });

  it('would notice an undocumented field, a wrong type, a missing header and an undocumented status', () => {
    const check = new OpenApiConformance(document);
    const headers = new Headers({ 'content-type': 'application/json', 'x-request-id': 'r-1', 'ratelimit-policy': '"default";q=1;w=60', ratelimit: '"default";r=0;t=60', 'cache-control': 'no-store' });
    check.check('POST', 'http://127.0.0.1/api/integration/v1/applications', 201, headers, JSON.stringify({ id: 'c-1', status: 'created', secret: 'x' }));
    check.check('POST', 'http://127.0.0.1/api/integration/v1/applications', 200, headers, JSON.stringify({ id: 7, status: 'duplicate' }));
    check.check('GET', 'http://127.0.0.1/api/integration/v1/vacancies', 409, headers, '{}');
    const page = (document as any).paths['/integration/v1/candidates'].get.responses['200'].content['application/json'].examples.page.value;
    const nested = { ...page, items: [{ ...page.items[0], resume: { ...page.items[0].resume, aiScore: 0.93 } }] };
    headers.set('x-sync-watermark', '2026-11-02T09:41:27.317Z');
    headers.set('etag', `"${'A'.repeat(43)}"`);
    check.check('GET', 'http://127.0.0.1/api/integration/v1/candidates', 200, headers, JSON.stringify(page));
    expect(check.violations, 'the documented example itself conforms').to.have.length(4);
    check.check('GET', 'http://127.0.0.1/api/integration/v1/candidates', 200, headers, JSON.stringify(nested));
    expect(check.violations).to.have.length(5);
    expect(check.violations.join('\n'))
      .to.contain('secret')
      .and.contain('/id must be string')
      .and.contain('idempotent-replayed is missing')
      .and.contain('409 is not documented')
      .and.contain('/items/0/resume must NOT have additional properties {"additionalProperty":"aiScore"}');
  });
});

