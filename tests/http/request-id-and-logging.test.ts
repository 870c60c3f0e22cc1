import { expect } from 'chai';
import type { ApiResponse } from '../support/api-client.js';
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

  it('logs one line per request of real traffic, and never a key, a name, an e-mail, a phone or resume text', async () => {
    const other = await tenant.issueKey(['vacancies:read']);
    const body = aFullApplicationBody(vacancyId, {
      externalId: 'log-probe-1',
      candidate: { name: 'Зарина Логова', email: 'zarina.logova@example.kz', phone: '+7 777 123 45 67', location: 'Шымкент-Лог', birthDate: '1991-07-13' },
      coverLetter: 'Письмо-маркер для журнала',
      resume: {
        role: 'Роль-маркер',
        summary: 'Резюме-маркер: опыт в платежах',
        skills: ['Навык-маркер'],
        experience: [{ company: 'Компания-маркер', role: 'Должность-маркер', period: 'Период-маркер', description: 'Описание-маркер' }],
        education: [{ institution: 'Вуз-маркер', degree: 'Степень-маркер', period: 'Годы-маркер' }],
        expectedSalaryCurrency: 'KZT',
      },
      referral: { name: 'Рекомендатель Маркеров', email: 'referrer.marker@example.kz', phone: '+7 701 987 65 43', company: 'Фирма-маркер', relationship: 'Связь-маркер' },
    });
    const api = `/api/integration/v1`;
    const traffic: [() => Promise<ApiResponse>, string, string | null][] = [
      [() => tenant.api.post('/applications', body), `${api}/applications`, tenant.keyId],
      [() => tenant.api.post('/applications', { ...body, coverLetter: 'Другое письмо-маркер' }), `${api}/applications`, tenant.keyId],
      [() => tenant.api.post('/applications', { ...body, externalId: 'log-probe-2', vacancyId: 'absent' }), `${api}/applications`, tenant.keyId],
      [() => tenant.api.post('/applications', { ...body, externalId: 'log-probe-3', candidate: { ...body.candidate, email: 'broken-email-marker' } }), `${api}/applications`, tenant.keyId],
      // JSON.parse would quote the text around a syntax error: it must not reach the log.
      [() => tenant.api.post('/applications', JSON.stringify(body).slice(0, -1)), `${api}/applications`, tenant.keyId],
      [() => tenant.api.get('/candidates'), `${api}/candidates`, tenant.keyId],
      [() => tenant.api.get(`/vacancies?api_key=${tenant.key}`, { key: undefined }), `${api}/vacancies`, null],
      [() => tenant.api.get(`/candidates?X-API-Key=${encodeURIComponent(other.key)}`), `${api}/candidates`, tenant.keyId],
      [() => tenant.api.get('/vacancies', { key: other.key }), `${api}/vacancies`, other.id],
      [() => tenant.api.get('/candidates', { key: other.key }), `${api}/candidates`, other.id],
      [() => tenant.api.get('/vacancies', { key: `${tenant.key}0` }), `${api}/vacancies`, null],
    ];
    const responses: ApiResponse[] = [];
    for (const [send] of traffic) responses.push(await send());
    // A key in the query string is a parameter the operation does not take: refused by name, its value never echoed.
    expect(responses.map((r) => r.status)).to.deep.equal([201, 200, 404, 400, 400, 200, 401, 400, 200, 403, 401]);
    expect(responses[7]!.body.errors.map((e: { parameter: string }) => e.parameter)).to.deep.equal(['X-API-Key']);
    expect(responses[7]!.text).to.not.include(other.key.slice(other.key.lastIndexOf('_') + 1));
    expect(JSON.stringify(responses[5]!.body), 'the traffic carried the personal data').to.include('zarina.logova@example.kz');

    const lines = server.logs().filter((line) => line.msg === 'request');
    expect(lines).to.have.length(traffic.length);
    lines.forEach((line, i) => {
      const [, route, keyId] = traffic[i]!;
      expect(line, `request ${i}`).to.include({ requestId: responses[i]!.headers.get('x-request-id'), keyId, route, status: responses[i]!.status });
      expect(line.durationMs, `request ${i}`).to.be.a('number').and.at.least(0);
    });
    expect(server.logs().some((line) => line.level === 40), 'the body-differs warning is there').to.equal(true);

    const log = server.rawLogs();
    const secretOf = (key: string) => key.slice(key.lastIndexOf('_') + 1);
    const sent = [
      tenant.key, secretOf(tenant.key), other.key, secretOf(other.key),
      ...Object.values(body.candidate), ...Object.values(body.referral), body.coverLetter, 'Другое письмо-маркер', 'broken-email-marker',
      body.resume.role, body.resume.summary, ...body.resume.skills,
      ...body.resume.experience.flatMap((item) => Object.values(item)), ...body.resume.education.flatMap((item) => Object.values(item)),
    ];
    for (const value of sent) expect(log, String(value)).to.not.include(String(value));
    // Each part of a name on its own, too.
    for (const word of ['Зарина', 'Логова', 'Маркеров', 'zarina', 'logova', '123 45 67', '987 65 43']) expect(log, word).to.not.include(word);
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

  it('logs a database error by its codes and stack frames, never its message or SQL with request data', async () => {
    const dbError = Object.assign(new Error('insert into "candidates" ... - duplicate key value: aigerim@example.kz'), {
      sql: 'insert into "candidates" values ($1)',
      code: '23505',
      severity: 'ERROR',
      constraint: 'candidates_company_external_id_unique',
      detail: 'Key (external_id)=(aigerim@example.kz) already exists.',
    });
    const failing = await startTestServer({ overrides: { listVacancies: { execute: async () => Promise.reject(dbError) } } });
    try {
      const own = await aTenant(failing);
      const response = await own.api.get('/vacancies', { headers: { 'X-Request-Id': 'db-1' } });
      expect(response.status).to.equal(500);
      const logged = failing.logs().find((line) => line.requestId === 'db-1' && line.err !== undefined) as any;
      expect(logged.err).to.include({ code: '23505', constraint: 'candidates_company_external_id_unique' });
      expect(logged.err.stack).to.match(/\n\s+at /);
      expect(failing.rawLogs()).to.not.include('aigerim@example.kz');
      expect(failing.rawLogs()).to.not.include('insert into');
    } finally {
      await failing.close();
    }
  });
});
