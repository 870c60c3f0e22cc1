import { expect } from 'chai';
import { aFullApplicationBody, aTenant, type Tenant } from '../support/http-fixtures.js';
import { startTestServer, type TestServer } from '../support/http-test-server.js';

describe('X-Request-Id and the request log', () => {
  let server: TestServer;
  let tenant: Tenant;
  let vacancyId: string;

  beforeEach(async () => {
    server = await startTestServer();
    tenant = await aTenant(server);
    vacancyId = (await tenant.addVacancy()).id;
  });
  afterEach(() => server.close());

  it('echoes a request id the client sent, in the header and in an error body', async () => {
    for (const id of ['abc-123', 'trace:00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01', '!'.repeat(128)]) {
      const ok = await tenant.api.get('/vacancies', { headers: { 'X-Request-Id': id } });
      expect(ok.headers.get('x-request-id')).to.equal(id);
      const failed = await tenant.api.get('/vacancies?limit=0', { headers: { 'X-Request-Id': id } });
      expect(failed.body.requestId).to.equal(id);
    }
  });

  it('makes up a request id when the client sent none or one that is not 1 to 128 visible ASCII characters', async () => {
    const seen = new Set<string>();
    for (const sent of [undefined, 'x'.repeat(129), 'has space', '']) {
      const response = await tenant.api.get('/vacancies?limit=0', { headers: sent === undefined ? {} : { 'X-Request-Id': sent } });
      const id = response.headers.get('x-request-id')!;
      expect(id).to.match(/^[\x21-\x7e]{1,128}$/);
      expect(id).to.not.equal(sent);
      expect(response.body.requestId).to.equal(id);
      seen.add(id);
    }
    expect(seen.size).to.equal(4);
  });

  it('logs one line per request with request id, key id, route, status and duration', async () => {
    await tenant.api.get('/vacancies', { headers: { 'X-Request-Id': 'log-me' } });
    await tenant.api.get('/candidates', { key: undefined, headers: { 'X-Request-Id': 'anonymous' } });
    const lines = server.logs().filter((line) => line.msg === 'request');
    expect(lines).to.have.length(2);
    expect(lines[0]!).to.include({ requestId: 'log-me', keyId: tenant.keyId, route: '/api/integration/v1/vacancies', status: 200 });
    expect(lines[0]!.durationMs).to.be.a('number').and.at.least(0);
    expect(lines[1]!).to.include({ requestId: 'anonymous', keyId: null, route: '/api/integration/v1/candidates', status: 401, code: 'unauthorized' });
  });

  it('never logs a key, a name, an e-mail, a phone or resume text', async () => {
    const body = aFullApplicationBody(vacancyId, { externalId: 'repeat-me' });
    await tenant.api.post('/applications', body);
    await tenant.api.post('/applications', { ...body, coverLetter: 'Другое письмо' });
    await tenant.api.get('/candidates');
    await tenant.api.post('/applications', { ...body, candidate: { ...body.candidate, email: 'broken' } });
    await tenant.api.get(`/vacancies?api_key=${tenant.key}`, { key: undefined });
    const log = server.rawLogs();
    expect(server.logs().some((line) => line.level === 40), 'the body-differs warning is there').to.equal(true);
    const secret = tenant.key.slice(tenant.key.lastIndexOf('_') + 1);
    const personal = [secret, body.candidate.name, body.candidate.email, body.candidate.phone, body.referral.name, body.referral.email, body.resume.summary, body.coverLetter, 'broken'];
    for (const value of personal) expect(log, value).to.not.include(value);
  });

  it('logs an unexpected error with its stack and answers a generic 500 carrying the request id', async () => {
    const failing = await startTestServer({
      overrides: { listVacancies: { execute: async () => Promise.reject(new Error('database exploded at row 42')) } },
    });
    try {
      const own = await aTenant(failing);
      const response = await own.api.get('/vacancies', { headers: { 'X-Request-Id': 'boom-1' } });
      expect(response.status).to.equal(500);
      expect(response.body).to.deep.equal({
        type: 'urn:problem-type:integration-api:internal_error',
        title: 'Internal error',
        status: 500,
        code: 'internal_error',
        detail: response.body.detail,
        requestId: 'boom-1',
      });
      expect(response.text).to.not.include('exploded');
      const logged = failing.logs().find((line) => line.requestId === 'boom-1' && line.err !== undefined) as any;
      expect(logged.err.stack).to.include('database exploded at row 42');
    } finally {
      await failing.close();
    }
  });
});
