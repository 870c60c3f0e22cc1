import { expect } from 'chai';
import type { ApiResponse } from '../support/api-client.js';
import { startManagementTestServer, type ManagementTestServer } from '../support/management-test-server.js';

/** RFC 6750 3.1: no error code when the request sent no token ... */
const CHALLENGE = 'Bearer realm="management"';
/** ... and invalid_token when the token it sent is malformed, unknown, wrong or revoked. */
const INVALID_TOKEN = 'Bearer realm="management", error="invalid_token"';
const FAKE_KEY_ID = 'Zz9Yy8Xx7Ww6';

describe('The management API: platform tokens and the transport conventions', () => {
  let server: ManagementTestServer;
  let companyId: string;
  let keyId: string;
  /** Every operation that needs a token: [method, path, body]. */
  let routes: [string, string, unknown][];

  before(async () => {
    server = await startManagementTestServer();
    companyId = (await server.client.post('/companies', { name: 'ТОО «Замок»' })).body.id;
    keyId = (await server.client.post(`/companies/${companyId}/keys`, { name: 'k', scopes: ['vacancies:read'] })).body.id;
    routes = [
      ['POST', '/companies', { name: 'Другая' }],
      ['GET', `/companies/${companyId}`, undefined],
      ['GET', `/companies/${companyId}/keys`, undefined],
      ['POST', `/companies/${companyId}/keys`, { name: 'k2', scopes: ['vacancies:read'] }],
      ['GET', `/companies/${companyId}/keys/${keyId}`, undefined],
      ['POST', `/companies/${companyId}/keys/${FAKE_KEY_ID}/revoke`, undefined],
      ['POST', `/companies/${companyId}/keys/${FAKE_KEY_ID}/roll`, undefined],
      ['GET', `/companies/${companyId}/key-events`, undefined],
    ];
  });
  after(() => server.close());

  const call = (method: string, path: string, body: unknown, headers: Record<string, string>) =>
    server.client.send(method, path, body === undefined ? undefined : JSON.stringify(body), { token: undefined, headers: { 'Content-Type': 'application/json', ...headers } });

  function expectUnauthorized(response: ApiResponse, label: string, challenge: string): void {
    expect(response.status, label).to.equal(401);
    expect(response.headers.get('content-type'), label).to.match(/^application\/problem\+json/);
    expect(response.headers.get('www-authenticate'), label).to.equal(challenge);
    expect(response.headers.get('cache-control'), label).to.equal('no-store');
    expect(response.headers.get('ratelimit'), label).to.match(/^"default";r=\d+;t=\d+$/);
    expect(response.body, label).to.include({ status: 401, code: 'unauthorized' });
  }

  it('answers 401 with one body for a missing, malformed, unknown, wrong or revoked token, on every route, the challenge saying invalid_token when one was sent', async () => {
    const revoked = await server.issuePlatformToken('revoked service');
    await server.revokePlatformToken(revoked.id);
    const [, id] = /^pt_([0-9A-Za-z]{12})_/.exec(server.token)!;
    const authorizations: Record<string, [string | undefined, string]> = {
      missing: [undefined, CHALLENGE],
      empty: ['', CHALLENGE],
      'scheme only': ['Bearer', CHALLENGE],
      'another scheme': [`Basic ${Buffer.from(`user:${server.token}`).toString('base64')}`, CHALLENGE],
      'token without scheme': [server.token, CHALLENGE],
      'a service key': [`Bearer ik_${FAKE_KEY_ID}_${'a'.repeat(40)}`, INVALID_TOKEN],
      malformed: ['Bearer pt_short_secret', INVALID_TOKEN],
      'two tokens': [`Bearer ${server.token} ${server.token}`, INVALID_TOKEN],
      unknown: [`Bearer pt_${'Q'.repeat(12)}_${'s'.repeat(40)}`, INVALID_TOKEN],
      'wrong secret': [`bearer pt_${id}_${'x'.repeat(40)}`, INVALID_TOKEN],
      revoked: [`Bearer ${revoked.token}`, INVALID_TOKEN],
    };
    const bodies = new Set<string>();
    for (const [label, [authorization, challenge]] of Object.entries(authorizations)) {
      for (const [method, path, body] of routes) {
        const response = await call(method, path, body, { 'X-Actor': 'someone', ...(authorization === undefined ? {} : { Authorization: authorization }) });
        expectUnauthorized(response, `${label}: ${method} ${path}`, challenge);
        bodies.add(JSON.stringify({ ...response.body, requestId: null }));
      }
    }
    expect([...bodies]).to.have.length(1);
    expect((await call('GET', `/companies/${companyId}`, undefined, { Authorization: `bearer  ${server.token}`, 'X-Actor': 'a' })).status, 'the scheme in any case').to.equal(200);
  });

  it('shuts a token out from the request after its revocation, and never reads one from the query string', async () => {
    const service = await server.issuePlatformToken('short-lived service');
    const client = server.client.as({ token: service.token });
    expect((await client.get(`/companies/${companyId}`)).status).to.equal(200);
    await server.revokePlatformToken(service.id);
    expectUnauthorized(await client.get(`/companies/${companyId}`), 'revoked', INVALID_TOKEN);
    const query = ['token', 'access_token', 'Authorization'].map((name) => `${name}=${encodeURIComponent(server.token)}`).join('&');
    expectUnauthorized(await server.client.get(`/companies/${companyId}?${query}`, { token: undefined }), 'in the query string', CHALLENGE);
  });

  it('keeps unknown paths under /internal/v1 behind the token (401, then 404), answers 405 for a known path, and serves openapi.json to anyone', async () => {
    expectUnauthorized(await server.client.get('/secret-admin', { token: undefined }), 'unknown path, no token', CHALLENGE);
    expectUnauthorized(await server.client.get('/secret-admin', { token: 'pt_made_up' }), 'unknown path, a made-up token', INVALID_TOKEN);
    const unknown = await server.client.get('/secret-admin');
    expect([unknown.status, unknown.body.code, unknown.headers.get('cache-control')]).to.deep.equal([404, 'not_found', 'no-store']);
    expect(unknown.body.detail).to.contain('/internal/v1/openapi.json');
    const wrongMethod = await server.client.send('DELETE', `/companies/${companyId}`, undefined);
    expect([wrongMethod.status, wrongMethod.body.code, wrongMethod.headers.get('allow')]).to.deep.equal([405, 'method_not_allowed', 'HEAD, GET']);
    const outside = await fetch(`${server.managementOrigin}/api/integration/v1/vacancies`);
    expect(outside.status, 'the public API is not on this listener').to.equal(404);
    const document = await server.client.get('/openapi.json', { token: undefined, actor: undefined });
    expect([document.status, document.body.openapi, document.headers.get('cache-control')]).to.deep.equal([200, '3.1.0', 'no-store']);
  });

  it('echoes a client request id in the header and in error bodies, and makes one up otherwise', async () => {
    const ok = await server.client.get(`/companies/${companyId}`, { headers: { 'X-Request-Id': 'platform-req-1' } });
    expect([ok.status, ok.headers.get('x-request-id')]).to.deep.equal([200, 'platform-req-1']);
    const failed = await server.client.get(`/companies/${companyId}`, { actor: undefined, headers: { 'X-Request-Id': 'platform-req-2' } });
    expect([failed.status, failed.body.requestId, failed.headers.get('cache-control')]).to.deep.equal([400, 'platform-req-2', 'no-store']);
    const made = await server.client.get(`/companies/${companyId}/keys/${keyId}`);
    expect(made.headers.get('x-request-id')).to.match(/^[0-9a-f-]{36}$/);
  });
});

describe('The management API: rate limits', () => {
  let server: ManagementTestServer;
  before(async () => {
    server = await startManagementTestServer({ config: { rateLimitPoints: 3, rateLimitWindowS: 60 } });
  });
  after(() => server.close());

  it("gives each token its own budget, and requests without a valid token their address's, apart from the public listener's", async () => {
    const other = server.client.as({ token: (await server.issuePlatformToken()).token });
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await server.client.get('/companies/unknown-company'));
    expect(answers.map((a) => a.status)).to.deep.equal([404, 404, 404, 429]);
    expect(answers.map((a) => /^"default";r=(\d+);t=\d+$/.exec(a.headers.get('ratelimit') ?? '')?.[1])).to.deep.equal(['2', '1', '0', '0']);
    const limited = answers[3]!;
    expect(limited.headers.get('ratelimit-policy')).to.equal('"default";q=3;w=60');
    expect(Number(limited.headers.get('retry-after'))).to.be.within(1, 60);
    expect(limited.body).to.include({ status: 429, code: 'rate_limited' });
    expect((await other.get('/companies/unknown-company')).status, "another token's budget").to.equal(404);

    for (let i = 0; i < 3; i++) await server.publicClient(undefined).get('/vacancies');
    const anonymous = [];
    for (let i = 0; i < 4; i++) anonymous.push((await server.client.get('/openapi.json', { token: undefined })).status);
    expect(anonymous, 'the address budget of this listener, untouched by the public one').to.deep.equal([200, 200, 200, 429]);
    expect((await server.client.get('/companies/x', { token: 'pt_wrong' })).status, 'a bad token spends the address budget').to.equal(429);
  });
});

describe('The management API: rate limits per company and before a token is read', () => {
  const budget = { rateLimitPoints: 3, rateLimitWindowS: 60 };
  const remainingOf = (answer: ApiResponse) => [answer.status, /;r=(\d+);/.exec(answer.headers.get('ratelimit') ?? '')?.[1]];

  it("gives a token a budget per company, however its id is spelt, apart from its own for POST /companies and another token's", async () => {
    const server = await startManagementTestServer({ config: budget });
    try {
      const busy = [];
      for (let i = 0; i < 3; i++) busy.push(remainingOf(await server.client.get('/companies/busy-company/keys')));
      expect(busy, "a busy company's page").to.deep.equal([[404, '2'], [404, '1'], [404, '0']]);
      expect(remainingOf(await server.client.get('/companies/busy%2Dcompany/key-events')), 'the same company, percent-encoded').to.deep.equal([429, '0']);
      expect(remainingOf(await server.client.get('/companies/quiet-company')), 'another company').to.deep.equal([404, '2']);
      expect(remainingOf(await server.client.post('/companies', { name: 'ТОО «Новая»' })), 'the token itself').to.deep.equal([201, '2']);
      const other = server.client.as({ token: (await server.issuePlatformToken()).token });
      expect(remainingOf(await other.get('/companies/busy-company')), "another token's budget for the busy company").to.deep.equal([404, '2']);
    } finally {
      await server.close();
    }
  });

  it('refuses an address that spent its budget before reading the token it sends: made-up tokens cost no read of the key registry', async () => {
    const { PlatformUnauthorizedError } = await import('../../domain/platform-token/platform-token.js');
    const looked: (string | undefined)[] = [];
    const authenticatePlatformToken = {
      execute: async ({ presented }: { presented: string | undefined }) => {
        looked.push(presented);
        throw new PlatformUnauthorizedError();
      },
    };
    const server = await startManagementTestServer({ config: budget, overrides: { authenticatePlatformToken } });
    try {
      const answers: ApiResponse[] = [];
      for (let i = 0; i < 10; i++) answers.push(await server.client.get('/companies/c', { token: `pt_${String(i).padStart(12, 'Q')}_${'s'.repeat(40)}` }));
      expect(answers.map(remainingOf)).to.deep.equal([[401, '2'], [401, '1'], [401, '0'], ...Array(7).fill([429, '0'])]);
      expect(looked, 'tokens looked up: only while the address had budget left').to.have.length(3);
      expect(Number(answers[9]!.headers.get('retry-after'))).to.be.within(1, 60);
    } finally {
      await server.close();
    }
  });

  it('refuses a valid token too from an address that spent its budget, since its token is not read', async () => {
    const server = await startManagementTestServer({ config: budget });
    try {
      for (let i = 0; i < 3; i++) expect((await server.client.get('/openapi.json', { token: undefined })).status).to.equal(200);
      expect(remainingOf(await server.client.get('/companies/c'))).to.deep.equal([429, '0']);
    } finally {
      await server.close();
    }
  });
});
