import { expect } from 'chai';
import { aMinimalApplicationBody, aTenant, type Tenant } from '../support/http-fixtures.js';
import { startTestServer, type TestServer } from '../support/http-test-server.js';

const TAKES = {
  '/vacancies': 'is not a parameter of this operation, which takes since, limit, cursor, status, fields',
  '/candidates': 'is not a parameter of this operation, which takes since, limit, cursor, vacancyId, fields',
} as const;

describe('Query parameters an operation does not take', () => {
  let server: TestServer;
  let tenant: Tenant;
  let vacancyId: string;

  before(async () => {
    server = await startTestServer();
    tenant = await aTenant(server);
    vacancyId = (await tenant.addVacancy({ status: 'draft' })).id;
  });
  after(() => server.close());

  it('answers GET /vacancies?stauts=open with 400 pointing at /stauts and naming the parameters of the operation, instead of every status', async () => {
    const response = await tenant.api.get('/vacancies?stauts=open');
    expect(response.status).to.equal(400);
    expect(response.body).to.include({ status: 400, code: 'validation_failed' });
    expect(response.body.errors).to.deep.equal([{ pointer: '/stauts', parameter: 'stauts', message: TAKES['/vacancies'] }]);
    expect((await tenant.api.get('/vacancies?stauts=open', { key: undefined })).status, 'the key is asked for first').to.equal(401);
  });

  it('refuses a parameter of the other list, and names it beside the problems of the known ones', async () => {
    const vacancies = await tenant.api.get('/vacancies?vacancyId=x&limit=0');
    expect(vacancies.body.errors).to.deep.equal([
      { pointer: '/vacancyId', parameter: 'vacancyId', message: TAKES['/vacancies'] },
      { pointer: '/limit', parameter: 'limit', message: 'must be a whole number from 1 to 500' },
    ]);
    const candidates = await tenant.api.get('/candidates?status=all');
    expect([candidates.status, candidates.body.errors]).to.deep.equal([400, [{ pointer: '/status', parameter: 'status', message: TAKES['/candidates'] }]]);
  });

  it('names an unknown parameter exactly: another case, brackets, a bare name, an empty name, and ~ and / escaped in the pointer', async () => {
    const response = await tenant.api.get(`/vacancies?Limit=5&limit[]=5&verbose&=x&${encodeURIComponent('a/b~c')}=1&limit=5`);
    expect(response.status).to.equal(400);
    expect(response.body.errors).to.deep.equal(
      [['Limit', '/Limit'], ['limit[]', '/limit[]'], ['verbose', '/verbose'], ['', '/'], ['a/b~c', '/a~1b~0c']].map(([parameter, pointer]) => ({ pointer, parameter, message: TAKES['/vacancies'] })),
    );
  });

  it('refuses a query parameter on POST /applications, which takes none, and creates nothing', async () => {
    const body = aMinimalApplicationBody(vacancyId);
    const response = await tenant.api.post('/applications?dryRun=true', body);
    expect(response.status).to.equal(400);
    expect(response.body.errors).to.deep.equal([{ pointer: '/dryRun', parameter: 'dryRun', message: 'is not a parameter: this operation takes none' }]);
    expect((await tenant.api.get('/candidates')).body.items).to.deep.equal([]);
    expect((await tenant.api.post('/applications', body)).status, 'the same body without the query').to.equal(201);
  });
});
