import { expect } from 'chai';
import { KEY_CACHE_TTL_MAX_MS } from '../../infrastructure/config.schema.js';
import { eventually } from '../rate-limit/support/stores.js';
import { startManagementTestServer, type ManagementTestServer } from '../support/management-test-server.js';

const EVENT_FIELDS = ['id', 'type', 'keyId', 'at', 'actor', 'via', 'successorKeyId', 'expiresAt'];

describe('The management API: the key events', () => {
  let server: ManagementTestServer;

  before(async () => {
    server = await startManagementTestServer();
  });
  after(() => server.close());

  async function aCompany(): Promise<string> {
    return (await server.client.post('/companies', { name: 'ТОО «Журнал»' })).body.id as string;
  }

  const events = async (companyId: string, query = '') => (await server.client.get(`/companies/${companyId}/key-events${query}`)).body.items as any[];

  it('tells who issued, rolled and revoked, and when a key was first used and first refused for its expiry, newest first', async () => {
    const companyId = await aCompany();
    const via = `platform-token:${server.tokenId}`;
    const issued = (await server.client.post(`/companies/${companyId}/keys`, { name: 'Портал', scopes: ['vacancies:read'] }, { actor: encodeURIComponent('Айгерим Н.') })).body;
    expect((await server.publicClient(issued.key).get('/vacancies')).status).to.equal(200);
    expect(await eventually(async () => (await events(companyId)).some((e) => e.type === 'first_used'), 10_000), 'first_used is recorded').to.equal(true);

    const oldKeyExpiresAt = new Date(server.clock.peek().getTime() + 60_000).toISOString();
    const { issued: successor } = (await server.client.post(`/companies/${companyId}/keys/${issued.id}/roll`, { oldKeyExpiresAt }, { actor: 'Bob' })).body;
    await server.client.post(`/companies/${companyId}/keys/${successor.id}/revoke`, undefined, { actor: 'Carol' });
    server.clock.advance(60_000 + KEY_CACHE_TTL_MAX_MS);
    expect((await server.publicClient(issued.key).get('/vacancies')).status, 'the old key, past its end').to.equal(401);
    expect(await eventually(async () => (await events(companyId)).some((e) => e.type === 'expired'), 10_000), 'expired is recorded').to.equal(true);

    const trail = await events(companyId);
    for (const event of trail) expect(Object.keys(event)).to.have.members(EVENT_FIELDS);
    const summary = trail.map(({ type, keyId, actor, via: v, successorKeyId, expiresAt }) => ({ type, keyId, actor, via: v, successorKeyId, expiresAt }));
    expect(summary.slice(0, 2)).to.deep.equal([
      { type: 'expired', keyId: issued.id, actor: null, via: null, successorKeyId: null, expiresAt: oldKeyExpiresAt },
      { type: 'revoked', keyId: successor.id, actor: 'Carol', via, successorKeyId: null, expiresAt: null },
    ]);
    // Newest recorded first; one roll records both events at once, the successor's issue last.
    expect(summary.slice(2, 4)).to.deep.equal([
      { type: 'issued', keyId: successor.id, actor: 'Bob', via, successorKeyId: null, expiresAt: null },
      { type: 'rolled', keyId: issued.id, actor: 'Bob', via, successorKeyId: successor.id, expiresAt: oldKeyExpiresAt },
    ]);
    expect(summary.slice(4)).to.deep.equal([
      { type: 'first_used', keyId: issued.id, actor: null, via: null, successorKeyId: null, expiresAt: null },
      { type: 'issued', keyId: issued.id, actor: 'Айгерим Н.', via, successorKeyId: null, expiresAt: null },
    ]);
  });

  it('pages by cursor: every event once, the last page with nextCursor null; limit may change from page to page', async () => {
    const companyId = await aCompany();
    for (let i = 0; i < 4; i++) await server.client.post(`/companies/${companyId}/keys`, { name: `key ${i}`, scopes: ['vacancies:read'] });
    const all = await events(companyId);
    expect(all).to.have.length(4);
    const first = (await server.client.get(`/companies/${companyId}/key-events?limit=3`)).body;
    expect(first.items.map((e: any) => e.id)).to.deep.equal(all.slice(0, 3).map((e) => e.id));
    expect(first.nextCursor).to.be.a('string');
    const second = (await server.client.get(`/companies/${companyId}/key-events?limit=1&cursor=${encodeURIComponent(first.nextCursor)}`)).body;
    expect(second.items.map((e: any) => e.id)).to.deep.equal([all[3].id]);
    expect(second.nextCursor, 'no more events').to.equal(null);
    const exact = (await server.client.get(`/companies/${companyId}/key-events?limit=4&cursor=`)).body;
    expect([exact.items.length, exact.nextCursor], 'an empty cursor is the first page').to.deep.equal([4, null]);
  });

  it("never shows a company's events under another company, nor takes its cursor (400 invalid_cursor)", async () => {
    const [mine, theirs] = [await aCompany(), await aCompany()];
    const keys: string[] = [];
    for (const name of ['theirs 1', 'theirs 2']) keys.push((await server.client.post(`/companies/${theirs}/keys`, { name, scopes: ['vacancies:read'] })).body.id);
    await server.client.post(`/companies/${mine}/keys`, { name: 'mine', scopes: ['vacancies:read'] });
    const cursorOfTheirs = (await server.client.get(`/companies/${theirs}/key-events?limit=1`)).body.nextCursor;
    expect(cursorOfTheirs, 'two events, one a page: a next page').to.be.a('string');
    const refused = await server.client.get(`/companies/${mine}/key-events?limit=1&cursor=${encodeURIComponent(cursorOfTheirs)}`);
    expect([refused.status, refused.body.code], refused.text).to.deep.equal([400, 'invalid_cursor']);
    expect(refused.headers.get('content-type')).to.match(/^application\/problem\+json/);
    expect(refused.body.errors).to.deep.equal([{ pointer: '/cursor', parameter: 'cursor', message: refused.body.detail }]);
    expect(JSON.stringify(refused.body), 'nothing of theirs in the answer').to.not.contain(keys[0]).and.not.contain(keys[1]);
    expect((await events(mine)).filter((e) => keys.includes(e.keyId))).to.deep.equal([]);
    expect((await events(theirs)).map((e) => e.keyId)).to.have.members(keys);
    const next = await server.client.get(`/companies/${theirs}/key-events?limit=1&cursor=${encodeURIComponent(cursorOfTheirs)}`);
    expect([next.status, next.body.items.length], 'still good for its own company').to.deep.equal([200, 1]);
  });
});
