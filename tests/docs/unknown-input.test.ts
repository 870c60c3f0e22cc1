import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { aMinimalApplicationBody, aTenant, type Tenant } from '../support/http-fixtures.js';
import { startTestServer, type TestServer } from '../support/http-test-server.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * What the README says of input the API does not know, and that it holds: an unknown query parameter is a 400
 * naming it, an unknown body field is ignored and not stored (ADR 3). The rules themselves are tested at length
 * in tests/http and tests/hostile; this keeps the newcomer's page true to them.
 */
describe('the README on unknown input', () => {
  let server: TestServer;
  let tenant: Tenant;

  before(async () => {
    server = await startTestServer();
    tenant = await aTenant(server);
  });
  after(() => server.close());

  it('says that an unknown query parameter is a 400 and an unknown body field is ignored, citing ADR 3', () => {
    const text = readFileSync(path.join(root, 'README.md'), 'utf8').replace(/\s+/g, ' ');
    expect(text).to.include('a query parameter the operation does not take is a 400 naming it (`?stauts=open` points at `/stauts`), never ignored');
    expect(text).to.include('an unknown field of a request body is ignored and not stored');
    expect(text).to.match(/ignored and not stored[^.]*\(ADR 3\)/);
    expect(readFileSync(path.join(root, 'docs/adr/0003-application-defaults.md'), 'utf8')).to.include('Unknown fields are ignored and not stored');
  });

  it('holds as the README says it: ?stauts=open is a 400 at /stauts, an unknown field of an application is dropped', async () => {
    const query = await tenant.api.get('/vacancies?stauts=open');
    expect(query.status).to.equal(400);
    expect(query.body.errors.map((problem: { pointer: string }) => problem.pointer)).to.deep.equal(['/stauts']);

    const vacancyId = (await tenant.addVacancy()).id;
    const body = aMinimalApplicationBody(vacancyId, { priority: 'high', candidate: { name: 'Алишер Каримов', nickname: 'Алиш' } });
    const created = await tenant.api.post('/applications', body);
    expect(created.status).to.equal(201);
    const page = await tenant.api.get(`/candidates?vacancyId=${vacancyId}`);
    const card = (page.body.items as Record<string, unknown>[]).find((item) => item.id === created.body.id)!;
    expect(JSON.stringify(card)).not.to.match(/priority|nickname|Алиш"/);
  });
});
