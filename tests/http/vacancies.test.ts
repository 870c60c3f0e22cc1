import { expect } from 'chai';
import { VACANCY_STATUSES } from '../../domain/vacancy/vacancy-status.js';
import { aVacancyInput } from '../support/builders.js';
import { aTenant, type Tenant } from '../support/http-fixtures.js';
import { startTestServer, type TestServer } from '../support/http-test-server.js';
import { pageThrough } from '../support/paging.js';

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const VACANCY_FIELDS = [
  'id', 'title', 'status', 'city', 'officeAddress', 'experience', 'workFormat', 'workFormats', 'salaryFrom', 'salaryTo',
  'salaryCurrency', 'salaryGross', 'employmentForm', 'workSchedule', 'skills', 'languages', 'professionalRoles', 'description',
  'responsibilities', 'positionsCount', 'sourceUrl', 'publishedAt', 'createdAt', 'updatedAt',
];

describe('GET /vacancies', () => {
  let server: TestServer;
  let tenant: Tenant;

  beforeEach(async () => {
    server = await startTestServer();
    tenant = await aTenant(server);
  });
  afterEach(() => server.close());

  it('returns every field of a vacancy, null where empty, and nothing the platform keeps besides', async () => {
    await tenant.addVacancy({
      id: 'bare', title: 'Курьер', city: null, experience: null, workFormats: [], salaryFrom: null, salaryTo: null, salaryCurrency: null,
      salaryGross: null, employmentForm: null, workSchedule: [], skills: [], professionalRoles: [], description: null, positionsCount: null,
      recruiter: 'Айдана Касымова', sourceRef: 'hh:12345',
    });
    const response = await tenant.api.get('/vacancies');
    expect(response.status).to.equal(200);
    expect(response.headers.get('content-type')).to.match(/^application\/json/);
    const [vacancy] = response.body.items;
    expect(Object.keys(vacancy)).to.have.members(VACANCY_FIELDS);
    expect(vacancy).to.deep.include({ id: 'bare', title: 'Курьер', city: null, workFormat: null, workFormats: [], salaryFrom: null, description: null, responsibilities: null, publishedAt: null });
    expect(vacancy.createdAt).to.match(TIMESTAMP);
    expect(vacancy.updatedAt).to.match(TIMESTAMP);
    expect(response.text).to.not.include('Айдана');
    expect(response.text).to.not.include('hh:12345');
    expect(response.text).to.not.include(tenant.companyId);
  });

  it('returns a filled vacancy as stored: normalised work format, salary, HTML and its text', async () => {
    await tenant.addVacancy({
      workFormats: ['Удалённо', 'В офисе'], salaryFrom: null, salaryTo: 700_000, description: '<p>Разработка&nbsp;API</p><ul><li>Node.js</li></ul>',
      publishedAt: new Date('2026-10-01T08:30:00.120Z'),
    });
    const [vacancy] = (await tenant.api.get('/vacancies')).body.items;
    expect(vacancy).to.deep.include({
      workFormat: 'hybrid', workFormats: ['Удалённо', 'В офисе'], salaryFrom: 700_000, salaryTo: 700_000,
      description: '<p>Разработка&nbsp;API</p><ul><li>Node.js</li></ul>', responsibilities: 'Разработка API\nNode.js', publishedAt: '2026-10-01T08:30:00.120Z',
    });
  });

  it('lists only open vacancies by default, one status on request, and every status with status=all', async () => {
    for (const status of VACANCY_STATUSES) await tenant.addVacancy({ id: `v-${status}`, status });
    const statusesOf = async (query: string) => (await tenant.api.get(`/vacancies${query}`)).body.items.map((v: any) => v.status);
    expect(await statusesOf('')).to.deep.equal(['open']);
    for (const status of VACANCY_STATUSES) expect(await statusesOf(`?status=${status}`)).to.deep.equal([status]);
    expect(await statusesOf('?status=all')).to.have.members([...VACANCY_STATUSES]);
    const bad = await tenant.api.get('/vacancies?status=OPEN');
    expect(bad.status).to.equal(400);
    expect(bad.body.errors).to.deep.equal([{ pointer: '/status', parameter: 'status', message: bad.body.errors[0].message }]);
  });

  it('with since, returns only vacancies modified later, such as one whose status or salary changed', async () => {
    await tenant.addVacancy({ id: 'a' });
    await tenant.addVacancy({ id: 'b' });
    await tenant.addVacancy({ id: 'c' });
    const first = await tenant.api.get('/vacancies?status=all');
    const since = first.headers.get('x-sync-watermark')!;
    expect(since).to.match(TIMESTAMP);
    expect((await tenant.api.get(`/vacancies?status=all&since=${since}`)).body.items).to.deep.equal([]);

    await tenant.addVacancy({ id: 'a', status: 'archived' });
    await tenant.addVacancy({ id: 'c', salaryFrom: 1, salaryTo: 2 });
    await tenant.addVacancy({ id: 'b' });
    const changed = await tenant.api.get(`/vacancies?status=all&since=${encodeURIComponent(since)}`);
    expect(changed.body.items.map((v: any) => [v.id, v.status])).to.deep.equal([['a', 'archived'], ['c', 'open']]);
  });

  it('reads since as a date-time with any offset or a date, and null or empty as no filter', async () => {
    const vacancy = await tenant.addVacancy();
    const t = vacancy.updatedAt.getTime();
    const idsFor = async (since: string) => {
      const response = await tenant.api.get(`/vacancies?since=${since}`);
      expect(response.status, since).to.equal(200);
      return response.body.items.length;
    };
    expect(await idsFor(new Date(t - 1).toISOString())).to.equal(1);
    expect(await idsFor(new Date(t).toISOString()), 'strictly later than').to.equal(0);
    // The moment just before the vacancy, written at +05:00 (the clock may be a test clock or the database's).
    const before = new Date(t - 1 + 5 * 3_600_000).toISOString().replace('Z', '+05:00');
    const atTime = new Date(t + 5 * 3_600_000).toISOString().replace('Z', '+05:00');
    expect(await idsFor(encodeURIComponent(before))).to.equal(1);
    expect(await idsFor(encodeURIComponent(atTime))).to.equal(0);
    // An unencoded + arrives as a space, which no RFC 3339 date-time has: refused (the document could not admit it), with a hint.
    const unencoded = await tenant.api.get(`/vacancies?since=${before}`);
    expect(unencoded.status).to.equal(400);
    expect(unencoded.body.errors[0]).to.include({ pointer: '/since', parameter: 'since' });
    expect(unencoded.body.errors[0].message).to.contain('%2B');
    const day = new Date(t - 1).toISOString().slice(0, 10);
    const nextDay = new Date(Date.parse(day) + 86_400_000).toISOString().slice(0, 10);
    expect(await idsFor(day)).to.equal(1);
    expect(await idsFor(nextDay)).to.equal(0);
    expect(await idsFor('null')).to.equal(1);
    expect(await idsFor('')).to.equal(1);
    for (const bad of ['yesterday', '2026-11-01T10:00:00', '2026-13-01', '1730000000']) {
      const response = await tenant.api.get(`/vacancies?since=${bad}`);
      expect(response.status, bad).to.equal(400);
      expect(response.body.errors[0]).to.include({ pointer: '/since', parameter: 'since' });
    }
  });

  it('pages through a few hundred vacancies with no repeat and no gap while vacancies are added between pages', async () => {
    const initial = Array.from({ length: 520 }, (_, i) => ({ ...aVacancyInput({ title: `Вакансия ${i}` }), id: `init-${i}` }));
    await server.seed.upsertVacancies.execute({ companyId: tenant.companyId, vacancies: initial });
    const added: string[] = [];
    const { ids } = await pageThrough(tenant.api, '/vacancies', {
      limit: 37,
      between: async (page) => {
        added.push((await tenant.addVacancy({ id: `added-${page}` })).id);
      },
    });
    expect(new Set(ids).size, 'no repeats').to.equal(ids.length);
    expect(ids).to.include.members(initial.map((v) => v.id));
    // Added during the pass, each later than every row read so far: all but the one added after the last page appear.
    expect(ids).to.include.members(added.slice(0, -1));
  });

  it('answers pages of 100 by default and of 1 to 500 on request', async () => {
    await server.seed.upsertVacancies.execute({ companyId: tenant.companyId, vacancies: Array.from({ length: 501 }, () => aVacancyInput()) });
    const count = async (query: string) => (await tenant.api.get(`/vacancies${query}`)).body.items.length;
    expect(await count('')).to.equal(100);
    expect(await count('?limit=1')).to.equal(1);
    expect(await count('?limit=500')).to.equal(500);
    for (const limit of ['0', '501', '-1', '1.5', '1e2', 'ten', '', ' 5', '0x10']) {
      const response = await tenant.api.get(`/vacancies?limit=${encodeURIComponent(limit)}`);
      expect(response.status, limit).to.equal(400);
      expect(response.body).to.include({ code: 'validation_failed' });
      expect(response.body.errors).to.deep.equal([{ pointer: '/limit', parameter: 'limit', message: 'must be a whole number from 1 to 500' }]);
    }
  });

  it('answers 400 invalid_cursor for a malformed cursor and for a cursor of another query, but lets limit change', async () => {
    await server.seed.upsertVacancies.execute({ companyId: tenant.companyId, vacancies: Array.from({ length: 5 }, () => aVacancyInput()) });
    const first = await tenant.api.get('/vacancies?status=all&limit=2');
    const cursor = first.body.nextCursor as string;
    expect((await tenant.api.get(`/vacancies?status=all&limit=3&cursor=${cursor}`)).status).to.equal(200);
    for (const query of [`status=open&cursor=${cursor}`, `status=all&since=2020-01-01&cursor=${cursor}`, 'cursor=not-a-cursor', `status=all&cursor=${cursor}x`]) {
      const response = await tenant.api.get(`/vacancies?${query}`);
      expect(response.status, query).to.equal(400);
      expect(response.body.code, query).to.equal('invalid_cursor');
      expect(response.body.errors, query).to.have.length(1);
      expect(response.body.errors[0], query).to.include({ pointer: '/cursor', parameter: 'cursor' });
    }
  });

  it('refuses a parameter given twice, and parameters it does not know, naming each', async () => {
    await tenant.addVacancy();
    const twice = await tenant.api.get('/vacancies?limit=1&limit=2&status=open&status=all');
    expect(twice.status).to.equal(400);
    expect(twice.body.errors).to.have.deep.members([
      { pointer: '/limit', parameter: 'limit', message: 'must be given at most once' },
      { pointer: '/status', parameter: 'status', message: 'must be given at most once' },
    ]);
    const unknown = await tenant.api.get('/vacancies?offset=10&page=2&utm_source=x&page=3');
    expect(unknown.status).to.equal(400);
    expect(unknown.body.code).to.equal('validation_failed');
    const message = 'is not a parameter of this operation, which takes since, limit, cursor, status, fields';
    expect(unknown.body.errors).to.deep.equal(['offset', 'page', 'utm_source'].map((name) => ({ pointer: `/${name}`, parameter: name, message })));
  });

  it("never shows another company's vacancies", async () => {
    const other = await aTenant(server, { name: 'Другая' });
    await other.addVacancy({ id: 'theirs', title: 'Чужая вакансия' });
    await tenant.addVacancy({ id: 'mine' });
    const mine = await tenant.api.get('/vacancies?status=all');
    expect(mine.body.items.map((v: any) => v.id)).to.deep.equal(['mine']);
    expect((await other.api.get('/vacancies?status=all')).body.items.map((v: any) => v.id)).to.deep.equal(['theirs']);
  });
});
