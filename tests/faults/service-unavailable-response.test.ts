import { expect } from 'chai';
import { DOMAIN_ERROR_MAPPINGS, STORE_UNAVAILABLE_RETRY_AFTER_S } from '../../adapters/http/error-mapping.js';
import { StoreUnavailableError } from '../../application/ports/store-unavailable.error.js';
import { aTenant } from '../support/http-fixtures.js';
import { startTestServer } from '../support/http-test-server.js';

/** Imported statically, as the server's modules are, so that the class is the server's own (see tests/http/errors.test.ts). */
function storeUnavailable(reason: string): Error {
  return new StoreUnavailableError(reason, { cause: new Error("select * from candidates where email = 'private@example.kz' - Connection terminated unexpectedly") });
}

describe('A database that does not answer, as HTTP clients see it', () => {
  it('maps StoreUnavailableError to 503 service_unavailable with Retry-After, and every other mapped error stays below 500', () => {
    expect(DOMAIN_ERROR_MAPPINGS.get(StoreUnavailableError)).to.deep.equal({ status: 503, title: 'Service unavailable', retryAfterS: STORE_UNAVAILABLE_RETRY_AFTER_S });
    const fiveHundreds = [...DOMAIN_ERROR_MAPPINGS].filter(([, mapping]) => mapping.status >= 500).map(([errorClass]) => errorClass.name);
    expect(fiveHundreds).to.deep.equal(['StoreUnavailableError']);
  });

  for (const [stage, overrides] of [
    ['the key registry fails while authenticating', { authenticateKey: { execute: async () => Promise.reject(storeUnavailable('ECONNREFUSED')) } }],
    ['the business database fails in a route', { listVacancies: { execute: async () => Promise.reject(storeUnavailable('57P01')) } }],
  ] as const) {
    it(`answers 503 problem+json with Retry-After: 5 when ${stage}, and logs the reason but not the driver's message`, async () => {
      const server = await startTestServer({ overrides });
      try {
        const tenant = await aTenant(server);
        const response = await tenant.api.get('/vacancies', { headers: { 'X-Request-Id': 'outage-1' } });
        expect(response.status).to.equal(503);
        expect(response.headers.get('content-type')).to.match(/^application\/problem\+json/);
        expect(response.headers.get('retry-after')).to.equal('5');
        expect(response.body).to.deep.equal({
          type: 'urn:problem-type:integration-api:service_unavailable',
          title: 'Service unavailable',
          status: 503,
          code: 'service_unavailable',
          detail: 'The service cannot reach its database right now. Retry after the time given in Retry-After.',
          requestId: 'outage-1',
        });
        const warning = server.logs().find((line) => line.msg === 'the database does not answer');
        expect(warning).to.include({ requestId: 'outage-1', level: 40 });
        expect(server.rawLogs()).to.not.contain('private@example.kz');
      } finally {
        await server.close();
      }
    });
  }
});
