import { expect } from 'chai';
import { PLATFORM_SCOPES, type PlatformScope } from '../../domain/platform-token/platform-scope.js';
import type { ApiResponse } from '../support/api-client.js';
import type { ManagementClient } from '../support/management-client.js';
import { startManagementTestServer, type ManagementTestServer } from '../support/management-test-server.js';

const FAKE_KEY_ID = 'Zz9Yy8Xx7Ww6';
const UNKNOWN_COMPANY = '019a98c0-0000-7000-8000-00000000dead';

/**
 * Least privilege for platform tokens (ADR 17), through HTTP on the store TEST_STORE names: each operation
 * needs its one scope, a token limited to companies reaches those only, an expired token is refused.
 */
describe('The management API: what a platform token may do', () => {
  let server: ManagementTestServer;
  let companyId: string;
  let otherCompanyId: string;

  before(async () => {
    server = await startManagementTestServer();
    companyId = (await server.client.post('/companies', { name: 'ТОО «Своя»' })).body.id;
    otherCompanyId = (await server.client.post('/companies', { name: 'ТОО «Чужая»' })).body.id;
  });
  after(() => server.close());

  const clientWith = async (limits: { scopes?: PlatformScope[]; companies?: string[]; expiresAt?: Date }) =>
    server.client.as({ token: (await server.issuePlatformToken('limited service', limits)).token });

  /** Every operation that needs a scope, with the scope ADR 17 gives it, on `company`. */
  const operations = (client: ManagementClient, company: string): [PlatformScope, () => Promise<ApiResponse>][] => [
    ['companies:write', () => client.post('/companies', { name: 'Новая' })],
    ['companies:read', () => client.get(`/companies/${company}`)],
    ['keys:read', () => client.get(`/companies/${company}/keys`)],
    ['keys:write', () => client.post(`/companies/${company}/keys`, { name: 'k', scopes: ['vacancies:read'] })],
    ['keys:read', () => client.get(`/companies/${company}/keys/${FAKE_KEY_ID}`)],
    ['keys:write', () => client.post(`/companies/${company}/keys/${FAKE_KEY_ID}/revoke`)],
    ['keys:write', () => client.post(`/companies/${company}/keys/${FAKE_KEY_ID}/roll`)],
    ['key-events:read', () => client.get(`/companies/${company}/key-events`)],
  ];

  it('lets a token with one scope call only the operations of that scope, and answers the rest 403 naming the scope', async () => {
    for (const scope of PLATFORM_SCOPES) {
      const client = await clientWith({ scopes: [scope] });
      for (const [needed, send] of operations(client, companyId)) {
        const response = await send();
        if (needed === scope) {
          expect(response.status, `${scope} on an operation of ${needed}`).to.be.oneOf([200, 201, 404]);
          continue;
        }
        expect(response.status, `${scope} on an operation of ${needed}`).to.equal(403);
        expect(response.headers.get('content-type')).to.match(/^application\/problem\+json/);
        expect(response.body).to.include({ status: 403, code: 'forbidden', title: 'Forbidden', detail: `The platform token lacks the scope ${needed}.` });
      }
    }
  });

  it('changes nothing when it refuses: a key write without keys:write issues, revokes and rolls nothing', async () => {
    const key = (await server.client.post(`/companies/${companyId}/keys`, { name: 'стоит', scopes: ['vacancies:read'] })).body;
    const readOnly = await clientWith({ scopes: ['keys:read', 'key-events:read'] });
    const before = [(await server.client.get(`/companies/${companyId}/keys`)).text, (await server.client.get(`/companies/${companyId}/key-events`)).text];
    const refused = [
      await readOnly.post(`/companies/${companyId}/keys`, { name: 'k', scopes: ['vacancies:read'] }),
      await readOnly.post(`/companies/${companyId}/keys/${key.id}/revoke`),
      await readOnly.post(`/companies/${companyId}/keys/${key.id}/roll`),
    ];
    expect(refused.map((r) => r.status)).to.deep.equal([403, 403, 403]);
    expect([(await readOnly.get(`/companies/${companyId}/keys`)).text, (await readOnly.get(`/companies/${companyId}/key-events`)).text]).to.deep.equal(before);
  });

  it('keeps a token limited to a company to it: another company, existing or not, is 403 naming it, and it creates no company', async () => {
    const limited = await clientWith({ companies: [companyId] });
    const own = await Promise.all(operations(limited, companyId).slice(1).map(([, send]) => send()));
    expect(own.map((r) => r.status)).to.deep.equal([200, 200, 201, 404, 404, 404, 200]);

    const keysBefore = (await server.client.get(`/companies/${otherCompanyId}/keys`)).text;
    for (const company of [otherCompanyId, UNKNOWN_COMPANY]) {
      const answers = await Promise.all(operations(limited, company).slice(1).map(([, send]) => send()));
      for (const response of answers) {
        expect(response.status, company).to.equal(403);
        expect(response.body).to.include({ code: 'forbidden', detail: `The platform token is not allowed for company ${company}.` });
      }
    }
    expect((await server.client.get(`/companies/${otherCompanyId}/keys`)).text, 'nothing issued in the other company').to.equal(keysBefore);

    const create = await limited.post('/companies', { name: 'Новая' });
    expect([create.status, create.body.code]).to.deep.equal([403, 'forbidden']);
    expect(create.body.detail).to.equal('The platform token is limited to named companies; this operation needs a token for every company.');
  });

  it('names the scope before the company when both are missing', async () => {
    const narrow = await clientWith({ scopes: ['keys:read'], companies: [companyId] });
    const response = await narrow.get(`/companies/${otherCompanyId}/key-events`);
    expect([response.status, response.body.detail]).to.deep.equal([403, 'The platform token lacks the scope key-events:read.']);
  });

  it('refuses an expired token with the 401 of a revoked one, from its expiry on', async () => {
    const expiresAt = new Date(server.clock.peek().getTime() + 60_000);
    const expiring = await clientWith({ expiresAt });
    expect((await expiring.get(`/companies/${companyId}/keys`)).status).to.equal(200);
    server.clock.advance(60_000);
    const refused = await expiring.get(`/companies/${companyId}/keys`);
    expect([refused.status, refused.body.code, refused.headers.get('www-authenticate')]).to.deep.equal([401, 'unauthorized', 'Bearer realm="management", error="invalid_token"']);
  });

  it('tells a token what it may do at GET /platform-token, whatever its scopes', async () => {
    const issued = await server.issuePlatformToken('page', { scopes: ['key-events:read'], companies: [companyId], expiresAt: new Date('2099-01-01T00:00:00Z') });
    const own = await server.client.as({ token: issued.token }).get('/platform-token');
    expect([own.status, own.body]).to.deep.equal([200, { id: issued.id, name: 'page', scopes: ['key-events:read'], companies: [companyId], expiresAt: '2099-01-01T00:00:00.000Z' }]);
    const full = await server.client.get('/platform-token');
    expect(full.body).to.deep.equal({ id: server.tokenId, name: 'test platform service', scopes: [...PLATFORM_SCOPES], companies: null, expiresAt: null });
    expect(full.text).not.to.contain(server.token.split('_')[2]);
  });
});
