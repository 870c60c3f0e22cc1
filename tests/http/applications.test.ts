import { expect } from 'chai';
import { aFullApplicationBody, aMinimalApplicationBody, aTenant, type Tenant } from '../support/http-fixtures.js';
import { startTestServer, type TestServer } from '../support/http-test-server.js';

describe('POST /applications', () => {
  let server: TestServer;
  let tenant: Tenant;
  let vacancyId: string;

  before(async () => {
    server = await startTestServer();
    tenant = await aTenant(server);
    vacancyId = (await tenant.addVacancy({ title: 'Аналитик данных' })).id;
  });
  after(() => server.close());

  async function candidatesOf(t: Tenant = tenant) {
    const response = await t.api.get('/candidates?limit=500');
    expect(response.status).to.equal(200);
    return response.body.items as any[];
  }

  it('creates a card and answers 201 with its id and status created (rule 1)', async () => {
    const body = aFullApplicationBody(vacancyId);
    const response = await tenant.api.post('/applications', body);
    expect(response.status).to.equal(201);
    expect(response.headers.get('content-type')).to.match(/^application\/json/);
    expect(response.body).to.deep.equal({ id: response.body.id, status: 'created' });
    expect(response.body.id).to.be.a('string').and.not.equal('');
    expect(response.headers.get('idempotent-replayed')).to.equal(null);

    const card = (await candidatesOf()).find((c) => c.id === response.body.id);
    expect(card).to.include({ vacancyId, vacancyTitle: 'Аналитик данных', source: 'career-portal', externalId: body.externalId, coverLetter: body.coverLetter });
    expect(card.stage).to.equal('NEW');
    expect(card.candidate).to.deep.equal({ ...body.candidate, gender: null, citizenship: [] });
    expect(card.resume).to.deep.include(body.resume);
  });

  it('returns the earlier id for a repeated externalId and creates nothing (rule 2)', async () => {
    const body = aFullApplicationBody(vacancyId);
    const first = await tenant.api.post('/applications', body);
    const before = await candidatesOf();
    const again = await tenant.api.post('/applications', body);
    expect(again.status).to.equal(200);
    expect(again.body).to.deep.equal({ id: first.body.id, status: 'duplicate' });
    expect(again.headers.get('idempotent-replayed')).to.equal('true');
    expect(again.headers.get('idempotency-conflict')).to.equal(null);
    expect(await candidatesOf()).to.deep.equal(before);
  });

  it('flags a repeated externalId whose body differs, and still changes nothing', async () => {
    const body = aFullApplicationBody(vacancyId);
    const first = await tenant.api.post('/applications', body);
    const before = await candidatesOf();
    const changed = await tenant.api.post('/applications', { ...body, coverLetter: 'Другое письмо' });
    expect(changed.status).to.equal(200);
    expect(changed.body).to.deep.equal({ id: first.body.id, status: 'duplicate' });
    expect(changed.headers.get('idempotent-replayed')).to.equal('true');
    expect(changed.headers.get('idempotency-conflict')).to.equal('body-differs');
    expect(await candidatesOf()).to.deep.equal(before);
    const warning = server.logs().find((line) => line.level === 40 && line.candidateId === first.body.id);
    expect(warning, 'a warning names the earlier card').to.not.equal(undefined);
  });

  it('judges externalId uniqueness within the calling company only (rule 3)', async () => {
    const other = await aTenant(server, { name: 'Другая компания' });
    const otherVacancy = await other.addVacancy();
    const externalId = 'shared-external-id';
    const mine = await tenant.api.post('/applications', aMinimalApplicationBody(vacancyId, { externalId }));
    const theirs = await other.api.post('/applications', aMinimalApplicationBody(otherVacancy.id, { externalId }));
    expect([mine.status, theirs.status]).to.deep.equal([201, 201]);
    expect(theirs.body.id).to.not.equal(mine.body.id);
  });

  it('accepts an application to a vacancy of any status (rule 4)', async () => {
    for (const status of ['open', 'paused', 'closed', 'archived', 'draft'] as const) {
      const vacancy = await tenant.addVacancy({ status });
      const response = await tenant.api.post('/applications', aMinimalApplicationBody(vacancy.id));
      expect(response.status, status).to.equal(201);
    }
  });

  it("answers 404 alike for a missing vacancy and another company's vacancy (rule 5)", async () => {
    const other = await aTenant(server, { name: 'Чужая компания' });
    const foreign = await other.addVacancy({ id: 'probe-target' });
    const foreignAnswer = await tenant.api.post('/applications', aMinimalApplicationBody(foreign.id, { externalId: 'probe-1' }));
    await server.seed.deleteVacancy.execute({ companyId: other.companyId, id: foreign.id });
    const missingAnswer = await tenant.api.post('/applications', aMinimalApplicationBody('probe-target', { externalId: 'probe-2' }));

    expect(foreignAnswer.status).to.equal(404);
    expect(missingAnswer.status).to.equal(404);
    const withoutRequestId = (text: string, id: string) => text.replace(id, '<request>');
    expect(withoutRequestId(foreignAnswer.text, foreignAnswer.body.requestId)).to.equal(withoutRequestId(missingAnswer.text, missingAnswer.body.requestId));
    expect(foreignAnswer.body.code).to.equal('not_found');
    expect(await candidatesOf(other)).to.deep.equal([]);
  });

  it("answers 404 byte for byte alike for another company's vacancy and a missing one of another id (DESIGN 3)", async () => {
    const other = await aTenant(server, { name: 'Другая компания' });
    const foreign = await other.addVacancy({ id: 'someone-elses-vacancy' });
    const foreignAnswer = await tenant.api.post('/applications', aMinimalApplicationBody(foreign.id, { externalId: 'probe-3' }));
    const missingAnswer = await tenant.api.post('/applications', aMinimalApplicationBody('no-such-vacancy-at-all', { externalId: 'probe-4' }));
    expect([foreignAnswer.status, missingAnswer.status]).to.deep.equal([404, 404]);
    const withoutRequestId = (text: string, id: string) => text.replace(id, '<request>');
    expect(withoutRequestId(foreignAnswer.text, foreignAnswer.body.requestId)).to.equal(withoutRequestId(missingAnswer.text, missingAnswer.body.requestId));
    expect(foreignAnswer.text).to.not.contain('someone-elses-vacancy');
    // It names the field of the body that named no vacancy of the company.
    expect(foreignAnswer.body.detail).to.equal('Vacancy not found (/vacancyId).');
    expect(await candidatesOf(other)).to.deep.equal([]);
  });

  it('answers 400 naming every problem of an invalid body, and creates nothing (rule 6)', async () => {
    const before = await candidatesOf();
    const response = await tenant.api.post('/applications', {
      vacancyId,
      candidate: { name: '   ', email: 'not-an-email', birthDate: '1994-02-30' },
      resume: { experienceYears: 81, skills: ['ok', 7] },
      referral: { email: 'x@example.com' },
    });
    expect(response.status).to.equal(400);
    expect(response.headers.get('content-type')).to.match(/^application\/problem\+json/);
    expect(response.body).to.include({ status: 400, code: 'validation_failed' });
    expect(response.body.errors.map((e: any) => e.pointer)).to.have.members([
      '/externalId',
      '/candidate/name',
      '/candidate/email',
      '/candidate/birthDate',
      '/resume/experienceYears',
      '/resume/skills/1',
      '/referral/name',
    ]);
    for (const error of response.body.errors) expect(error.message).to.be.a('string').and.not.equal('');
    expect(await candidatesOf()).to.deep.equal(before);
  });

  it('answers 400 at /source for a label the platform gives its own cards (spec 2.2.1), and creates nothing', async () => {
    const before = await candidatesOf();
    for (const source of ['manual', 'hh', 'HH ', 'Manual']) {
      const response = await tenant.api.post('/applications', { ...aMinimalApplicationBody(vacancyId), externalId: `reserved-${source}`, source });
      expect(response.status, source).to.equal(400);
      expect(response.headers.get('content-type')).to.match(/^application\/problem\+json/);
      expect(response.body).to.include({ status: 400, code: 'validation_failed' });
      expect(response.body.errors.map((e: any) => e.pointer)).to.deep.equal(['/source']);
    }
    expect(await candidatesOf()).to.deep.equal(before);
  });

  it('reserves the job board\'s label as JOB_BOARD_LABEL sets it', async () => {
    const other = await startTestServer({ config: { jobBoardLabel: 'olx' } });
    try {
      const t = await aTenant(other);
      const vacancy = (await t.addVacancy({ title: 'Оператор' })).id;
      const refused = await t.api.post('/applications', { ...aMinimalApplicationBody(vacancy), externalId: 'olx-1', source: 'olx' });
      expect(refused.status).to.equal(400);
      expect(refused.body.errors.map((e: any) => e.pointer)).to.deep.equal(['/source']);
      const spelled = await t.api.post('/applications', { ...aMinimalApplicationBody(vacancy), externalId: 'olx-2', source: ' OLX' });
      expect(spelled.status).to.equal(400);
      const taken = await t.api.post('/applications', { ...aMinimalApplicationBody(vacancy), externalId: 'hh-1', source: 'hh' });
      expect(taken.status).to.equal(201);
      expect((await candidatesOf(t)).map((c) => c.source)).to.deep.equal(['hh']);
    } finally {
      await other.close();
    }
  });

  it('creates a new resume for every application, even from a person already known by e-mail (rule 7, spec 2.6.1)', async () => {
    const second = await tenant.addVacancy({ title: 'Второй' });
    const person = { name: 'Сабина Ахмедова', email: 'sabina@example.kz' };
    const a = await tenant.api.post('/applications', aMinimalApplicationBody(vacancyId, { candidate: person, resume: { summary: 'Первое резюме' } }));
    const b = await tenant.api.post('/applications', aMinimalApplicationBody(second.id, { candidate: person, resume: { summary: 'Второе резюме' } }));
    expect([a.status, b.status]).to.deep.equal([201, 201]);
    expect(a.body.id).to.not.equal(b.body.id);
    const cards = (await candidatesOf()).filter((c) => c.candidate.email === person.email);
    expect(cards.map((c) => [c.id, c.vacancyId, c.resume.summary])).to.have.deep.members([
      [a.body.id, vacancyId, 'Первое резюме'],
      [b.body.id, second.id, 'Второе резюме'],
    ]);
  });

  it('returns a filled referral block in the candidate list as the same block (rule 8)', async () => {
    const referral = { name: 'Дилноза Юсупова', email: 'dilnoza@example.uz', phone: '+998 90 111 11 11', company: 'Uzcard', relationship: 'бывшая коллега' };
    const full = await tenant.api.post('/applications', aMinimalApplicationBody(vacancyId, { referral }));
    const nameOnly = await tenant.api.post('/applications', aMinimalApplicationBody(vacancyId, { referral: { name: 'Бахтияр' } }));
    const none = await tenant.api.post('/applications', aMinimalApplicationBody(vacancyId));
    const byId = new Map((await candidatesOf()).map((c) => [c.id, c]));
    expect(byId.get(full.body.id).referral).to.deep.equal(referral);
    expect(byId.get(nameOnly.body.id).referral).to.deep.equal({ name: 'Бахтияр', email: null, phone: null, company: null, relationship: null });
    expect(byId.get(none.body.id).referral).to.equal(null);
  });
});
