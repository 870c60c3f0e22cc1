import { expect } from 'chai';
import { aResume } from '../support/builders.js';
import { aFullApplicationBody, aMinimalApplicationBody, aTenant, type Tenant } from '../support/http-fixtures.js';
import { startTestServer, type TestServer } from '../support/http-test-server.js';
import { pageThrough } from '../support/paging.js';

const CANDIDATE_FIELDS = ['id', 'vacancyId', 'vacancyTitle', 'stage', 'source', 'externalId', 'coverLetter', 'candidate', 'resume', 'referral', 'createdAt', 'updatedAt'];
const PERSON_FIELDS = ['name', 'email', 'phone', 'location', 'birthDate', 'gender', 'citizenship'];
const RESUME_FIELDS = [
  'role', 'summary', 'experienceYears', 'skills', 'skillsDescription', 'experience', 'education', 'additionalEducation', 'languages',
  'certificates', 'portfolio', 'expectedSalary', 'expectedSalaryCurrency', 'preferredWorkFormat', 'preferredEmployment', 'relocation', 'sourceUrl',
];

describe('GET /candidates', () => {
  let server: TestServer;
  let tenant: Tenant;
  let vacancyId: string;

  beforeEach(async () => {
    server = await startTestServer();
    tenant = await aTenant(server);
    vacancyId = (await tenant.addVacancy({ id: 'main', title: 'Бухгалтер' })).id;
  });
  afterEach(() => server.close());

  const list = async (query = '') => {
    const response = await tenant.api.get(`/candidates${query}`);
    expect(response.status, response.text.slice(0, 300)).to.equal(200);
    return response.body.items as any[];
  };

  it('returns every field of a candidate, its person and its resume, null where empty, and no internal data', async () => {
    await tenant.api.post('/applications', aMinimalApplicationBody(vacancyId));
    const [card] = await list();
    expect(Object.keys(card)).to.have.members(CANDIDATE_FIELDS);
    expect(Object.keys(card.candidate)).to.have.members(PERSON_FIELDS);
    expect(Object.keys(card.resume)).to.have.members(RESUME_FIELDS);
    expect(card).to.include({ vacancyId, vacancyTitle: 'Бухгалтер', stage: 'NEW', source: 'api', coverLetter: null, referral: null });
    expect(card.createdAt).to.match(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    const text = JSON.stringify(card);
    for (const internal of ['companyId', 'technical', 'sourceRef', 'requestFingerprint', 'originCardId', tenant.companyId]) expect(text).to.not.include(internal);
  });

  it('answers with Cache-Control: no-store, errors included', async () => {
    expect((await tenant.api.get('/candidates')).headers.get('cache-control')).to.equal('no-store');
    expect((await tenant.api.get('/candidates?limit=0')).headers.get('cache-control')).to.equal('no-store');
    const readerOfVacancies = tenant.api.withKey((await tenant.issueKey(['vacancies:read'])).key);
    expect((await readerOfVacancies.get('/candidates')).headers.get('cache-control')).to.equal('no-store');
  });

  it('filters by vacancyId, and checks its length', async () => {
    const other = await tenant.addVacancy({ id: 'other' });
    const a = await tenant.api.post('/applications', aMinimalApplicationBody(vacancyId));
    const b = await tenant.api.post('/applications', aMinimalApplicationBody(other.id));
    expect((await list(`?vacancyId=${vacancyId}`)).map((c) => c.id)).to.deep.equal([a.body.id]);
    expect((await list('?vacancyId=other')).map((c) => c.id)).to.deep.equal([b.body.id]);
    expect(await list(`?vacancyId=${'x'.repeat(64)}`)).to.deep.equal([]);
    for (const bad of ['', 'x'.repeat(65)]) {
      const response = await tenant.api.get(`/candidates?vacancyId=${bad}`);
      expect(response.status).to.equal(400);
      expect(response.body.errors[0]).to.include({ pointer: '/vacancyId', parameter: 'vacancyId' });
    }
  });

  it('with since, matches a card whose resume alone changed, and one that moved on the board', async () => {
    const ids = [];
    for (let i = 0; i < 3; i++) ids.push((await tenant.api.post('/applications', aMinimalApplicationBody(vacancyId))).body.id);
    const since = (await tenant.api.get('/candidates')).headers.get('x-sync-watermark')!;
    expect(await list(`?since=${since}`)).to.deep.equal([]);

    await server.seed.updateResume.execute({ companyId: tenant.companyId, id: ids[2], resume: aResume({ summary: 'Новое резюме' }) });
    await server.seed.moveCandidate.execute({ companyId: tenant.companyId, id: ids[0], stage: 'INTERVIEW' });
    const changed = await list(`?since=${since}`);
    expect(changed.map((c) => c.id)).to.deep.equal([ids[2], ids[0]]);
    expect(changed[0].resume.summary).to.equal('Новое резюме');
    expect(changed[0].updatedAt > changed[0].createdAt, 'updatedAt is the resume change').to.equal(true);
    expect(changed[1].stage).to.equal('INTERVIEW');
  });

  it('never lists the technical card a transfer leaves on the other vacancy', async () => {
    const target = await tenant.addVacancy({ id: 'target' });
    const created = await tenant.api.post('/applications', aMinimalApplicationBody(vacancyId));
    const { technicalCardId } = await server.seed.transferCandidate.execute({ companyId: tenant.companyId, id: created.body.id, vacancyId: target.id });
    const all = await list();
    expect(all.map((c) => c.id)).to.deep.equal([created.body.id]);
    expect(JSON.stringify(all)).to.not.include(technicalCardId);
    expect(await list('?vacancyId=target')).to.deep.equal([]);
  });

  it('lists a person who applied to two vacancies as two candidates', async () => {
    const second = await tenant.addVacancy({ id: 'second' });
    const person = { name: 'Гульнара Ким', email: 'gulnara@example.kz', phone: '+7 701 222 33 44' };
    await tenant.api.post('/applications', aMinimalApplicationBody(vacancyId, { candidate: person }));
    await tenant.api.post('/applications', aMinimalApplicationBody(second.id, { candidate: person }));
    const cards = await list();
    expect(cards).to.have.length(2);
    expect(new Set(cards.map((c) => c.id)).size).to.equal(2);
    expect(cards.map((c) => c.vacancyId)).to.have.members([vacancyId, second.id]);
  });

  it("lists a manual card with source manual and no externalId or cover letter, and an application with the client's source", async () => {
    const manual = await tenant.addManualCandidate(vacancyId, 'Рекрутер добавил');
    const applied = await tenant.api.post('/applications', aFullApplicationBody(vacancyId));
    const byId = new Map((await list()).map((c) => [c.id, c]));
    expect(byId.get(manual.id)).to.include({ source: 'manual', externalId: null, coverLetter: null });
    expect(byId.get(applied.body.id)).to.include({ source: 'career-portal' });
  });

  it('pages through a few hundred candidates with no repeat and no gap while applications arrive between pages', async () => {
    const initial: string[] = [];
    for (let i = 0; i < 300; i++) initial.push((await tenant.api.post('/applications', aMinimalApplicationBody(vacancyId))).body.id);
    const added: string[] = [];
    const { ids } = await pageThrough(tenant.api, '/candidates', {
      limit: 45,
      between: async () => {
        added.push((await tenant.api.post('/applications', aMinimalApplicationBody(vacancyId))).body.id);
      },
    });
    expect(new Set(ids).size).to.equal(ids.length);
    expect(ids).to.include.members(initial);
    expect(ids).to.include.members(added.slice(0, -1));
  });

  it('answers 400 invalid_cursor when a cursor is used with another vacancyId or since', async () => {
    for (let i = 0; i < 3; i++) await tenant.api.post('/applications', aMinimalApplicationBody(vacancyId));
    const cursor = (await tenant.api.get(`/candidates?vacancyId=${vacancyId}&limit=1`)).body.nextCursor;
    expect((await tenant.api.get(`/candidates?vacancyId=${vacancyId}&limit=2&cursor=${cursor}`)).status).to.equal(200);
    for (const query of [`cursor=${cursor}`, `vacancyId=other&cursor=${cursor}`, `vacancyId=${vacancyId}&since=2020-01-01&cursor=${cursor}`]) {
      const response = await tenant.api.get(`/candidates?${query}`);
      expect(response.status, query).to.equal(400);
      expect(response.body.code).to.equal('invalid_cursor');
      expect(response.body.errors).to.deep.equal([{ pointer: '/cursor', parameter: 'cursor', message: response.body.detail }]);
    }
  });

  it("never shows another company's candidates, not even when asked for its vacancy", async () => {
    const other = await aTenant(server, { name: 'Другая' });
    const theirVacancy = await other.addVacancy({ id: 'theirs' });
    await other.api.post('/applications', aFullApplicationBody(theirVacancy.id));
    await tenant.api.post('/applications', aMinimalApplicationBody(vacancyId));
    expect((await list()).map((c) => c.vacancyId)).to.deep.equal([vacancyId]);
    expect(await list('?vacancyId=theirs')).to.deep.equal([]);
    expect((await other.api.get('/candidates')).body.items.map((c: any) => c.vacancyId)).to.deep.equal(['theirs']);
  });
});
