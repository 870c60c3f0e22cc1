import { expect } from 'chai';
import { startManagementTestServer, type ManagementTestServer } from '../support/management-test-server.js';

/**
 * The instance whose management API revokes or rolls a key drops what it read of the key at once: the public
 * API there refuses it from the next request on, without waiting for KEY_CACHE_TTL_MS. The clock stands still
 * (it ticks a millisecond per reading), so a test that waited for the cache would see the old answer.
 */
describe('The management API: a key revoked or rolled stops at once on the instance that changed it', () => {
  let server: ManagementTestServer;

  before(async () => {
    server = await startManagementTestServer({ config: { keyCacheTtlMs: 5_000 } });
  });
  after(() => server.close());

  async function aCachedKey(): Promise<{ companyId: string; id: string; key: string }> {
    const company = await server.client.post('/companies', { name: 'ТОО «Кэш»' });
    const issued = await server.client.post(`/companies/${company.body.id}/keys`, { name: 'Сайт', scopes: ['vacancies:read'] });
    expect(issued.status, issued.text).to.equal(201);
    // Read once by the public API, so that this instance holds the key in its cache.
    expect((await server.publicClient(issued.body.key).get('/vacancies')).status).to.equal(200);
    return { companyId: company.body.id, id: issued.body.id, key: issued.body.key };
  }

  it('refuses a revoked key on the next request', async () => {
    const { companyId, id, key } = await aCachedKey();
    const revoked = await server.client.post(`/companies/${companyId}/keys/${id}/revoke`);
    expect(revoked.status, revoked.text).to.equal(200);
    expect((await server.publicClient(key).get('/vacancies')).status).to.equal(401);
  });

  it("refuses a rolled key from its new end on, not the cache's lifetime later", async () => {
    const { companyId, id, key } = await aCachedKey();
    const oldKeyExpiresAt = new Date(server.clock.peek().getTime() + 1_000);
    const rolled = await server.client.post(`/companies/${companyId}/keys/${id}/roll`, { oldKeyExpiresAt: oldKeyExpiresAt.toISOString() });
    expect(rolled.status, rolled.text).to.equal(201);
    expect((await server.publicClient(key).get('/vacancies')).status, 'before its new end').to.equal(200);
    server.clock.advance(1_000);
    expect((await server.publicClient(key).get('/vacancies')).status, 'at its new end').to.equal(401);
    expect((await server.publicClient(rolled.body.issued.key).get('/vacancies')).status).to.equal(200);
  });
});
