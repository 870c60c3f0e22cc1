import { expect } from 'chai';
import * as L from '../../domain/inbound-application/application-limits.js';
import { aMinimalApplicationBody, aTenant, uniqueId, type Tenant } from '../support/http-fixtures.js';
import { startTestServer, type TestServer } from '../support/http-test-server.js';

/** `n` Cyrillic letters: two bytes each in UTF-8, one code point each, which is what the bounds count. */
const cyrillic = (n: number) => 'ж'.repeat(n);
/** An e-mail address of exactly `n` characters (n >= 320 - 64 works: the local part takes the rest). */
function emailOfLength(n: number): string {
  const domain = ['b'.repeat(63), 'c'.repeat(63), 'd'.repeat(63), 'e'.repeat(63)].join('.');
  return `${'a'.repeat(n - 1 - domain.length)}@${domain}`;
}

type Body = Record<string, any>;
interface Bound {
  readonly pointer: string;
  /** A body whose field at `pointer` holds the value. */
  readonly body: (value: unknown, vacancyId: string) => Body;
  readonly atLimit: unknown;
  readonly pastLimit: unknown;
}

const base = (vacancyId: string, extra: Body = {}) => aMinimalApplicationBody(vacancyId, extra);
const inCandidate = (field: string) => (value: unknown, v: string) => base(v, { candidate: { name: 'Имя', [field]: value } });
const inResume = (field: string) => (value: unknown, v: string) => base(v, { resume: { [field]: value } });
const inReferral = (field: string) => (value: unknown, v: string) => base(v, { referral: { name: 'Имя', [field]: value } });
const inItem = (list: string, field: string) => (value: unknown, v: string) => base(v, { resume: { [list]: [{ [field]: value }] } });

const textBound = (pointer: string, body: Bound['body'], max: number): Bound => ({ pointer, body, atLimit: cyrillic(max), pastLimit: cyrillic(max + 1) });

/** Every bound of spec part 8, each at its limit and one past it. */
const BOUNDS: Bound[] = [
  { pointer: '/externalId', body: (value, v) => base(v, { externalId: value }), atLimit: `${uniqueId('e')}-${'ж'.repeat(L.EXTERNAL_ID_MAX_LENGTH)}`.slice(0, L.EXTERNAL_ID_MAX_LENGTH), pastLimit: cyrillic(L.EXTERNAL_ID_MAX_LENGTH + 1) },
  textBound('/source', (value, v) => base(v, { source: value }), L.SOURCE_MAX_LENGTH),
  textBound('/candidate/name', inCandidate('name'), L.PERSON_NAME_MAX_LENGTH),
  { pointer: '/candidate/email', body: inCandidate('email'), atLimit: emailOfLength(L.EMAIL_MAX_LENGTH), pastLimit: emailOfLength(L.EMAIL_MAX_LENGTH + 1) },
  textBound('/candidate/phone', inCandidate('phone'), L.PHONE_MAX_LENGTH),
  textBound('/candidate/location', inCandidate('location'), L.LOCATION_MAX_LENGTH),
  textBound('/coverLetter', (value, v) => base(v, { coverLetter: value }), L.COVER_LETTER_MAX_LENGTH),
  textBound('/resume/summary', inResume('summary'), L.RESUME_SUMMARY_MAX_LENGTH),
  textBound('/resume/role', inResume('role'), L.RESUME_ROLE_MAX_LENGTH),
  { pointer: '/resume/experienceYears', body: inResume('experienceYears'), atLimit: L.EXPERIENCE_YEARS_MAX, pastLimit: L.EXPERIENCE_YEARS_MAX + 1 },
  { pointer: '/resume/experienceYears', body: inResume('experienceYears'), atLimit: L.EXPERIENCE_YEARS_MIN, pastLimit: L.EXPERIENCE_YEARS_MIN - 1 },
  { pointer: '/resume/skills', body: inResume('skills'), atLimit: Array.from({ length: L.SKILLS_MAX_ITEMS }, (_, i) => `навык ${i}`), pastLimit: Array.from({ length: L.SKILLS_MAX_ITEMS + 1 }, (_, i) => `навык ${i}`) },
  { pointer: '/resume/skills/0', body: inResume('skills'), atLimit: [cyrillic(L.SKILL_MAX_LENGTH)], pastLimit: [cyrillic(L.SKILL_MAX_LENGTH + 1)] },
  { pointer: '/resume/experience', body: inResume('experience'), atLimit: Array.from({ length: L.EXPERIENCE_MAX_ITEMS }, () => ({})), pastLimit: Array.from({ length: L.EXPERIENCE_MAX_ITEMS + 1 }, () => ({})) },
  textBound('/resume/experience/0/company', inItem('experience', 'company'), L.EXPERIENCE_COMPANY_MAX_LENGTH),
  textBound('/resume/experience/0/role', inItem('experience', 'role'), L.EXPERIENCE_ROLE_MAX_LENGTH),
  textBound('/resume/experience/0/period', inItem('experience', 'period'), L.PERIOD_MAX_LENGTH),
  textBound('/resume/experience/0/description', inItem('experience', 'description'), L.EXPERIENCE_DESCRIPTION_MAX_LENGTH),
  { pointer: '/resume/education', body: inResume('education'), atLimit: Array.from({ length: L.EDUCATION_MAX_ITEMS }, () => ({})), pastLimit: Array.from({ length: L.EDUCATION_MAX_ITEMS + 1 }, () => ({})) },
  textBound('/resume/education/0/institution', inItem('education', 'institution'), L.EDUCATION_INSTITUTION_MAX_LENGTH),
  textBound('/resume/education/0/degree', inItem('education', 'degree'), L.EDUCATION_DEGREE_MAX_LENGTH),
  textBound('/resume/education/0/period', inItem('education', 'period'), L.PERIOD_MAX_LENGTH),
  { pointer: '/resume/expectedSalary', body: inResume('expectedSalary'), atLimit: L.EXPECTED_SALARY_MIN, pastLimit: L.EXPECTED_SALARY_MIN - 1 },
  textBound('/resume/expectedSalaryCurrency', inResume('expectedSalaryCurrency'), L.EXPECTED_SALARY_CURRENCY_MAX_LENGTH),
  textBound('/referral/name', inReferral('name'), L.REFERRAL_NAME_MAX_LENGTH),
  { pointer: '/referral/email', body: inReferral('email'), atLimit: emailOfLength(L.EMAIL_MAX_LENGTH), pastLimit: emailOfLength(L.EMAIL_MAX_LENGTH + 1) },
  textBound('/referral/phone', inReferral('phone'), L.PHONE_MAX_LENGTH),
  textBound('/referral/company', inReferral('company'), L.REFERRAL_COMPANY_MAX_LENGTH),
  textBound('/referral/relationship', inReferral('relationship'), L.REFERRAL_RELATIONSHIP_MAX_LENGTH),
];

/** The lower bounds: required strings must not be empty. */
const EMPTY: [string, (v: string) => Body][] = [
  ['/externalId', (v) => base(v, { externalId: '' })],
  ['/vacancyId', () => base('', {})],
  ['/candidate/name', (v) => base(v, { candidate: { name: '' } })],
  ['/referral/name', (v) => base(v, { referral: { name: '' } })],
];

describe('POST /applications: the limits of spec part 8', () => {
  let server: TestServer;
  let tenant: Tenant;
  let vacancyId: string;

  before(async () => {
    server = await startTestServer();
    tenant = await aTenant(server);
    vacancyId = (await tenant.addVacancy({ id: 'v'.repeat(L.VACANCY_ID_MAX_LENGTH) })).id;
  });
  after(() => server.close());

  for (const bound of BOUNDS) {
    it(`accepts ${bound.pointer} at its limit and refuses it one past`, async () => {
      const ok = await tenant.api.post('/applications', bound.body(bound.atLimit, vacancyId));
      expect(ok.status, ok.text.slice(0, 300)).to.equal(201);
      const bad = await tenant.api.post('/applications', bound.body(bound.pastLimit, vacancyId));
      expect(bad.status).to.equal(400);
      expect(bad.body.code).to.equal('validation_failed');
      expect(bad.body.errors).to.deep.equal([{ pointer: bound.pointer, message: bad.body.errors[0].message }]);
    });
  }

  it('accepts a vacancyId of 64 characters and refuses 65 (then it cannot name a vacancy)', async () => {
    const ok = await tenant.api.post('/applications', base(vacancyId));
    expect(ok.status).to.equal(201);
    const bad = await tenant.api.post('/applications', base(`${vacancyId}v`));
    expect(bad.status).to.equal(400);
    expect(bad.body.errors).to.deep.equal([{ pointer: '/vacancyId', message: 'must be at most 64 characters' }]);
  });

  for (const [pointer, body] of EMPTY) {
    it(`refuses an empty ${pointer}`, async () => {
      const response = await tenant.api.post('/applications', body(vacancyId));
      expect(response.status).to.equal(400);
      expect(response.body.errors.map((e: any) => e.pointer)).to.deep.equal([pointer]);
    });
  }

  it('counts code points, not UTF-16 units or bytes: 300 letters outside the BMP make a valid name', async () => {
    const response = await tenant.api.post('/applications', base(vacancyId, { candidate: { name: '𝔸'.repeat(L.PERSON_NAME_MAX_LENGTH) } }));
    expect(response.status).to.equal(201);
  });

  it('refuses a fractional expectedSalary and accepts a large whole one', async () => {
    expect((await tenant.api.post('/applications', base(vacancyId, { resume: { expectedSalary: 1500.5 } }))).status).to.equal(400);
    expect((await tenant.api.post('/applications', base(vacancyId, { resume: { expectedSalary: 2_000_000_000 } }))).status).to.equal(201);
  });

  it('accepts a maximal application in Cyrillic, with every field at its limit (about 1.5 MB)', async () => {
    const item = { company: cyrillic(300), role: cyrillic(300), period: cyrillic(120), description: cyrillic(5000) };
    const body = {
      externalId: `max-${cyrillic(L.EXTERNAL_ID_MAX_LENGTH - 4)}`,
      vacancyId,
      source: cyrillic(L.SOURCE_MAX_LENGTH),
      candidate: { name: cyrillic(300), email: emailOfLength(320), phone: cyrillic(60), location: cyrillic(200), birthDate: '1990-01-01' },
      coverLetter: cyrillic(20_000),
      resume: {
        role: cyrillic(300),
        summary: cyrillic(20_000),
        experienceYears: 80,
        skills: Array.from({ length: 200 }, () => cyrillic(120)),
        experience: Array.from({ length: 100 }, () => item),
        education: Array.from({ length: 100 }, () => ({ institution: cyrillic(300), degree: cyrillic(300), period: cyrillic(120) })),
        expectedSalary: 0,
        expectedSalaryCurrency: cyrillic(10),
      },
      referral: { name: cyrillic(300), email: emailOfLength(320), phone: cyrillic(60), company: cyrillic(300), relationship: cyrillic(200) },
    };
    expect(Buffer.byteLength(JSON.stringify(body))).to.be.above(1_000_000);
    const response = await tenant.api.post('/applications', body);
    expect(response.status).to.equal(201);
    const page = await tenant.api.get(`/candidates?vacancyId=${vacancyId}&limit=500`);
    const card = page.body.items.find((c: any) => c.id === response.body.id);
    expect(card.resume.experience).to.have.length(100);
    expect(card.resume.experience[99]).to.deep.equal(item);
  });
});
