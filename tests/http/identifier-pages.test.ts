import { expect } from 'chai';
import type { ApiClient } from '../support/api-client.js';
import { aTenant, type Tenant } from '../support/http-fixtures.js';
import { startTestServer, type TestServer } from '../support/http-test-server.js';

/** Every item of a pass that starts at `path`, following nextCursor with the same query. */
async function pass(api: ApiClient, path: string): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let cursor: string | null = null;
  do {
    const separator = path.includes('?') ? '&' : '?';
    const page: { status: number; text: string; body: { items: Record<string, unknown>[]; nextCursor: string | null } } = await api.get(`${path}${cursor === null ? '' : `${separator}cursor=${cursor}`}`);
    expect(page.status, page.text).to.equal(200);
    items.push(...page.body.items);
    cursor = page.body.nextCursor;
  } while (cursor !== null);
  return items;
}

describe('Identifier-only pages: fields=id', () => {
  let server: TestServer;
  let tenant: Tenant;
  let vacancyId: string;

  before(async () => {
    server = await startTestServer();
    tenant = await aTenant(server);
    vacancyId = (await tenant.addVacancy({ title: 'Курьер' })).id;
    await tenant.addVacancy({ title: 'Архивная', status: 'archived' });
    const other = (await tenant.addVacancy()).id;
    for (let i = 0; i < 5; i++) await tenant.addManualCandidate(i % 2 === 0 ? vacancyId : other, `Кандидат ${i}`);
  });
  after(() => server.close());

  for (const path of ['/vacancies?status=all&limit=2', '/vacancies?limit=1', '/candidates?limit=2', `/candidates?limit=1&vacancyId=VACANCY`]) {
    it(`lists the ids and updatedAt of ${path} and nothing else, in the order and with the filters of the full pass`, async () => {
      const query = path.replace('VACANCY', vacancyId);
      const full = await pass(tenant.api, query);
      const ids = await pass(tenant.api, `${query}&fields=id`);
      expect(full.length).to.be.greaterThan(0);
      expect(ids).to.deep.equal(full.map((item) => ({ id: item.id, updatedAt: item.updatedAt })));
    });
  }

  it('writes each item as {"id":…,"updatedAt":…}, a small part of the full item', async () => {
    const ids = await tenant.api.get('/candidates?fields=id&limit=1');
    const full = await tenant.api.get('/candidates?limit=1');
    const item = ids.body.items[0];
    expect(ids.text).to.equal(`{"items":[{"id":${JSON.stringify(item.id)},"updatedAt":"${item.updatedAt}"}],"nextCursor":${JSON.stringify(ids.body.nextCursor)}}`);
    expect(ids.text.length).to.be.below(full.text.length / 4);
  });

  it('keeps fields in the cursor: a cursor of one kind of pass is refused by the other', async () => {
    const idsCursor = (await tenant.api.get('/candidates?fields=id&limit=1')).body.nextCursor as string;
    const fullCursor = (await tenant.api.get('/candidates?limit=1')).body.nextCursor as string;
    for (const path of [`/candidates?cursor=${idsCursor}`, `/candidates?fields=id&cursor=${fullCursor}`]) {
      const refused = await tenant.api.get(path);
      expect([refused.status, refused.body.code], path).to.deep.equal([400, 'invalid_cursor']);
      expect(refused.body.detail).to.contain('fields');
    }
    expect((await tenant.api.get(`/candidates?fields=id&cursor=${idsCursor}`)).status).to.equal(200);
  });

  it('refuses another value of fields, naming the parameter, and keeps the limits and the scopes', async () => {
    for (const path of ['/candidates?fields=name', '/vacancies?fields=', '/vacancies?fields=id&fields=id']) {
      const refused = await tenant.api.get(path);
      expect([refused.status, refused.body.code, refused.body.errors?.[0]?.parameter], path).to.deep.equal([400, 'validation_failed', 'fields']);
    }
    const tooMany = await tenant.api.get('/candidates?fields=id&limit=501');
    expect([tooMany.status, tooMany.body.errors?.[0]?.parameter]).to.deep.equal([400, 'limit']);
    const storefront = tenant.api.withKey((await tenant.issueKey(['vacancies:read'])).key);
    expect((await storefront.get('/candidates?fields=id')).status).to.equal(403);
    expect((await storefront.get('/vacancies?fields=id')).status).to.equal(200);
  });
});
