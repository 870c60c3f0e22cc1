import { expect } from 'chai';
import { aFullApplicationBody, aTenant, type Tenant } from '../support/http-fixtures.js';
import { startTestServer, type TestServer } from '../support/http-test-server.js';

/** PostgreSQL cannot store U+0000 in text: every store refuses it alike, as a 400 naming the field. */
describe('The NUL character (U+0000)', () => {
  let server: TestServer;
  let tenant: Tenant;
  let vacancyId: string;

  before(async () => {
    server = await startTestServer();
    tenant = await aTenant(server);
    vacancyId = (await tenant.addVacancy()).id;
  });
  after(() => server.close());

  const cases: [string, (body: any) => void][] = [
    ['/externalId', (b) => (b.externalId = 'ext\u0000-1')],
    ['/vacancyId', (b) => (b.vacancyId = 'v\u0000')],
    ['/candidate/name', (b) => (b.candidate.name = 'Алия\u0000')],
    ['/resume/skills/0', (b) => (b.resume.skills = ['SQL\u0000'])],
    ['/referral/company', (b) => (b.referral.company = '\u0000')],
  ];
  for (const [pointer, spoil] of cases) {
    it(`answers 400 naming ${pointer} and stores nothing`, async () => {
      const body = aFullApplicationBody(vacancyId);
      spoil(body);
      const response = await tenant.api.post('/applications', body);
      expect(response.status).to.equal(400);
      expect(response.body.code).to.equal('validation_failed');
      expect(response.body.errors.map((e: { pointer: string }) => e.pointer)).to.include(pointer);
      const listed = await tenant.api.get('/candidates');
      expect(listed.body.items).to.deep.equal([]);
    });
  }

  it('answers 400 for a vacancyId filter holding it', async () => {
    const response = await tenant.api.get(`/candidates?vacancyId=${encodeURIComponent('v\u0000')}`);
    expect(response.status).to.equal(400);
    expect(JSON.stringify(response.body)).to.contain('vacancyId');
  });
});
