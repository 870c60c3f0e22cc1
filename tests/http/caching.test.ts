import { expect } from 'chai';
import { ApiClient, type ApiResponse } from '../support/api-client.js';
import { aMinimalApplicationBody, aTenant, type Tenant } from '../support/http-fixtures.js';
import { startTestServer, type TestServer } from '../support/http-test-server.js';

/** Every answer, keyed or not, success or error, is one no cache may keep (ADR 14). */
function expectNoStore(answers: Record<string, ApiResponse>): void {
  // Vary: Accept-Encoding (compression) is fine; varying on the key would only matter to a cache allowed to store.
  const varyOnKey = (r: ApiResponse) => /x-api-key/i.test(r.headers.get('vary') ?? '');
  const seen = Object.fromEntries(Object.entries(answers).map(([label, r]) => [label, [r.status, r.headers.get('cache-control'), varyOnKey(r)]]));
  const expected = Object.fromEntries(Object.entries(answers).map(([label, r]) => [label, [r.status, 'no-store', false]]));
  expect(seen).to.deep.equal(expected);
}

describe('Caching: no cache keeps one caller\'s answer for another', () => {
  let server: TestServer;
  let tenant: Tenant;
  let vacancyId: string;

  before(async () => {
    server = await startTestServer({ config: { rateLimitPoints: 40, rateLimitWindowS: 60 } });
    tenant = await aTenant(server);
    vacancyId = (await tenant.addVacancy()).id;
  });
  after(() => server.close());

  it('sends Cache-Control: no-store on every keyed answer: lists, applications and each of their errors', async () => {
    const api = tenant.api;
    const body = aMinimalApplicationBody(vacancyId);
    const storefront = api.withKey((await tenant.issueKey(['vacancies:read'])).key);
    expectNoStore({
      vacancies: await api.get('/vacancies'),
      candidates: await api.get('/candidates'),
      created: await api.post('/applications', body),
      duplicate: await api.post('/applications', body),
      'bad query': await api.get('/vacancies?limit=0'),
      'bad cursor': await api.get('/candidates?cursor=nonsense'),
      'bad body': await api.post('/applications', {}),
      'no key': await api.get('/vacancies', { key: undefined }),
      'no scope': await storefront.get('/candidates'),
      'unknown vacancy': await api.post('/applications', aMinimalApplicationBody('no-such-vacancy')),
      'unknown route': await api.get('/no-such-route'),
      'wrong method': await api.send('DELETE', '/vacancies', undefined),
      'not JSON': await api.send('POST', '/applications', 'a=1', { headers: { 'Content-Type': 'application/x-www-form-urlencoded' } }),
      'too large': await api.post('/applications', JSON.stringify({ pad: 'x'.repeat(6 * 1024 * 1024) })),
    });
  });

  it('sends it on a 429 too', async () => {
    const spender = tenant.api.withKey((await tenant.issueKey(['vacancies:read'])).key);
    let last: ApiResponse;
    do last = await spender.get('/vacancies');
    while (last.status === 200);
    expectNoStore({ 'rate limited': last });
  });

  it('sends it on the unkeyed answers as well: the OpenAPI document and the probes', async () => {
    const root = new ApiClient(server.origin);
    expectNoStore({
      document: await tenant.api.get('/openapi.json', { key: undefined }),
      healthz: await root.get('/healthz'),
      readyz: await root.get('/readyz'),
      'unknown path outside the API': await root.get('/favicon.ico'),
    });
  });
});
