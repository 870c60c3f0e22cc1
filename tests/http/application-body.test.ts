import { expect } from 'chai';
import { aFullApplicationBody, aMinimalApplicationBody, aTenant, type Tenant } from '../support/http-fixtures.js';
import { startTestServer, type TestServer } from '../support/http-test-server.js';

describe('POST /applications: the request body', () => {
  let server: TestServer;
  let tenant: Tenant;
  let vacancyId: string;

  before(async () => {
    server = await startTestServer();
    tenant = await aTenant(server);
    vacancyId = (await tenant.addVacancy()).id;
  });
  after(() => server.close());

  async function cardOf(id: string) {
    const page = await tenant.api.get(`/candidates?vacancyId=${vacancyId}&limit=500`);
    return (page.body.items as any[]).find((c) => c.id === id);
  }

  it('accepts a body with only externalId, vacancyId and candidate.name, and fills the rest with null and empty lists', async () => {
    const response = await tenant.api.post('/applications', aMinimalApplicationBody(vacancyId));
    expect(response.status).to.equal(201);
    const card = await cardOf(response.body.id);
    expect(card.source).to.equal('api');
    expect(card.coverLetter).to.equal(null);
    expect(card.referral).to.equal(null);
    expect(card.candidate).to.deep.equal({ name: 'Алишер Каримов', email: null, phone: null, location: null, birthDate: null, gender: null, citizenship: [] });
    expect(card.resume).to.deep.include({ role: null, summary: null, experienceYears: null, skills: [], experience: [], education: [], expectedSalary: null, expectedSalaryCurrency: null });
  });

  it('returns "" for the strings that experience and education items did not send', async () => {
    const response = await tenant.api.post('/applications', aMinimalApplicationBody(vacancyId, {
      resume: { experience: [{}, { company: 'Kaspi' }], education: [{}, { degree: 'Магистр' }] },
    }));
    expect(response.status).to.equal(201);
    const { resume } = await cardOf(response.body.id);
    expect(resume.experience).to.deep.equal([
      { company: '', role: '', period: '', description: '' },
      { company: 'Kaspi', role: '', period: '', description: '' },
    ]);
    expect(resume.education).to.deep.equal([
      { institution: '', degree: '', period: '' },
      { institution: '', degree: 'Магистр', period: '' },
    ]);
  });

  it('ignores fields outside the specification, neither storing nor returning them', async () => {
    const body = aFullApplicationBody(vacancyId, { trackingCode: 'utm-42', candidate: { name: 'Тимур', gender: 'male', citizenship: ['KZ'], secretNote: 'x' } });
    (body.resume as any).languages = [{ name: 'English', level: 'B2' }];
    (body.resume as any).skillsDescription = 'не из спецификации запроса';
    (body.referral as any).bonus = 1000;
    const response = await tenant.api.post('/applications', body);
    expect(response.status).to.equal(201);
    const card = await cardOf(response.body.id);
    const text = JSON.stringify(card);
    for (const unknown of ['trackingCode', 'utm-42', 'secretNote', 'bonus', 'English', 'не из спецификации']) expect(text).to.not.include(unknown);
    expect(card.candidate).to.include({ gender: null });
    expect(card.candidate.citizenship).to.deep.equal([]);

    // Unknown fields are not part of the stored body either: without them the replay is not a conflict.
    const { trackingCode: _t, ...known } = body as any;
    known.candidate = { name: 'Тимур' };
    delete known.resume.languages;
    delete known.resume.skillsDescription;
    delete known.referral.bonus;
    const replay = await tenant.api.post('/applications', known);
    expect(replay.status).to.equal(200);
    expect(replay.headers.get('idempotency-conflict')).to.equal(null);
  });

  it('takes birthDate as a date or null, and refuses any other form', async () => {
    const ok = await tenant.api.post('/applications', aMinimalApplicationBody(vacancyId, { candidate: { name: 'Ольга', birthDate: '2000-02-29' } }));
    const none = await tenant.api.post('/applications', aMinimalApplicationBody(vacancyId, { candidate: { name: 'Ольга', birthDate: null } }));
    expect([ok.status, none.status]).to.deep.equal([201, 201]);
    expect((await cardOf(ok.body.id)).candidate.birthDate).to.equal('2000-02-29');
    expect((await cardOf(none.body.id)).candidate.birthDate).to.equal(null);
    for (const birthDate of ['2001-02-29', '29.02.2000', '2000-02-29T00:00:00Z', 20000229, '']) {
      const bad = await tenant.api.post('/applications', aMinimalApplicationBody(vacancyId, { candidate: { name: 'Ольга', birthDate } }));
      expect(bad.status, String(birthDate)).to.equal(400);
      expect(bad.body.errors).to.deep.equal([{ pointer: '/candidate/birthDate', message: bad.body.errors[0].message }]);
    }
  });

  it('converts no types: a number for a string or a string for a number is a 400', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ externalId: 42 }, '/externalId'],
      [{ vacancyId: 7 }, '/vacancyId'],
      [{ candidate: { name: 12345 } }, '/candidate/name'],
      [{ candidate: { name: 'Ян', phone: 87010000000 } }, '/candidate/phone'],
      [{ resume: { experienceYears: '5' } }, '/resume/experienceYears'],
      [{ resume: { experienceYears: 2.5 } }, '/resume/experienceYears'],
      [{ resume: { expectedSalary: '300000' } }, '/resume/expectedSalary'],
      [{ resume: { skills: 'Node.js' } }, '/resume/skills'],
      [{ resume: { experience: [{ company: 1 }] } }, '/resume/experience/0/company'],
      [{ resume: 'резюме' }, '/resume'],
      [{ referral: 'Иван' }, '/referral'],
      [{ coverLetter: true }, '/coverLetter'],
      [{ candidate: 'Иван' }, '/candidate'],
    ];
    for (const [override, pointer] of cases) {
      const response = await tenant.api.post('/applications', aMinimalApplicationBody(vacancyId, override));
      expect(response.status, pointer).to.equal(400);
      expect(response.body.errors.map((e: any) => e.pointer), pointer).to.deep.equal([pointer]);
    }
  });

  it('refuses a blank candidate or referral name', async () => {
    const response = await tenant.api.post('/applications', aMinimalApplicationBody(vacancyId, { candidate: { name: ' \t ' }, referral: { name: '\u00a0' } }));
    expect(response.status).to.equal(400);
    expect(response.body.errors).to.deep.equal([
      { pointer: '/candidate/name', message: 'must not be blank' },
      { pointer: '/referral/name', message: 'must not be blank' },
    ]);
  });

  it('answers 400 validation_failed for malformed JSON and for a body that is not an object', async () => {
    for (const raw of ['{"externalId": "x",', '', 'null', '[]', '"text"', '42']) {
      const response = await tenant.api.post('/applications', raw);
      expect(response.status, raw).to.equal(400);
      expect(response.body.code, raw).to.equal('validation_failed');
      expect(response.body.errors, raw).to.have.length(1);
      expect(response.body.errors[0].pointer, raw).to.equal('');
    }
  });

  it('answers 415 for a body that is not sent as application/json', async () => {
    const body = JSON.stringify(aMinimalApplicationBody(vacancyId));
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'application/json; charset=latin1']) {
      const response = await tenant.api.post('/applications', body, { headers: { 'Content-Type': type } });
      expect(response.status, type).to.equal(415);
      expect(response.body.code).to.equal('unsupported_media_type');
    }
    const withCharset = await tenant.api.post('/applications', body, { headers: { 'Content-Type': 'application/json; charset=UTF-8' } });
    expect(withCharset.status).to.equal(201);
  });

  it('answers 413 for a body over 5 MiB and accepts one of exactly 5 MiB', async () => {
    const limit = 5 * 1024 * 1024;
    const padded = (size: number) => {
      const body = JSON.stringify(aMinimalApplicationBody(vacancyId, { padding: '' }));
      return body.replace('"padding":""', `"padding":"${'x'.repeat(size - Buffer.byteLength(body))}"`);
    };
    const tooLarge = await tenant.api.post('/applications', padded(limit + 1));
    expect(tooLarge.status).to.equal(413);
    expect(tooLarge.body.code).to.equal('payload_too_large');
    const atLimit = await tenant.api.post('/applications', padded(limit));
    expect(atLimit.status).to.equal(201);
  });
});
